import CLibXML2

extension XMLElement {
    /// Elements that start a new line when an HTML page is read as text (a `<br>` ends one).
    private static let lineBreaking: Set<String> = [
        "address", "article", "blockquote", "dd", "div", "dl", "dt", "footer", "h1", "h2", "h3", "h4", "h5", "h6",
        "header", "hr", "li", "ol", "p", "pre", "section", "table", "tbody", "thead", "tfoot", "tr", "ul",
    ]

    /// `bytes` with runs of whitespace collapsed to one space and trimmed, when they are printable ASCII, tabs and
    /// line breaks only (nil otherwise: the Character walk decides). Every cell of an HTML report is rendered, and
    /// splitting each as Characters was most of reading the page once libxml2 had parsed it.
    static func collapsedASCII(_ bytes: [UInt8]) -> String? {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var pendingSpace = false
        for byte in bytes {
            switch byte {
            case 0x09...0x0D, 0x20:
                pendingSpace = !out.isEmpty
            case 0x21...0x7E:
                if pendingSpace { out.append(0x20); pendingSpace = false }
                out.append(byte)
            default:
                return nil
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The element's text as a browser lays it out in lines: `<br>` and block elements break lines, runs of spaces
    /// (including non-breaking ones) collapse to one, each line is trimmed, and empty lines are dropped.
    /// Report exports put stacked values in one cell this way (`Name<br>Phone`), as Excel cells hold `Name\nPhone`.
    public var renderedLines: [String] {
        var lines: [String] = []
        var current: [UInt8] = []
        func endLine() {
            defer { current.removeAll(keepingCapacity: true) }
            if let collapsed = Self.collapsedASCII(current) {
                if !collapsed.isEmpty { lines.append(collapsed) }
                return
            }
            let text = String(decoding: current, as: UTF8.self)
            let collapsed = text.split(whereSeparator: { $0.isWhitespace || $0 == "\u{00A0}" }).joined(separator: " ")
            if !collapsed.isEmpty { lines.append(collapsed) }
        }
        /// An element named `name` (lower case): `inside` walks its content where its name says to.
        func element(_ name: String, _ inside: () -> Void) {
            if name == "br" { return endLine() }
            if name == "script" || name == "style" { return }
            let breaks = Self.lineBreaking.contains(name)
            if breaks { endLine() }
            inside()
            if breaks { endLine() }
        }
        switch storage {
        case .tree(let tree, let index):
            func walk(_ index: Int) {
                tree.content(index) { text, child in
                    if let text {
                        current.append(contentsOf: tree.characters[text])
                    } else if let child {
                        element((string(tree.elements[child].name) ?? "").lowercased()) { walk(child) }
                    }
                }
            }
            walk(index)
        case .node(let document, let node):
            func walk(_ parent: xmlNodePtr) {
                var child = parent.pointee.children
                while let node = child {
                    switch node.pointee.type {
                    case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
                        append(node.pointee.content, to: &current)
                    case XML_ENTITY_REF_NODE:
                        if let name = node.pointee.name { append(document.entityText(name), to: &current) }
                    case XML_ELEMENT_NODE:
                        element(node.pointee.name.map { String(cString: $0).lowercased() } ?? "") { walk(node) }
                    default:
                        break
                    }
                    child = node.pointee.next
                }
            }
            walk(node)
        }
        endLine()
        return lines
    }
}
