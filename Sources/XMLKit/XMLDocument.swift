import CLibXML2

/// libxml2 must be initialised once before documents are parsed from several threads.
let parserReady: Void = { xmlInitParser() }()

/// How a document is parsed; network access, entity substitution and DTD loading are always off.
public struct XMLParseOptions: OptionSet, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Drop whitespace-only text between elements (pretty-printing), except under `xml:space="preserve"`.
    public static let removeBlankText = XMLParseOptions(rawValue: 1)
}

/// A parsed XML (or HTML) document; owns libxml2's tree and frees it when the last element referring to it is gone.
public final class XMLDocument {
    private let doc: xmlDocPtr

    /// Parses XML bytes. Refuses documents whose DOCTYPE declares external entities.
    public convenience init(bytes: [UInt8], options: XMLParseOptions = []) throws {
        let doc = try bytes.withUnsafeBytes { (buffer) throws -> xmlDocPtr in
            try XMLDocument.parse(buffer, options: options)
        }
        self.init(owning: doc)
    }

    /// Parses XML bytes in place (no copy). Refuses documents whose DOCTYPE declares external entities.
    public convenience init(bytes: UnsafeRawBufferPointer, options: XMLParseOptions = []) throws {
        self.init(owning: try XMLDocument.parse(bytes, options: options))
    }

    /// Parses an HTML page leniently (HTML is rarely well-formed); element names come out lower-case, without namespaces.
    public static func html(bytes: [UInt8]) throws -> XMLDocument {
        _ = parserReady
        guard bytes.count < Int(Int32.max) else { throw XMLError(message: "document is larger than 2 GiB") }
        guard let ctxt = htmlNewParserCtxt() else { throw XMLError(message: "out of memory creating the HTML parser") }
        defer { htmlFreeParserCtxt(ctxt) }
        let options = Int32(HTML_PARSE_NONET.rawValue | HTML_PARSE_NOERROR.rawValue | HTML_PARSE_NOWARNING.rawValue
            | HTML_PARSE_RECOVER.rawValue | HTML_PARSE_COMPACT.rawValue)
        // The HTML parser's context takes no structured handler (its SAX block is not SAX2), and encoding errors are
        // raised without any context: both would go to stderr. They are caught on this thread instead, and a
        // conversion failure (the rest of the page dropped) refuses the page, so it is not read as a short report
        // or taken for a login page.
        let messages = ParseMessages()
        let doc = messages.capturing {
            bytes.withUnsafeBytes { buffer -> xmlDocPtr? in
                guard let base = buffer.baseAddress?.assumingMemoryBound(to: CChar.self) else { return nil }
                return htmlCtxtReadMemory(ctxt, base, Int32(buffer.count), nil, nil, options)
            }
        }
        if let damage = messages.encodingFailure {
            if let doc { xmlFreeDoc(doc) }
            throw XMLError(message: "the page is damaged: its bytes are not valid in the encoding it declares, and the "
                + "rest of it could not be read (\(damage.message))", line: damage.line, code: damage.code)
        }
        guard let doc else { throw messages.firstError ?? lastError(ctxt, fallback: "HTML could not be parsed") }
        return XMLDocument(owning: doc)
    }

    init(owning doc: xmlDocPtr) {
        self.doc = doc
    }

    deinit {
        xmlFreeDoc(doc)
    }

    /// The document (root) element, nil for an HTML page without any element.
    public var root: XMLElement? {
        guard let node = xmlDocGetRootElement(doc) else { return nil }
        return XMLElement(document: self, node: node)
    }

