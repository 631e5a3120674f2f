import OwnerDashCore
import Testing
import XMLKit
@testable import Render

@Suite struct DashboardChartTests {
    private func chart(_ write: (inout HTMLWriter) -> Void) throws -> XMLElement {
        var html = HTMLWriter()
        write(&html)
        return try DashboardFixtures.parse(html.html)
    }

    // MARK: - Aging

    @Test func agingBarHeightsAreProportionalToTheBuckets() throws {
        let aging = try #require(DashboardFixtures.nexus.aging)
        let svg = try chart { SVGAgingChart(id: "a", propertyName: "Nexus East", aging: aging).write(&$0) }
        let bars = svg.descendants(named: "rect", classed: "bar")
        #expect(bars.map { $0.attribute("data-bucket") } == ["0-30", "31-60", "61-90", "90+", "Prepaid"])
        let cents = bars.map { Double($0.attribute("data-cents") ?? "") ?? -1 }
        #expect(cents == [1_200_000, 400_000, 142_050, 100_000, 231_025])
        let heights = bars.map { $0.number("height") ?? -1 }
        // The largest bucket fills the plot; every other bar is its share of it (to the 0.01 px written).
        let plot = SVGAgingChart.bottom - SVGAgingChart.top
        #expect(heights[0] == plot)
        for (height, amount) in zip(heights, cents) {
            #expect(abs(height - plot * amount / 1_200_000) < 0.006, "bar of \(amount) cents is \(height) high")
        }
        // Bars stand on the baseline.
        for bar in bars {
            #expect(abs((bar.number("y") ?? 0) + (bar.number("height") ?? 0) - SVGAgingChart.bottom) < 0.006)
        }
        let labels = svg.descendants(named: "text", classed: "value").map(\.text)
        #expect(labels == ["$12,000", "$4,000", "$1,421", "$1,000", "$2,310"])
    }

    @Test func agingWithNothingOwedDrawsFlatBarsWithZeroLabels() throws {
        let zero = DelinquencyAging(balance0to30: .zero, balance31to60: .zero, balance61to90: .zero, balanceOver90: .zero,
                                    prepaid: .zero, net: .zero)
        let svg = try chart { SVGAgingChart(id: "a", propertyName: "P", aging: zero).write(&$0) }
        #expect(svg.descendants(named: "rect", classed: "bar").allSatisfy { $0.number("height") == 0 })
        #expect(svg.descendants(named: "text", classed: "value").allSatisfy { $0.text == "$0" })
    }

    @Test func negativeBucketDrawsNoBarButKeepsItsAmount() throws {
        let aging = DelinquencyAging(balance0to30: Money(cents: 10_000), balance31to60: Money(cents: -2_500),
                                     balance61to90: .zero, balanceOver90: .zero, prepaid: .zero, net: Money(cents: 7_500))
        let svg = try chart { SVGAgingChart(id: "a", propertyName: "P", aging: aging).write(&$0) }
        let bars = svg.descendants(named: "rect", classed: "bar")
        #expect(bars[1].number("height") == 0)
        #expect(svg.descendants(named: "text", classed: "value")[1].text == "-$25")
    }

    // MARK: - Funnel

