import XMLKit

/// The workbook's cell formats, interned as cells ask for them, written as xl/styles.xml once every sheet is done.
///
/// Index 0 of each list is what Excel requires there: the default font, the `none` and `gray125` fills, no border,
/// the General cell format.
struct StyleTable {
    private struct Key: Hashable {
        var look: CellLook
        var format: NumberStyle
    }

    private var keys: [Key] = [Key(look: .plain, format: .general)]
    private var index: [Key: Int] = [Key(look: .plain, format: .general): 0]
    private var fills: [RGBColor] = []
    private var customFormats: [String] = []

    /// The `s` index for a cell of this content and look.
    mutating func index(for content: CellContent, look: CellLook) -> Int {
        let key = Key(look: look, format: look.format ?? Self.format(of: content))
        if let found = index[key] { return found }
        keys.append(key)
        index[key] = keys.count - 1
        if let fill = look.fill, !fills.contains(fill) { fills.append(fill) }
        if case let code? = Self.code(key.format), !customFormats.contains(code) { customFormats.append(code) }
        return keys.count - 1
    }

    static func format(of content: CellContent) -> NumberStyle {
        switch content {
        case .money: return .money
        case .date: return .date
        default: return .general
        }
    }

    /// The format code of a custom number format; nil for the built-in ones.
    static func code(_ format: NumberStyle) -> String? {
        switch format {
        case .general, .count: return nil
        case .money: return "#,##0.00;(#,##0.00)"
        case .date: return "yyyy-mm-dd"
        case .decimals(let n): return n <= 0 ? "0" : "0." + String(repeating: "0", count: min(n, 10))
        case .percentPoints: return "0.00\"%\""
        }
    }

    private func numberFormatID(_ format: NumberStyle) -> Int {
        switch format {
        case .general: return 0
        case .count: return 3
        default:
            guard let code = Self.code(format), let i = customFormats.firstIndex(of: code) else { return 0 }
            return 164 + i
        }
    }

    /// xl/styles.xml.
    var xml: String {
        var out = #"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>"# + "\n"
        out += #"<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">"#
        if !customFormats.isEmpty {
            out += #"<numFmts count="\#(customFormats.count)">"#
            for (i, code) in customFormats.enumerated() {
                out += #"<numFmt numFmtId="\#(164 + i)" formatCode="\#(XMLText.escape(code))"/>"#
            }
            out += "</numFmts>"
        }
        let font = #"<sz val="11"/><name val="Calibri"/><family val="2"/>"#
        out += #"<fonts count="2"><font>\#(font)</font><font><b/>\#(font)</font></fonts>"#
        out += #"<fills count="\#(fills.count + 2)"><fill><patternFill patternType="none"/></fill>"#
        out += #"<fill><patternFill patternType="gray125"/></fill>"#
        for fill in fills {
            out += #"<fill><patternFill patternType="solid"><fgColor rgb="FF\#(fill.hex)"/><bgColor indexed="64"/></patternFill></fill>"#
        }
        out += "</fills>"
        let thin = #"style="thin"><color rgb="FFB7B7B7"/"#
        out += #"<borders count="2"><border><left/><right/><top/><bottom/><diagonal/></border>"#
        out += "<border><left \(thin)></left><right \(thin)></right><top \(thin)></top><bottom \(thin)></bottom><diagonal/></border>"
        out += "</borders>"
        out += #"<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>"#
        out += #"<cellXfs count="\#(keys.count)">"#
        for key in keys {
            let format = numberFormatID(key.format)
            let fill = key.look.fill.flatMap { fills.firstIndex(of: $0) }.map { $0 + 2 } ?? 0
            out += #"<xf numFmtId="\#(format)" fontId="\#(key.look.bold ? 1 : 0)" fillId="\#(fill)" borderId="\#(key.look.border ? 1 : 0)" xfId="0""#
            if format != 0 { out += #" applyNumberFormat="1""# }
            if key.look.bold { out += #" applyFont="1""# }
            if fill != 0 { out += #" applyFill="1""# }
            if key.look.border { out += #" applyBorder="1""# }
            if key.look.wrap || key.look.alignment != nil {
                out += #" applyAlignment="1"><alignment"#
                if let alignment = key.look.alignment { out += #" horizontal="\#(alignment.rawValue)""# }
                if key.look.wrap { out += #" vertical="top" wrapText="1""# }
                out += "/></xf>"
            } else {
                out += "/>"
            }
        }
        out += "</cellXfs>"
        out += #"<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>"#
        out += "</styleSheet>\n"
        return out
    }
}