    private static func parse(_ bytes: UnsafeRawBufferPointer, options: XMLParseOptions) throws -> xmlDocPtr {
        _ = parserReady
        guard bytes.count < Int(Int32.max) else { throw XMLError(message: "document is larger than 2 GiB") }
        guard let ctxt = xmlNewParserCtxt() else { throw XMLError(message: "out of memory creating the XML parser") }
        defer { xmlFreeParserCtxt(ctxt) }
        // libxml2 keeps only the last error, which after a mismatch is often "Premature end of data";
        // the first one is what a user needs, so catch it as it is raised.
        let firstError = FirstError()
        ctxt.pointee._private = Unmanaged.passUnretained(firstError).toOpaque()
        ctxt.pointee.sax?.pointee.serror = { userData, error in
            guard let userData, let error else { return }
            let ctxt = userData.assumingMemoryBound(to: xmlParserCtxt.self)
            guard let box = ctxt.pointee._private else { return }
            Unmanaged<FirstError>.fromOpaque(box).takeUnretainedValue().keep(error.pointee)
        }
        // No XML_PARSE_NOENT / DTDLOAD / DTDATTR: entities stay unexpanded and nothing outside the bytes is read.
        var flags = XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue
            | XML_PARSE_NOCDATA.rawValue | XML_PARSE_COMPACT.rawValue
        if options.contains(.removeBlankText) { flags |= XML_PARSE_NOBLANKS.rawValue }
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: CChar.self), bytes.count > 0 else {
            throw XMLError(message: "Document is empty", line: 1)
        }
        // Errors raised without a parser context (encoding conversion) would go to stderr: caught on this thread.
        let messages = ParseMessages()
        let parsed = withExtendedLifetime(firstError) {
            messages.capturing { xmlCtxtReadMemory(ctxt, base, Int32(bytes.count), nil, nil, Int32(flags)) }
        }
        if let damage = messages.encodingFailure {
            if let parsed { xmlFreeDoc(parsed) }
            throw XMLError(message: "damaged text: \(damage.message)", line: damage.line, code: damage.code)
        }
        guard let doc = parsed else {
            throw firstError.error ?? messages.firstError ?? lastError(ctxt, fallback: "document could not be parsed")
        }
        if let refusal = externalEntityRefusal(doc) {
            xmlFreeDoc(doc)
            throw refusal
        }
        return doc
    }

    /// An external entity in a document we were sent is an XXE attempt or a broken export; either way we do not read it.
    static func externalEntityRefusal(_ doc: xmlDocPtr) -> XMLError? {
        guard let dtd = doc.pointee.intSubset else { return nil }
        var node = dtd.pointee.children
        while let current = node {
            if current.pointee.type == XML_ENTITY_DECL {
                let entity = UnsafeRawPointer(current).assumingMemoryBound(to: xmlEntity.self)
                let kind = entity.pointee.etype
                if kind == XML_EXTERNAL_GENERAL_PARSED_ENTITY || kind == XML_EXTERNAL_GENERAL_UNPARSED_ENTITY
                    || kind == XML_EXTERNAL_PARAMETER_ENTITY {
                    let name = entity.pointee.name.map { String(cString: $0) } ?? "?"
                    let system = entity.pointee.SystemID.map { String(cString: $0) } ?? ""
                    return XMLError(message: "the DOCTYPE declares external entity '\(name)' (\"\(system)\"); documents with external entities are refused")
                }
            }
            node = current.pointee.next
        }
        return nil
    }

    private static func lastError(_ ctxt: UnsafeMutableRawPointer, fallback: String) -> XMLError {
        guard let error = xmlCtxtGetLastError(ctxt) else { return XMLError(message: fallback) }
        return XMLError(libxml2: error.pointee)
    }

    private static func lastError(_ ctxt: xmlParserCtxtPtr, fallback: String) -> XMLError {
        lastError(UnsafeMutableRawPointer(ctxt), fallback: fallback)
    }

    // MARK: - Text of entity references

    /// The replacement text of an internal entity (one level; nested references are left as they are).
    func entityText(_ name: UnsafePointer<xmlChar>) -> UnsafePointer<xmlChar>? {
        guard let entity = xmlGetDocEntity(doc, name) else { return nil }
        return UnsafePointer(entity.pointee.content)
    }
}

/// Where the structured-error callback leaves the first error of a parse.
final class FirstError {
    var error: XMLError?

    /// Keeps `error` when it is the first at error level or above (warnings are not failures).
    func keep(_ error: xmlError) {
        if self.error == nil && error.level.rawValue >= XML_ERR_ERROR.rawValue { self.error = XMLError(libxml2: error) }
    }
}

/// libxml2's messages raised on this thread during one parse, kept instead of written to stderr: a report file's
/// damage belongs in the one line the user reads, not in libxml2's own lines.
final class ParseMessages {
    /// The first message at error level or above.
    var firstError: XMLError?
    /// The first failure to convert the input from its declared encoding: libxml2 then drops the rest of the input.
    var encodingFailure: XMLError?

