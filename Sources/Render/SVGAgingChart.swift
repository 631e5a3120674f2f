import OwnerDashCore

/// Delinquent receivable by age (0-30, 31-60, 61-90, 90+) and prepaid credits, as vertical bars on one scale.
///
/// Bar heights are proportional to the amounts (the tallest bar fills the plot); each bar carries its amount
/// in text, so the chart reads without colour. Prepaid is set apart and drawn in another colour: it is a credit.
struct SVGAgingChart {
    var id: String
    var propertyName: String
    var aging: DelinquencyAging

    static let width = 380.0
    static let height = 230.0
    static let top = 28.0, bottom = 186.0
    static let barWidth = 50.0

    /// One bar: its axis label, amount, colour and left edge.
    struct Bar: Equatable {
        var label: String
        var amount: Money
        var colour: String
        var x: Double
    }

    /// The five bars, in the order an aging report prints them.
    var bars: [Bar] {
        [
            Bar(label: "0-30", amount: aging.balance0to30, colour: "#F2B36B", x: 20),
            Bar(label: "31-60", amount: aging.balance31to60, colour: SVGChart.Palette.orange, x: 84),
            Bar(label: "61-90", amount: aging.balance61to90, colour: SVGChart.Palette.vermillion, x: 148),
            Bar(label: "90+", amount: aging.balanceOver90, colour: SVGChart.Palette.darkRed, x: 212),
            Bar(label: "Prepaid", amount: aging.prepaid, colour: SVGChart.Palette.bluishGreen, x: 304),
        ]
    }

    /// The height of a bar: amount over the largest amount times the plot height; negatives draw nothing.
    static func barHeight(_ amount: Money, largest: Money) -> Double {
        guard largest.cents > 0, amount.cents > 0 else { return 0 }
        return (bottom - top) * Double(amount.cents) / Double(largest.cents)
    }

    /// Writes the chart.
    func write(_ html: inout HTMLWriter) {
        let bars = self.bars
        let largest = bars.map(\.amount).max() ?? .zero
        let description = bars.map { "\($0.label == "Prepaid" ? "prepaid" : $0.label + " days") \(DashboardFormat.money($0.amount))" }
            .joined(separator: ", ") + "; net \(DashboardFormat.money(aging.net))."
        SVGChart.frame(&html, id: id, width: Self.width, height: Self.height, className: "aging",
                       title: "Delinquency aging, \(propertyName)", description: description) { svg in
            svg.empty("line", [("x1", "12"), ("y1", SVGChart.number(Self.bottom)), ("x2", "368"),
                               ("y2", SVGChart.number(Self.bottom)), ("class", "baseline")])
            // A thin divider: the prepaid bar is a credit, not one more age bucket.
            svg.empty("line", [("x1", "290"), ("y1", SVGChart.number(Self.top)), ("x2", "290"),
                               ("y2", SVGChart.number(Self.bottom + 30)), ("class", "divider")])
            for bar in bars {
                let height = Self.barHeight(bar.amount, largest: largest)
                let y = Self.bottom - height
                svg.element("rect", [("x", SVGChart.number(bar.x)), ("y", SVGChart.number(y)),
                                     ("width", SVGChart.number(Self.barWidth)), ("height", SVGChart.number(height)),
                                     ("fill", bar.colour), ("class", "bar"), ("data-bucket", bar.label),
                                     ("data-cents", String(bar.amount.cents))]) { rect in
                    rect.element("title", text: "\(bar.label): \(DashboardFormat.money(bar.amount, cents: true))")
                }
                SVGChart.label(&svg, DashboardFormat.money(bar.amount), x: bar.x + Self.barWidth / 2, y: y - 6,
                               anchor: "middle", className: "lbl value")
                SVGChart.label(&svg, bar.label, x: bar.x + Self.barWidth / 2, y: Self.bottom + 18, anchor: "middle",
                               className: "axis")
            }
            SVGChart.label(&svg, "days past due", x: 137, y: Self.bottom + 36, anchor: "middle", className: "axis note")
            SVGChart.label(&svg, "credit", x: 329, y: Self.bottom + 36, anchor: "middle", className: "axis note")
        }
    }
}
