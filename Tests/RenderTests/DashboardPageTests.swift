import Foundation
import OwnerDashCore
import Testing
import XMLKit
@testable import Render

@Suite struct DashboardPageTests {
    let html = DashboardPage.render(DashboardFixtures.dashboard)

    @Test func pageIsWellFormedWithOneHeadAndBody() throws {
        let root = try DashboardFixtures.parse(html)
        #expect(html.hasPrefix("<!DOCTYPE html>\n"))
        #expect(root.localName == "html")
        #expect(root.attribute("lang") == "en")
        #expect(root.children.map(\.localName) == ["head", "body"])
        #expect(root.descendants(named: "meta").contains { $0.attribute("name") == "viewport" })
        #expect(root.descendants(named: "h1").map(\.text) == ["Kairoi & Co"])
        #expect(root.descendants(named: "time").first?.attribute("datetime") == "2026-12-20")
        #expect(html.contains("Generated 2026-12-21 04:05 UTC"))
    }

    @Test func pageRequestsNothingFromOutside() throws {
        let root = try DashboardFixtures.parse(html)
        for reference in ["http:", "https:", "ftp:", "url(", "@import", "@font-face"] {
            #expect(!html.lowercased().contains(reference), "the page names \(reference)")
        }
        // Every link is an anchor in the page; no element loads anything.
        for link in root.descendants(named: "a") {
            let target = link.attribute("href") ?? ""
            #expect(target.hasPrefix("#"), "link to \(target)")
            #expect(root.element(id: String(target.dropFirst())) != nil, "dangling anchor \(target)")
        }
        for name in ["img", "link", "iframe", "object", "embed", "image", "use"] {
            #expect(root.descendants(named: name).isEmpty, "<\(name)> in the page")
        }
        #expect(root.descendants(named: "script").allSatisfy { $0.attribute("src") == nil })
        #expect(!html.contains(" src="))
    }

    @Test func propertyNamesAreEscapedEverywhere() throws {
        let root = try DashboardFixtures.parse(html)
        #expect(!html.contains("<script>alert"))
        #expect(!html.contains("<b>"))
        // Only the page's own script; the name reads back as written in the table, heading and chart titles.
        #expect(root.descendants(named: "script").count == 1)
        let rowHeader = root.descendants(named: "tbody").first?.descendants(named: "th")
        #expect(rowHeader?.contains { $0.attribute("data-value") == DashboardFixtures.hostileName } == true)
        #expect(root.descendants(named: "h2").contains { $0.text == DashboardFixtures.hostileName })
        #expect(root.descendants(named: "title").contains { $0.text == "Delinquency aging, \(DashboardFixtures.hostileName)" })
        #expect(root.descendants(named: "th").contains { $0.text == "2BR <b>" })
    }

