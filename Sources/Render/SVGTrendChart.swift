import OwnerDashCore

/// The occupancy and leased % lines over the snapshot series of one property.
///
/// Dates are placed by calendar distance, not by index, so a gap in the syncs shows as a gap. A single snapshot
/// is drawn as two labelled dots in the middle: a line needs two points, but the values are still worth reading.
struct SVGTrendChart {
    var id: String
    var propertyName: String
    var points: [OccupancyPoint]

    // About the size the chart is drawn at in a card (one of three at 1280 px), so its text reads at 11-12 px.
    static let width = 380.0
    static let height = 236.0
    /// The plot area inside the frame: room on the left for the axis, on the right for the end labels.
    static let left = 40.0, right = 324.0, top = 32.0, bottom = 204.0

    /// The y axis: up to 100%, down to a multiple of the tick step at least a point below the lowest value
    /// (and at least 10 points below 100), so the gridlines fall on round numbers from bottom to top.
    static func yDomain(_ points: [OccupancyPoint]) -> (low: Double, high: Double) {
        let lowest = points.flatMap { [$0.occupancyPct, $0.leasedPct] }.min() ?? 90
        let wanted = min(min(lowest, 100) - 1, 90)
        let step = yStep((wanted, 100))
        return (max(0, (wanted / step).rounded(.down) * step), 100)
    }

    /// The y tick step for a domain: 5 points when narrow, coarser when wide.
    static func yStep(_ domain: (low: Double, high: Double)) -> Double {
        let span = domain.high - domain.low
        return span <= 30 ? 5 : span <= 60 ? 10 : 20
    }

    /// The x position of each point: by days since the first snapshot; a lone snapshot sits in the middle.
    static func xPositions(_ points: [OccupancyPoint]) -> [Double] {
        guard let first = points.first?.date.daysSinceEpoch, let last = points.last?.date.daysSinceEpoch,
              last > first else {
            return points.map { _ in (left + right) / 2 }
        }
        return points.map { left + (right - left) * Double($0.date.daysSinceEpoch - first) / Double(last - first) }
    }

    /// The y position of a percentage in a domain.
    static func yPosition(_ value: Double, _ domain: (low: Double, high: Double)) -> Double {
        let clamped = min(max(value, domain.low), domain.high)
        return bottom - (bottom - top) * (clamped - domain.low) / (domain.high - domain.low)
    }

    /// Writes the chart.
    func write(_ html: inout HTMLWriter) {
        let domain = Self.yDomain(points)
        let xs = Self.xPositions(points)
        let occupancyYs = points.map { Self.yPosition($0.occupancyPct, domain) }
        let leasedYs = points.map { Self.yPosition($0.leasedPct, domain) }
        // A lone snapshot has no line to tell the two series apart, and equal values would put one marker on
        // top of the other: set them side by side, either side of the date.
        let apart = points.count == 1 ? 5.0 : 0
        SVGChart.frame(&html, id: id, width: Self.width, height: Self.height, className: "trend",
                       title: "Occupancy and leased %, \(propertyName)", description: description) { svg in
            writeLegend(&svg)
            writeAxes(&svg, domain: domain, xs: xs)
            if let boundary = points.lastIndex(where: \.backfilled), boundary + 1 < points.count {
                // Where the backfilled months end and the synced snapshots begin.
                let x = (xs[boundary] + xs[boundary + 1]) / 2
                svg.empty("line", [("x1", SVGChart.number(x)), ("y1", SVGChart.number(Self.top)), ("x2", SVGChart.number(x)),
                                   ("y2", SVGChart.number(Self.bottom)), ("class", "backfill-boundary"),
                                   ("stroke", "#999"), ("stroke-dasharray", "2 3")])
            }
            series(&svg, name: "leased", xs: xs.map { $0 + apart }, ys: leasedYs, values: points.map(\.leasedPct),
                   colour: SVGChart.Palette.orange, dash: "6 4", square: true)
            series(&svg, name: "occupancy", xs: xs.map { $0 - apart }, ys: occupancyYs,
                   values: points.map(\.occupancyPct), colour: SVGChart.Palette.blue, dash: nil, square: false)
            writeEndLabels(&svg, xs: xs.map { $0 + apart }, occupancyYs: occupancyYs, leasedYs: leasedYs)
        }
    }

    /// Every snapshot in words for screen readers (the first and last few when there are many).
    private var description: String {
        let shown = points.count <= 12 ? points : Array(points.prefix(3)) + Array(points.suffix(3))
        let values = shown.map {
            "\(DashboardFormat.longDate($0.date)): occupancy \(DashboardFormat.percent($0.occupancyPct)), leased \(DashboardFormat.percent($0.leasedPct))"
        }
        let count = points.count == 1 ? "1 snapshot" : "\(points.count) snapshots"
        let backfilled = points.filter(\.backfilled).count
        let note = backfilled == 0 ? "" : " (\(backfilled) backfilled month end\(backfilled == 1 ? "" : "s") from resident history)"
        return "\(count)\(note). " + values.joined(separator: "; ") + "."
    }