    /// Runs `body` with this thread's libxml2 structured-error handler pointing here, then puts the previous one back.
    func capturing<T>(_ body: () throws -> T) rethrows -> T {
        let previousHandler = __xmlStructuredError().pointee
        let previousContext = __xmlStructuredErrorContext().pointee
        xmlSetStructuredErrorFunc(Unmanaged.passUnretained(self).toOpaque()) { context, error in
            guard let context, let error else { return }
            let messages = Unmanaged<ParseMessages>.fromOpaque(context).takeUnretainedValue()
            messages.note(XMLError(libxml2: error.pointee), domain: error.pointee.domain, level: error.pointee.level)
        }
        defer { xmlSetStructuredErrorFunc(previousContext, previousHandler) }
        return try withExtendedLifetime(self) { try body() }
    }

    /// Throws when the input stopped being valid in its declared encoding: what follows was dropped, so the document
    /// is damaged, never read short as if it had ended there (the streaming readers).
    func checkEncoding() throws {
        guard let damage = encodingFailure else { return }
        throw XMLError(message: "damaged text: its bytes are not valid in the encoding it declares, and the rest of it "
                       + "could not be read (\(damage.message))", line: damage.line, code: damage.code)
    }

    private func note(_ error: XMLError, domain: Int32, level: xmlErrorLevel) {
        if domain == Int32(XML_FROM_I18N.rawValue) || error.code == Int(XML_I18N_CONV_FAILED.rawValue) {
            if encodingFailure == nil { encodingFailure = error }
        }
        if firstError == nil && level.rawValue >= XML_ERR_ERROR.rawValue { firstError = error }
    }
}

extension XMLError {
    init(libxml2 error: xmlError) {
        var message = error.message.map { String(cString: $0) } ?? "unknown libxml2 error"
        while message.last == "\n" || message.last == " " { message.removeLast() }
        self.init(message: message, line: Int(error.line), code: Int(error.code))
    }
}

/// An attribute as written, matched by local name so that namespace prefixes do not matter.
public struct XMLAttribute: Sendable, Equatable {
    public var localName: String
    public var namespaceURI: String?
    public var value: String
}

/// One element of a parsed document (libxml2's tree) or of a record `XMLStreamReader` read (an `XMLTree`); keeps
/// either alive.
public struct XMLElement {
    enum Storage {
        case node(XMLDocument, xmlNodePtr)
        case tree(XMLTree, Int)
    }

    let storage: Storage

    init(document: XMLDocument, node: xmlNodePtr) {
        storage = .node(document, node)
    }

    init(tree: XMLTree, index: Int) {
        storage = .tree(tree, index)
    }

    /// The name without its prefix (`row` for `<x:row>`).
    public var localName: String {
        switch storage {
        case .node(_, let node): string(node.pointee.name) ?? ""
        case .tree(let tree, let index): string(tree.elements[index].name) ?? ""
        }
    }

    /// The namespace URI the element's prefix (or default namespace) is bound to, nil when none.
    public var namespaceURI: String? {
        switch storage {
        case .node(_, let node): node.pointee.ns.flatMap { string($0.pointee.href) }
        case .tree(let tree, let index): string(tree.elements[index].namespaceURI)
        }
    }

    /// The prefix as written, nil when unprefixed.
    public var prefix: String? {
        switch storage {
        case .node(_, let node): node.pointee.ns.flatMap { string($0.pointee.prefix) }
        case .tree(let tree, let index): string(tree.elements[index].prefix)
        }
    }

    /// The line the element starts on (1-based).
    public var line: Int {
        switch storage {
        case .node(_, let node): Int(xmlGetLineNo(node))
        case .tree(let tree, let index): Int(tree.elements[index].line)
        }
    }

    /// True when the local names match (`hasLocalName("row")` for `<x:row>` and `<row>`).
    public func hasLocalName(_ name: String) -> Bool {
        switch storage {
        case .node(_, let node):
            guard let raw = node.pointee.name else { return false }
            return equal(raw, name)
        case .tree(let tree, let index):
            return tree.hasName(index, name)
        }
    }