    @Test func portfolioTableHasOneSortableRowPerPropertyAndATotal() throws {
        let root = try DashboardFixtures.parse(html)
        let table = try #require(root.element(id: "portfolio-table"))
        let rows = try #require(table.child(named: "tbody")).children(named: "tr")
        #expect(rows.map { $0.attribute("data-key") } == ["nexus_east", "harbor_sons", "stone_row", "quarry_flats"])
        let headings = try #require(table.child(named: "thead")?.descendants(named: "th"))
        #expect(headings.map(\.text) == ["Property", "Units", "Occupancy", "Leased", "Exposure 30", "Exposure 60",
                                         "Delinquent", "Net delinquent", "Leads", "Leases"])
        // Every heading is a keyboard-operable button, and numeric columns say so for the sort script.
        #expect(headings.allSatisfy { $0.child(named: "button")?.attribute("type") == "button" })
        #expect(headings.dropFirst().allSatisfy { $0.attribute("data-type") == "number" })
        #expect(rows.allSatisfy { $0.children.count == headings.count })

        // The sort keys are the metric values themselves, not their formatted text.
        let nexus = rows[0].children.map { $0.attribute("data-value") ?? "?" }
        #expect(nexus == ["Nexus East", "300.0000", "94.3300", "96.0000", "4.6700", "6.3300", "18420.5000",
                          "16110.2500", "48.0000", "9.0000"])
        #expect(rows[0].children.map(\.text).dropFirst() == ["300", "94.3%", "96.0%", "4.7%", "6.3%", "$18,421",
                                                             "$16,110", "48", "9"])
        // A property never synced has no numbers, and its empty sort keys sort last in either direction.
        let quarry = rows[3].children.dropFirst()
        #expect(quarry.allSatisfy { $0.text == "no data" && $0.attribute("data-value") == "" })

        let total = try #require(table.child(named: "tfoot")?.child(named: "tr"))
        #expect(total.children.map(\.text) == ["Portfolio", "420", "93.1%", "94.8%", "6.0%", "7.4%", "$20,921",
                                              "$18,610", "48", "9"])
    }

    @Test func sortScriptReadsTheAttributesTheTableWrites() {
        let script = DashboardStyle.script
        for name in ["portfolio-table", "data-value", "data-type", "data-first", "aria-sort", "sort-status"] {
            #expect(script.contains(name))
            #expect(html.contains(name))
        }
        #expect(!script.contains("]]>") || script.hasSuffix("/*]]>*/"))
    }

    @Test func propertyWithoutSnapshotsSaysNoDataInsteadOfZeros() throws {
        let root = try DashboardFixtures.parse(html)
        let section = try #require(root.element(id: "p-quarry_flats"))
        #expect(section.descendants(named: "svg").isEmpty)
        #expect(section.descendants(named: "dl").isEmpty)
        #expect(section.descendants(named: "span", classed: "nodata").map(\.text) == ["no data"])
        #expect(section.text.contains("no snapshot of this property on or before Dec 20, 2026"))
        #expect(!section.text.contains("$0"))
        #expect(!section.text.contains("0.0%"))
    }

    @Test func aFunnelConvertingAboveAHundredPercentSaysWhy() throws {
        var nexus = DashboardFixtures.nexus
        nexus.funnel = LeasingFunnel(leads: 48, tours: 24, applications: 5, leases: 7, leadToTour: 50.0,
                                     tourToApplication: 20.83, applicationToLease: 140.0, leadToLease: 14.58)
        var dashboard = DashboardFixtures.dashboard
        dashboard.properties = [nexus]
        let section = try #require(try DashboardFixtures.parse(DashboardPage.render(dashboard)).element(id: "p-nexus_east"))
        let notes = section.descendants(named: "p", classed: "note").map(\.text)
        #expect(notes.contains { $0.hasPrefix("Above 100 %: app→lease 140% (7 of 5): the funnel's conversions compare the events of one window") },
                "\(notes)")
        // The fixture's own funnel converts below 100 % at every step: no such note.
        #expect(!html.contains("Above 100 %"))
    }

    @Test func partlySyncedPropertySaysNoDataPerMissingChart() throws {
        let root = try DashboardFixtures.parse(html)
        let section = try #require(root.element(id: "p-stone_row"))
        #expect(section.descendants(named: "svg").map { $0.attribute("id") } == ["p-stone_row-trend"])
        let placeholders = section.descendants(named: "div", classed: "nodata")
        #expect(placeholders.map { $0.attribute("aria-label") } == [
            "No delinquency snapshot for Stone Row", "No leasing activity data for Stone Row", "No pricing snapshot for Stone Row",
            "No work-order source for Stone Row", "No expense source for Stone Row",
        ])
        #expect(placeholders.allSatisfy { $0.text == "no data" && $0.attribute("role") == "img" })
        // Units known (0), percentages not: the KPI strip shows the zero it has and "no data" for the rest.
        let figures = section.descendants(named: "dd").map(\.text)
        #expect(figures == ["0", "no data", "no data", "no data", "no data", "no data"])
        #expect(!section.text.contains("Leasing funnel Nov"))
    }

    @Test func everyChartIsLabelledForScreenReaders() throws {
        let root = try DashboardFixtures.parse(html)
        let charts = root.descendants(named: "svg")
        // Nexus: trend, aging, funnel; Harbor: the same; Stone Row: the trend; Quarry: none.
        #expect(charts.count == 7)
        for chart in charts {
            #expect(chart.attribute("role") == "img")
            let ids = (chart.attribute("aria-labelledby") ?? "").split(separator: " ").map(String.init)
            #expect(ids.count == 2)
            for id in ids { #expect(chart.element(id: id)?.text.isEmpty == false) }
        }
        let nexusTrend = try #require(root.element(id: "p-nexus_east-trend"))
        #expect(nexusTrend.child(named: "desc")?.text.contains("Dec 20, 2026: occupancy 94.3%, leased 96.0%") == true)
    }

    @Test func pricingTableShowsEachFloorplanAndTheRollUp() throws {
        let root = try DashboardFixtures.parse(html)
        let section = try #require(root.element(id: "p-nexus_east"))
        let table = try #require(section.descendants(named: "div", classed: "pricing").first?.descendants(named: "table").first)
        let rows = try #require(table.child(named: "tbody")).children(named: "tr")
        #expect(rows.map { $0.children.map(\.text) } == [
            ["A1One Bedroom", "120", "650", "$1,450", "$2.23", "$1,525", "$2.35", "$8,500", "+2.5% (4)"],
            ["B2", "180", "1,050", "$1,981", "$1.89", "$2,050", "$1.95", "$12,000", "-1.0% (2)"],
        ])
        #expect(table.child(named: "tfoot")?.child(named: "tr")?.children.map(\.text) ==
                ["All floorplans", "300", "890", "$1,768", "$1.99", "$1,840", "$2.07", "$20,500", "+1.3% (6)"])
        #expect(section.text.contains("Trade-out: leases signed Sep 22 to Dec 20"))
        // Missing values say so; a floorplan with no lease to compare has no trade-out rather than 0%.
        let harbor = try #require(root.element(id: "p-harbor_sons"))
        let harborRow = harbor.descendants(named: "div", classed: "pricing").first?.descendants(named: "tr").last
        #expect(harborRow?.children.map(\.text) == ["2BR <b>", "120", "900", "$1,600", "$1.78", "no data", "no data",
                                                    "no data", "n/a"])
    }

    @Test func pageMatchesItsGoldenFile() throws {
        try DashboardSnapshot.check(html, named: "dashboard_small.html")
    }

    @Test func sameContentGivesTheSameBytes() {
        #expect(DashboardPage.render(DashboardFixtures.dashboard) == html)
    }
}