    private func writeLegend(_ svg: inout HTMLWriter) {
        let y = 14.0
        svg.empty("line", [("x1", "44"), ("y1", SVGChart.number(y)), ("x2", "68"), ("y2", SVGChart.number(y)),
                           ("stroke", SVGChart.Palette.blue), ("stroke-width", "2.5")])
        svg.empty("circle", [("cx", "56"), ("cy", SVGChart.number(y)), ("r", "3.5"), ("fill", SVGChart.Palette.blue)])
        SVGChart.label(&svg, "Occupancy", x: 74, y: y + 4)
        svg.empty("line", [("x1", "164"), ("y1", SVGChart.number(y)), ("x2", "188"), ("y2", SVGChart.number(y)),
                           ("stroke", SVGChart.Palette.orange), ("stroke-width", "2.5"), ("stroke-dasharray", "6 4")])
        svg.empty("rect", [("x", "172.5"), ("y", SVGChart.number(y - 3.5)), ("width", "7"), ("height", "7"),
                           ("fill", SVGChart.Palette.orange)])
        SVGChart.label(&svg, "Leased", x: 194, y: y + 4)
    }

    private func writeAxes(_ svg: inout HTMLWriter, domain: (low: Double, high: Double), xs: [Double]) {
        let step = Self.yStep(domain)
        var tick = domain.low
        while tick <= domain.high + 0.001 {
            let y = Self.yPosition(tick, domain)
            svg.empty("line", [("x1", SVGChart.number(Self.left)), ("y1", SVGChart.number(y)),
                               ("x2", SVGChart.number(Self.right)), ("y2", SVGChart.number(y)), ("class", "grid")])
            SVGChart.label(&svg, DashboardFormat.fixed(tick, decimals: 0) + "%", x: Self.left - 6, y: y + 4,
                           anchor: "end", className: "axis")
            tick += step
        }
        // Dates: the first and the last snapshot, and one in the middle when there is room; never overlapping.
        var labelled: [Int] = []
        for index in [0, points.count / 2, points.count - 1] where index >= 0 && index < points.count {
            if labelled.allSatisfy({ abs(xs[$0] - xs[index]) >= 80 }) { labelled.append(index) }
        }
        let spansYears = Set(points.map(\.date.year)).count > 1
        for index in labelled {
            let date = points[index].date
            let text = spansYears || points.count == 1 ? DashboardFormat.longDate(date) : DashboardFormat.shortDate(date)
            let anchor = points.count == 1 ? "middle" : index == 0 ? "start" : index == points.count - 1 ? "end" : "middle"
            svg.empty("line", [("x1", SVGChart.number(xs[index])), ("y1", SVGChart.number(Self.bottom)),
                               ("x2", SVGChart.number(xs[index])), ("y2", SVGChart.number(Self.bottom + 5)),
                               ("class", "tick")])
            SVGChart.label(&svg, text, x: xs[index], y: Self.bottom + 20, anchor: anchor, className: "axis")
        }
    }

    private func series(_ svg: inout HTMLWriter, name: String, xs: [Double], ys: [Double], values: [Double],
                        colour: String, dash: String?, square: Bool) {
        if xs.count > 1 {
            let path = zip(xs, ys).enumerated().map { index, point in
                "\(index == 0 ? "M" : "L")\(SVGChart.number(point.0)),\(SVGChart.number(point.1))"
            }.joined(separator: " ")
            svg.empty("path", [("d", path), ("fill", "none"), ("stroke", colour), ("stroke-width", "2.5"),
                               ("stroke-linejoin", "round"), ("stroke-dasharray", dash), ("class", "series-\(name)")])
        }
        // Markers show where the snapshots are; with many, they would only blur the line.
        guard xs.count <= 40 else { return }
        for (index, (x, y)) in zip(xs, ys).enumerated() {
            let value = DashboardFormat.sortKey(values[index])
            // A backfilled month end is hollow: rebuilt from resident history, not a synced snapshot.
            let backfilled = points[index].backfilled
            let fill = backfilled ? "#fff" : colour
            let className = "point-\(name)" + (backfilled ? " backfilled" : "")
            if square {
                svg.empty("rect", [("x", SVGChart.number(x - 3.5)), ("y", SVGChart.number(y - 3.5)), ("width", "7"),
                                   ("height", "7"), ("fill", fill), ("stroke", backfilled ? colour : nil), ("class", className),
                                   ("data-value", value)])
            } else {
                svg.empty("circle", [("cx", SVGChart.number(x)), ("cy", SVGChart.number(y)), ("r", "3.5"),
                                     ("fill", fill), ("stroke", backfilled ? colour : nil), ("class", className),
                                     ("data-value", value)])
            }
        }
    }

    /// The latest values written beside the last points, pushed apart when the two lines nearly meet.
    private func writeEndLabels(_ svg: inout HTMLWriter, xs: [Double], occupancyYs: [Double], leasedYs: [Double]) {
        guard let last = points.last, let x = xs.last, var occupancyY = occupancyYs.last,
              var leasedY = leasedYs.last else { return }
        let gap = 14.0
        if abs(occupancyY - leasedY) < gap {
            // The higher value keeps the upper label, so the labels stay in the order of the lines.
            let middle = (occupancyY + leasedY) / 2
            let leasedOnTop = last.leasedPct >= last.occupancyPct
            leasedY = middle + (leasedOnTop ? -gap / 2 : gap / 2)
            occupancyY = middle + (leasedOnTop ? gap / 2 : -gap / 2)
        }
        let labelX = x + 8
        SVGChart.label(&svg, DashboardFormat.percent(last.leasedPct), x: labelX, y: leasedY + 4, className: "lbl leased")
        SVGChart.label(&svg, DashboardFormat.percent(last.occupancyPct), x: labelX, y: occupancyY + 4,
                       className: "lbl occupancy")
    }
}
