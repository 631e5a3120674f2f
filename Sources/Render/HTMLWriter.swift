/// Builds HTML (and inline SVG) text in which every piece of data is escaped on the way in.
///
/// The output is also well-formed XML (void elements self-closed, no named entities other than XML's five),
/// so a test can parse the page with a strict XML parser and a stray `<` from the data cannot hide.
public struct HTMLWriter {
    /// An empty document.
    public init() {}

    /// The text written so far.
    public private(set) var html = ""

    /// One attribute; a nil value leaves the attribute out.
    public typealias Attribute = (name: String, value: String?)

    /// Appends markup that the caller wrote itself (never data).
    public mutating func raw(_ markup: String) {
        html += markup
    }

    /// Appends text content, escaped.
    public mutating func text(_ content: String) {
        html += HTMLWriter.escape(content)
    }

    /// `<name attributes>body</name>`.
    public mutating func element(_ name: String, _ attributes: [Attribute] = [], _ body: (inout HTMLWriter) -> Void) {
        open(name, attributes)
        body(&self)
        close(name)
    }

    /// `<name attributes>text</name>` with the text escaped.
    public mutating func element(_ name: String, _ attributes: [Attribute] = [], text content: String) {
        open(name, attributes)
        text(content)
        close(name)
    }

    /// A void or childless element written `<name attributes/>` (valid HTML for void elements and for SVG shapes).
    public mutating func empty(_ name: String, _ attributes: [Attribute] = []) {
        html += "<"
        html += name
        append(attributes)
        html += "/>"
    }

    /// A line break between blocks, so the saved file reads well in an editor and diffs well as a golden file.
    public mutating func newline() {
        html += "\n"
    }

    // Pieces appended one by one rather than interpolated: a page of thousands of elements builds no temporary
    // string per tag.
    private mutating func open(_ name: String, _ attributes: [Attribute]) {
        html += "<"
        html += name
        append(attributes)
        html += ">"
    }

    private mutating func close(_ name: String) {
        html += "</"
        html += name
        html += ">"
    }

    private mutating func append(_ attributes: [Attribute]) {
        for attribute in attributes {
            guard let value = attribute.value else { continue }
            html += " "
            html += attribute.name
            html += "=\""
            html += HTMLWriter.escape(value)
            html += "\""
        }
    }

    /// Escapes text for element content and double- or single-quoted attribute values.
    public static func escape(_ text: String) -> String {
        // Most text (names, amounts, dates) has nothing to escape: it is returned as it is, without a copy. Every byte
        // to replace is ASCII, so the rest is copied as UTF-8 bytes, never decoded to scalars.
        guard text.utf8.contains(where: needsEscape) else { return text }
        var escaped: [UInt8] = []
        escaped.reserveCapacity(text.utf8.count + 16)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "&"): escaped.append(contentsOf: "&amp;".utf8)
            case UInt8(ascii: "<"): escaped.append(contentsOf: "&lt;".utf8)
            case UInt8(ascii: ">"): escaped.append(contentsOf: "&gt;".utf8)
            case UInt8(ascii: "\""): escaped.append(contentsOf: "&quot;".utf8)
            case UInt8(ascii: "'"): escaped.append(contentsOf: "&#39;".utf8)
            // Control characters other than tab and newlines are not allowed in HTML or XML text: U+FFFD instead.
            case _ where needsEscape(byte): escaped.append(contentsOf: [0xEF, 0xBF, 0xBD])
            default: escaped.append(byte)
            }
        }
        return String(decoding: escaped, as: UTF8.self)
    }

    /// The markup characters and the control characters other than tab, LF and CR.
    private static func needsEscape(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "&"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "\""), UInt8(ascii: "'"): true
        case 0x00...0x08, 0x0B, 0x0C, 0x0E...0x1F, 0x7F: true
        default: false
        }
    }

    /// A fragment identifier made from a registry key: letters, digits, `-` and `_` only.
    public static func identifier(_ prefix: String, _ key: String) -> String {
        let safe = key.unicodeScalars.map { scalar -> String in
            switch scalar {
            case "a"..."z", "A"..."Z", "0"..."9", "-", "_": return String(scalar)
            default: return "_"
            }
        }
        return prefix + safe.joined()
    }
}