/// The golden HTML page: `OWNERDASH_RECORD_SNAPSHOTS=1` rewrites it and fails the run, so nothing is recorded silently.
enum DashboardSnapshot {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Snapshots")

    static func check(_ actual: String, named name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let file = directory.appendingPathComponent(name)
        if ProcessInfo.processInfo.environment["OWNERDASH_RECORD_SNAPSHOTS"] == "1" {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try actual.write(to: file, atomically: true, encoding: .utf8)
            Issue.record("recorded \(file.path); run again without OWNERDASH_RECORD_SNAPSHOTS", sourceLocation: sourceLocation)
            return
        }
        guard let expected = try? String(contentsOf: file, encoding: .utf8) else {
            Issue.record("no snapshot \(file.path); record it with OWNERDASH_RECORD_SNAPSHOTS=1", sourceLocation: sourceLocation)
            return
        }
        #expect(actual == expected, "\(name) differs from its snapshot (diff it against \(file.path))", sourceLocation: sourceLocation)
    }
}

@Suite struct DashboardChecksPanelTests {
    @Test func eachPropertyShowsItsChecksPassedFailedAndSkippedWithTheDifference() throws {
        var dashboard = DashboardFixtures.dashboard
        dashboard.properties[0].checks = [
            SyncCheckLine(check: "box_score", measure: "units", status: "failed", expected: 352, actual: 353,
                          difference: 1, detail: "Box Score Property Totals says 352, unified_units 353 (difference 1, tolerance 0)"),
            SyncCheckLine(check: "delinquency_totals", measure: "net balance", status: "passed", expected: -96267.53,
                          actual: -96267.53, difference: 0, detail: "Delinquent and Prepaid Grand Totals -96267.53 = unified_delinquency -96267.53"),
            SyncCheckLine(check: "ledger_open_balance", measure: "net balance", status: "skipped", expected: nil,
                          actual: nil, difference: nil, detail: "no tenant ledger"),
        ]
        let root = try DashboardFixtures.parse(DashboardPage.render(dashboard))
        let id = "p-\(dashboard.properties[0].key)"
        let heading = try #require(root.element(id: "\(id)-checks"))
        #expect(heading.text.hasPrefix("Checked against"))
        let table = try #require(root.descendants(named: "table").first { $0.attribute("aria-labelledby") == "\(id)-checks" })
        let rows = try #require(table.child(named: "tbody")).children(named: "tr")
        #expect(rows.map { $0.attribute("class") } == ["check-failed", "check-passed", "check-skipped"])
        #expect(rows[0].descendants(named: "td").map(\.text) == [
            "failed", "1.00", "Box Score Property Totals says 352, unified_units 353 (difference 1, tolerance 0)"])
        #expect(rows[2].descendants(named: "td").last?.text == "no tenant ledger")
        #expect(root.descendants(named: "p").contains { $0.text == "1 passed, 1 failed, 1 skipped" })
        // A property without checks says so instead of an empty table.
        let other = "p-\(dashboard.properties[1].key)"
        #expect(root.descendants(named: "table").allSatisfy { $0.attribute("aria-labelledby") != "\(other)-checks" })
    }
}