    /// The value of the first attribute with this local name (any namespace), nil when absent.
    public func attribute(_ localName: String) -> String? {
        switch storage {
        case .node(let document, let node):
            var attr = node.pointee.properties
            while let current = attr {
                if let name = current.pointee.name, equal(name, localName) {
                    return Self.attributeValue(current, document)
                }
                attr = current.pointee.next
            }
            return nil
        case .tree(let tree, let index):
            return tree.attribute(index, localName)
        }
    }

    /// The value of the attribute with this local name in exactly this namespace (nil URI = no namespace).
    public func attribute(_ localName: String, namespaceURI: String?) -> String? {
        switch storage {
        case .node(let document, let node):
            var attr = node.pointee.properties
            while let current = attr {
                if let name = current.pointee.name, equal(name, localName),
                   current.pointee.ns.flatMap({ string($0.pointee.href) }) == namespaceURI {
                    return Self.attributeValue(current, document)
                }
                attr = current.pointee.next
            }
            return nil
        case .tree(let tree, let index):
            return tree.attribute(index, localName, namespaceURI: namespaceURI, matchingNamespace: true)
        }
    }

    /// All attributes in document order.
    public var attributes: [XMLAttribute] {
        switch storage {
        case .node(let document, let node):
            var result: [XMLAttribute] = []
            var attr = node.pointee.properties
            while let current = attr {
                result.append(XMLAttribute(localName: string(current.pointee.name) ?? "",
                                           namespaceURI: current.pointee.ns.flatMap { string($0.pointee.href) },
                                           value: Self.attributeValue(current, document)))
                attr = current.pointee.next
            }
            return result
        case .tree(let tree, let index):
            let range = tree.elements[index].attributes
            return tree.attributes[Int(range.lowerBound) ..< Int(range.upperBound)].map {
                XMLAttribute(localName: string($0.name) ?? "", namespaceURI: string($0.namespaceURI),
                             value: tree.value($0.value))
            }
        }
    }

    /// Child elements in document order (text, comments and processing instructions skipped).
    public var children: [XMLElement] {
        switch storage {
        case .node(let document, let node):
            var result: [XMLElement] = []
            var child = node.pointee.children
            while let current = child {
                if current.pointee.type == XML_ELEMENT_NODE { result.append(XMLElement(document: document, node: current)) }
                child = current.pointee.next
            }
            return result
        case .tree(let tree, let index):
            return tree.children(index).map { XMLElement(tree: tree, index: $0) }
        }
    }

    /// Child elements with this local name.
    public func children(named localName: String) -> [XMLElement] {
        switch storage {
        case .node(let document, let node):
            var result: [XMLElement] = []
            var child = node.pointee.children
            while let current = child {
                if current.pointee.type == XML_ELEMENT_NODE, let name = current.pointee.name, equal(name, localName) {
                    result.append(XMLElement(document: document, node: current))
                }
                child = current.pointee.next
            }
            return result
        case .tree(let tree, let index):
            return tree.children(index).filter { tree.hasName($0, localName) }.map { XMLElement(tree: tree, index: $0) }
        }
    }

    /// The first child element with this local name.
    public func child(named localName: String) -> XMLElement? {
        switch storage {
        case .node(let document, let node):
            var child = node.pointee.children
            while let current = child {
                if current.pointee.type == XML_ELEMENT_NODE, let name = current.pointee.name, equal(name, localName) {
                    return XMLElement(document: document, node: current)
                }
                child = current.pointee.next
            }
            return nil
        case .tree(let tree, let index):
            return tree.child(index, named: localName).map { XMLElement(tree: tree, index: $0) }
        }
    }

    /// Whether some element below this one has this local name (`descendants(named:)` without collecting them).
    public func hasDescendant(named localName: String) -> Bool {
        switch storage {
        case .node(_, let node):
            return Self.contains(node, localName)
        case .tree(let tree, let index):
            return (index + 1 ..< Int(tree.elements[index].end)).contains { tree.hasName($0, localName) }
        }
    }

