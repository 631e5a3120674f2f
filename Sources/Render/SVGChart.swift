/// What every inline SVG chart of the dashboard shares: the accessible frame, the palette, coordinates as text.
enum SVGChart {
    /// Okabe-Ito colours (distinguishable with the common colour-vision deficiencies); every chart also labels
    /// its values in text and varies line dash and marker shape, so no reading depends on colour alone.
    enum Palette {
        static let blue = "#0072B2"
        static let orange = "#E69F00"
        static let vermillion = "#D55E00"
        static let bluishGreen = "#009E73"
        static let skyBlue = "#56B4E9"
        /// The oldest receivable, darker than vermillion so the four aging buckets read as a sequence.
        static let darkRed = "#7F2704"
        static let ink = "#1F2933"
        static let muted = "#52606D"
        static let grid = "#D9DEE3"
    }

    /// Writes `<svg>` with `role="img"`, a `<title>` and a `<desc>` that say in words what the chart shows.
    static func frame(_ html: inout HTMLWriter, id: String, width: Double, height: Double, className: String,
                      title: String, description: String, _ body: (inout HTMLWriter) -> Void) {
        // No xmlns: the HTML parser puts <svg> in the SVG namespace itself, and the page then names no URL at all.
        html.element("svg", [
            ("class", "chart \(className)"),
            ("viewBox", "0 0 \(number(width)) \(number(height))"),
            ("role", "img"),
            ("aria-labelledby", "\(id)-title \(id)-desc"),
            ("id", id),
        ]) { svg in
            svg.element("title", [("id", "\(id)-title")], text: title)
            svg.element("desc", [("id", "\(id)-desc")], text: description)
            body(&svg)
        }
    }

    /// `<text>` at (x, y) with an anchor and a class from the page's CSS.
    static func label(_ html: inout HTMLWriter, _ content: String, x: Double, y: Double, anchor: String = "start",
                      className: String = "lbl") {
        html.element("text", [("x", number(x)), ("y", number(y)), ("text-anchor", anchor), ("class", className)],
                     text: content)
    }

    /// A coordinate as SVG text: at most two decimals, no trailing zeros (`12.5`, `40`).
    static func number(_ value: Double) -> String {
        var text = DashboardFormat.fixed(value, decimals: 2)
        if text.contains(".") {
            while text.last == "0" { text.removeLast() }
            if text.last == "." { text.removeLast() }
        }
        return text == "-0" ? "0" : text
    }
}