    @Test func funnelBarWidthsAreProportionalToTheCountsWithConversions() throws {
        let funnel = try #require(DashboardFixtures.nexus.funnel)
        let svg = try chart { SVGFunnelChart(id: "f", propertyName: "Nexus East", funnel: funnel).write(&$0) }
        let bars = svg.descendants(named: "rect", classed: "bar")
        #expect(bars.map { $0.attribute("data-stage") } == ["leads", "tours", "applications", "leases"])
        #expect(bars.map { $0.attribute("data-count") } == ["48", "24", "12", "9"])
        #expect(bars.map { $0.number("width") } == [210, 105, 52.5, 39.38])
        let conversions = svg.descendants(named: "text", classed: "conversion").map(\.text)
        #expect(conversions == ["\u{2193} 50.0% of leads toured", "\u{2193} 50.0% of tours applied",
                                "\u{2193} 75.0% of applications leased"])
        #expect(svg.child(named: "desc")?.text == "leads 48, tours 24, applications 12, leases 9; lead to lease 18.8%.")
    }

    /// A funnel whose applications no synced source counts (a RealPage Leasing Activity Detail without the Activity
    /// report): no bar and "unknown" for them, n/a for the conversions through them, never a 0.
    @Test func unknownApplicationsAreSaidToBeUnknown() throws {
        var funnel = try #require(DashboardFixtures.nexus.funnel)
        funnel.applications = nil; funnel.tourToApplication = nil; funnel.applicationToLease = nil
        let svg = try chart { SVGFunnelChart(id: "f", propertyName: "Nexus East", funnel: funnel).write(&$0) }
        let bars = svg.descendants(named: "rect", classed: "bar")
        #expect(bars.map { $0.attribute("data-count") } == ["48", "24", "unknown", "9"])
        #expect(bars[2].number("width") == 0)
        #expect(svg.descendants(named: "text", classed: "value").map(\.text) == ["48", "24", "unknown", "9"])
        #expect(svg.child(named: "desc")?.text == "leads 48, tours 24, applications unknown, leases 9; lead to lease 18.8%.")
    }

    @Test func funnelWithoutLeadsSaysNotApplicableForConversions() throws {
        let funnel = try #require(DashboardFixtures.harbor.funnel)
        let svg = try chart { SVGFunnelChart(id: "f", propertyName: "H", funnel: funnel).write(&$0) }
        #expect(svg.descendants(named: "rect", classed: "bar").allSatisfy { $0.number("width") == 0 })
        #expect(svg.descendants(named: "text", classed: "conversion").allSatisfy { $0.text.contains("n/a") })
    }

    // MARK: - Trend

    @Test func backfilledMonthEndsAreHollowAndSetApartFromTheSyncedSnapshots() throws {
        let backfilled = [OccupancyPoint(date: LocalDate(iso: "2026-06-30")!, occupancyPct: 91, leasedPct: 93, backfilled: true),
                          OccupancyPoint(date: LocalDate(iso: "2026-07-31")!, occupancyPct: 91.5, leasedPct: 93.5, backfilled: true)]
        let points = backfilled + DashboardFixtures.nexus.trend
        let svg = try chart { SVGTrendChart(id: "t", propertyName: "Nexus East", points: points).write(&$0) }
        let occupancy = svg.descendants(named: "circle", classed: "point-occupancy")
        #expect(occupancy.count == 6)
        #expect(occupancy.map { $0.attribute("fill") } == ["#fff", "#fff"] + Array(repeating: SVGChart.Palette.blue, count: 4))
        #expect(occupancy.prefix(2).allSatisfy { ($0.attribute("class") ?? "").contains("backfilled") })
        // The dotted boundary sits between the last backfilled month end and the first synced snapshot.
        let boundary = try #require(svg.descendants(named: "line", classed: "backfill-boundary").first)
        let xs = occupancy.compactMap { $0.number("cx") }
        #expect(abs((boundary.number("x1") ?? 0) - (xs[1] + xs[2]) / 2) < 0.01)
        #expect(svg.child(named: "desc")?.text.hasPrefix("6 snapshots (2 backfilled month ends from resident history).") == true)
    }

    @Test func trendPlacesSnapshotsByDateAndValue() throws {
        let points = DashboardFixtures.nexus.trend
        let svg = try chart { SVGTrendChart(id: "t", propertyName: "Nexus East", points: points).write(&$0) }
        let occupancy = svg.descendants(named: "circle", classed: "point-occupancy")
        let leased = svg.descendants(named: "rect", classed: "point-leased")
        #expect(occupancy.count == 4 && leased.count == 4)
        let xs = occupancy.compactMap { $0.number("cx") }
        #expect(xs.first == SVGTrendChart.left && xs.last == SVGTrendChart.right)
        // Aug 20 -> Sep 20 -> Oct 20 are 31 and 30 days apart; Oct 20 -> Dec 20 is 61: the gap shows.
        let steps = zip(xs.dropFirst(), xs).map { $0 - $1 }
        #expect(abs(steps[2] / steps[1] - 61.0 / 30.0) < 0.001)
        // Higher value, higher on the page (smaller y); y is linear in the value.
        let domain = SVGTrendChart.yDomain(points)
        #expect(domain.low == 90 && domain.high == 100)
        for (circle, point) in zip(occupancy, points) {
            let expected = SVGTrendChart.bottom - (SVGTrendChart.bottom - SVGTrendChart.top) * (point.occupancyPct - 90) / 10
            #expect(abs((circle.number("cy") ?? 0) - expected) < 0.006)
            #expect(circle.attribute("data-value") == DashboardFormat.sortKey(point.occupancyPct))
        }
        let paths = svg.descendants(named: "path")
        #expect(paths.count == 2)
        #expect(paths.allSatisfy { ($0.attribute("d") ?? "").split(separator: "L").count == 4 })
        // The latest values are written at the end of the lines.
        #expect(svg.descendants(named: "text", classed: "occupancy").map(\.text) == ["94.3%"])
        #expect(svg.descendants(named: "text", classed: "leased").map(\.text) == ["96.0%"])
    }

    @Test func singleSnapshotIsTwoLabelledDotsWithoutALine() throws {
        let points = DashboardFixtures.harbor.trend
        let svg = try chart { SVGTrendChart(id: "t", propertyName: "H", points: points).write(&$0) }
        #expect(svg.descendants(named: "path").isEmpty)
        let dot = try #require(svg.descendants(named: "circle", classed: "point-occupancy").first)
        let square = try #require(svg.descendants(named: "rect", classed: "point-leased").first)
        // Either side of the middle (the date), so equal values do not hide one marker under the other.
        let middle = (SVGTrendChart.left + SVGTrendChart.right) / 2
        #expect(dot.number("cx") == middle - 5)
        #expect(abs((square.number("x") ?? 0) + 3.5 - (middle + 5)) < 0.006)
        #expect(svg.descendants(named: "text", classed: "occupancy").map(\.text) == ["90.0%"])
        #expect(svg.descendants(named: "text", classed: "leased").map(\.text) == ["91.7%"])
        #expect(svg.descendants(named: "text", classed: "axis").contains { $0.text == "Dec 20, 2026" })
    }

    @Test func trendAxisReachesDownToTheLowestValue() {
        let low = [OccupancyPoint(date: DashboardFixtures.date("2026-01-01"), occupancyPct: 61.2, leasedPct: 70)]
        #expect(SVGTrendChart.yDomain(low) == (60, 100))
        #expect(SVGTrendChart.yStep(SVGTrendChart.yDomain(low)) == 10)
        // A lease-up at 56.9%: ticks every 10 points from 50 up to 100, not 55, 65, ... 95.
        let leaseUp = [OccupancyPoint(date: DashboardFixtures.date("2026-01-01"), occupancyPct: 56.9, leasedPct: 69.9)]
        #expect(SVGTrendChart.yDomain(leaseUp) == (50, 100))
        #expect(SVGTrendChart.yStep(SVGTrendChart.yDomain(leaseUp)) == 10)
        let full = [OccupancyPoint(date: DashboardFixtures.date("2026-01-01"), occupancyPct: 100, leasedPct: 100)]
        #expect(SVGTrendChart.yDomain(full) == (90, 100))
        let empty = [OccupancyPoint(date: DashboardFixtures.date("2026-01-01"), occupancyPct: 0, leasedPct: 0)]
        #expect(SVGTrendChart.yDomain(empty) == (0, 100))
    }

    @Test func gridlinesRunFromTheBottomToOneHundredOnRoundNumbers() throws {
        for lowest in [0.0, 12.5, 39.9, 40.2, 56.9, 69.5, 70.5, 88.0, 99.0] {
            let points = [OccupancyPoint(date: DashboardFixtures.date("2026-01-01"), occupancyPct: lowest, leasedPct: 100)]
            let svg = try chart { SVGTrendChart(id: "t", propertyName: "P", points: points).write(&$0) }
            let ticks = svg.descendants(named: "text", classed: "axis").map(\.text).filter { $0.hasSuffix("%") }
            let domain = SVGTrendChart.yDomain(points)
            let step = SVGTrendChart.yStep(domain)
            #expect(ticks.first == DashboardFormat.fixed(domain.low, decimals: 0) + "%")
            #expect(ticks.last == "100%", "lowest \(lowest): \(ticks)")
            #expect(ticks.count == Int((100 - domain.low) / step) + 1)
            #expect(domain.low <= lowest - 1 || domain.low == 0)
        }
    }

    @Test func closeEndLabelsArePushedApartInValueOrder() throws {
        let points = [OccupancyPoint(date: DashboardFixtures.date("2026-01-01"), occupancyPct: 95.0, leasedPct: 94.9)]
        let svg = try chart { SVGTrendChart(id: "t", propertyName: "P", points: points).write(&$0) }
        let occupancyY = try #require(svg.descendants(named: "text", classed: "occupancy").first?.number("y"))
        let leasedY = try #require(svg.descendants(named: "text", classed: "leased").first?.number("y"))
        #expect(occupancyY < leasedY)
        #expect(leasedY - occupancyY >= 14)
    }
}