    private static func contains(_ parent: xmlNodePtr, _ localName: String) -> Bool {
        var child = parent.pointee.children
        while let current = child {
            if current.pointee.type == XML_ELEMENT_NODE {
                if let name = current.pointee.name, equal(name, localName) { return true }
                if contains(current, localName) { return true }
            }
            child = current.pointee.next
        }
        return false
    }

    /// Every element below this one with this local name, in document order.
    public func descendants(named localName: String) -> [XMLElement] {
        switch storage {
        case .node(let document, let node):
            var result: [XMLElement] = []
            Self.collect(node, localName, document, into: &result)
            return result
        case .tree(let tree, let index):
            // Stored in document order: the descendants are the elements up to `end`.
            return (index + 1 ..< Int(tree.elements[index].end)).filter { tree.hasName($0, localName) }
                .map { XMLElement(tree: tree, index: $0) }
        }
    }

    private static func collect(_ parent: xmlNodePtr, _ localName: String, _ document: XMLDocument,
                                into result: inout [XMLElement]) {
        var child = parent.pointee.children
        while let current = child {
            if current.pointee.type == XML_ELEMENT_NODE {
                if let name = current.pointee.name, equal(name, localName) {
                    result.append(XMLElement(document: document, node: current))
                }
                collect(current, localName, document, into: &result)
            }
            child = current.pointee.next
        }
    }

    /// All text below this element (text and CDATA, internal entities replaced), concatenated as written.
    public var text: String {
        switch storage {
        case .tree(let tree, let index):
            return tree.text(index)
        case .node(let document, let node):
            // Most fields hold one text node, or none: read it straight (an array and a decode per field of a
            // 24-month ledger are felt).
            if let only = node.pointee.children, only.pointee.next == nil,
               only.pointee.type == XML_TEXT_NODE || only.pointee.type == XML_CDATA_SECTION_NODE {
                return only.pointee.content.map { String(cString: $0) } ?? ""
            }
            if node.pointee.children == nil { return "" }
            var bytes: [UInt8] = []
            Self.appendText(of: node, document, to: &bytes)
            return String(decoding: bytes, as: UTF8.self)
        }
    }

    private static func appendText(of parent: xmlNodePtr, _ document: XMLDocument, to bytes: inout [UInt8]) {
        var child = parent.pointee.children
        while let current = child {
            switch current.pointee.type {
            case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
                append(current.pointee.content, to: &bytes)
            case XML_ELEMENT_NODE:
                appendText(of: current, document, to: &bytes)
            case XML_ENTITY_REF_NODE:
                if let name = current.pointee.name { append(document.entityText(name), to: &bytes) }
            default:
                break
            }
            child = current.pointee.next
        }
    }

    private static func attributeValue(_ attr: xmlAttrPtr, _ document: XMLDocument) -> String {
        if let only = attr.pointee.children, only.pointee.next == nil, only.pointee.type != XML_ENTITY_REF_NODE {
            return only.pointee.content.map { String(cString: $0) } ?? ""
        }
        var bytes: [UInt8] = []
        var child = attr.pointee.children
        while let current = child {
            if current.pointee.type == XML_ENTITY_REF_NODE {
                if let name = current.pointee.name { append(document.entityText(name), to: &bytes) }
            } else {
                append(current.pointee.content, to: &bytes)
            }
            child = current.pointee.next
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

// MARK: - xmlChar strings

func string(_ p: UnsafePointer<xmlChar>?) -> String? {
    p.map { String(cString: $0) }
}

func append(_ p: UnsafePointer<xmlChar>?, to bytes: inout [UInt8]) {
    guard var p else { return }
    while p.pointee != 0 {
        bytes.append(p.pointee)
        p += 1
    }
}

/// Compares a NUL-terminated xmlChar string with a Swift string without allocating.
func equal(_ p: UnsafePointer<xmlChar>, _ name: String) -> Bool {
    // On the name's contiguous bytes (a native string's always are): iterating its UTF-8 view costs more per byte.
    var name = name
    return name.withUTF8 { equal(p, $0) }
}

/// Compares a NUL-terminated xmlChar string with bytes a caller took once (a name compared with many).
@inline(__always)
func equal(_ p: UnsafePointer<xmlChar>, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    for i in 0..<bytes.count where p[i] != bytes[i] { return false }
    return p[bytes.count] == 0
}
