/// The leasing funnel: leads, tours, applications and leases as horizontal bars on one scale, with the
/// conversion from each step to the next (as the funnel metric states it) written between the bars.
struct SVGFunnelChart {
    var id: String
    var propertyName: String
    var funnel: LeasingFunnel

    static let width = 380.0
    static let barLeft = 104.0
    static let barSpan = 210.0
    static let rowHeight = 48.0
    static let barHeight = 24.0
    static let top = 8.0

    /// One stage: name, count (nil: unknown, no source counts it), and the conversion into it from the stage before
    /// (nil for leads).
    struct Stage: Equatable {
        var name: String
        var count: Int?
        var conversionIn: Double?
        var conversionLabel: String
    }

    /// Leads, tours, applications and leases.
    var stages: [Stage] {
        [
            Stage(name: "Leads", count: funnel.leads, conversionIn: nil, conversionLabel: ""),
            Stage(name: "Tours", count: funnel.tours, conversionIn: funnel.leadToTour, conversionLabel: "of leads toured"),
            Stage(name: "Applications", count: funnel.applications, conversionIn: funnel.tourToApplication,
                  conversionLabel: "of tours applied"),
            Stage(name: "Leases", count: funnel.leases, conversionIn: funnel.applicationToLease,
                  conversionLabel: "of applications leased"),
        ]
    }

    static var height: Double { top + rowHeight * 4 - 8 }

    /// A bar's width: its count over the largest count times the bar span.
    static func barWidth(_ count: Int?, largest: Int) -> Double {
        guard largest > 0, let count, count > 0 else { return 0 }
        return barSpan * Double(count) / Double(largest)
    }

    /// Writes the chart.
    func write(_ html: inout HTMLWriter) {
        let stages = self.stages
        // Usually the leads; a later stage can outnumber them when leads came in before the window.
        let largest = stages.compactMap(\.count).max() ?? 0
        var description = stages.map { "\($0.name.lowercased()) \(Self.count($0.count))" }.joined(separator: ", ")
        description += "; lead to lease \(conversion(funnel.leadToLease))."
        SVGChart.frame(&html, id: id, width: Self.width, height: Self.height, className: "funnel",
                       title: "Leasing funnel, \(propertyName)", description: description) { svg in
            for (index, stage) in stages.enumerated() {
                let y = Self.top + Self.rowHeight * Double(index)
                if index > 0 {
                    // The step's conversion sits in the gap above its bar, like an arrow from the stage before.
                    SVGChart.label(&svg, "\u{2193} \(conversion(stage.conversionIn)) \(stage.conversionLabel)",
                                   x: Self.barLeft, y: y - 7, className: "axis conversion")
                }
                let width = Self.barWidth(stage.count, largest: largest)
                svg.element("text", [("x", SVGChart.number(Self.barLeft - 8)), ("y", SVGChart.number(y + 16.5)),
                                     ("text-anchor", "end"), ("class", "lbl")], text: stage.name)
                svg.empty("rect", [("x", SVGChart.number(Self.barLeft)), ("y", SVGChart.number(y)),
                                   ("width", SVGChart.number(width)), ("height", SVGChart.number(Self.barHeight)),
                                   ("fill", SVGChart.Palette.blue), ("opacity", SVGChart.number(1 - 0.18 * Double(index))),
                                   ("class", "bar"), ("data-stage", stage.name.lowercased()),
                                   ("data-count", stage.count.map(String.init) ?? "unknown")])
                SVGChart.label(&svg, Self.count(stage.count), x: Self.barLeft + width + 6, y: y + 16.5,
                               className: "lbl value")
            }
        }
    }

    /// A stage's count, or `unknown` where no synced source counts it.
    private static func count(_ value: Int?) -> String { value.map(DashboardFormat.count) ?? "unknown" }

    /// A conversion as `35.0%`, or `n/a` where the step had nothing to convert.
    private func conversion(_ value: Double?) -> String {
        value.map(DashboardFormat.percent) ?? "n/a"
    }
}