@Suite struct DashboardFormatTests {
    @Test func moneyPercentAndCounts() {
        #expect(DashboardFormat.money(Money(cents: 123_456_789)) == "$1,234,568")
        #expect(DashboardFormat.money(Money(cents: 123_456_789), cents: true) == "$1,234,567.89")
        #expect(DashboardFormat.money(Money(cents: -5_067_560), cents: true) == "-$50,675.60")
        #expect(DashboardFormat.money(Money(cents: 49)) == "$0")
        #expect(DashboardFormat.money(Money(cents: 50)) == "$1")
        #expect(DashboardFormat.money(nil) == "no data")
        #expect(DashboardFormat.percent(94.25) == "94.3%")
        #expect(DashboardFormat.percent(100) == "100.0%")
        #expect(DashboardFormat.percent(-0.01) == "0.0%")
        #expect(DashboardFormat.count(1_234_567) == "1,234,567")
        #expect(DashboardFormat.count(-1_000) == "-1,000")
        #expect(DashboardFormat.perSquareFoot(1.625) == "$1.63")
        #expect(DashboardFormat.squareFeet(1049.5) == "1,050")
        #expect(DashboardFormat.longDate(DashboardFixtures.date("2026-02-03")) == "Feb 3, 2026")
    }

    @Test func escapingCoversMarkupQuotesAndControlCharacters() {
        #expect(HTMLWriter.escape("<a href=\"x\">Tom's & Co</a>") == "&lt;a href=&quot;x&quot;&gt;Tom&#39;s &amp; Co&lt;/a&gt;")
        #expect(HTMLWriter.escape("a\u{1}b\tc") == "a\u{FFFD}b\tc")
        var ids = SectionIDs()
        #expect(ids.next(for: "a b") == "p-a_b")
        #expect(ids.next(for: "a_b") == "p-a_b-2")
        #expect(ids.next(for: "\"><script>") == "p-___script_")
    }
}
