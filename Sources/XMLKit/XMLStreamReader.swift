import CLibXML2
import Glibc

/// Reads a document element by element, so memory stays bounded by the record being looked at, however long the
/// document: the parser's events (libxml2's SAX2 push parser, fed a piece at a time) are read one after the other,
/// and `expand()` copies an element's subtree into an `XMLTree` of Swift arrays.
///
/// The same safety as `XMLDocument`: no network, no entity substitution, no DTD loading. A document with a DOCTYPE
/// (which no SOAP answer has) is read by libxml2's xmlTextReader instead (`TreeReader`), as the DOM reads it: a DOCTYPE
/// declaring external entities is refused when it is met, internal entities stay references whose text is looked up.
/// Elements handed out by `expand()` are copies, so they stay valid after the reader has moved on.
///
/// Comments and processing instructions are not handed out (`kind` is never `.other` outside a DOCTYPE document); an
/// element's end is always a node of its own, `<x/>` as well as `<x></x>`.
public final class XMLStreamReader {
    /// What the reader is positioned on.
    public enum Kind: Sendable, Equatable {
        case element, endElement, text, other
    }

    private var engine: any NodeReader
    /// How to read the input again from its start, should it have a DOCTYPE.
    private let reopen: () throws -> InputSource

    /// A reader over `bytes`; nothing is parsed until the first `read()`.
    public convenience init(bytes: [UInt8]) throws {
        guard !bytes.isEmpty else { throw XMLError(message: "Document is empty", line: 1) }
        try self.init { InputSource(bytes: bytes) }
    }

    /// A reader over the file at `path`, read in the pieces the parser asks for: memory stays bounded by the subtree
    /// being looked at, however large the file. Throws when the file cannot be opened or is empty.
    public convenience init(path: String) throws {
        try self.init { try InputSource(path: path) }
    }

    private init(_ reopen: @escaping () throws -> InputSource) throws {
        self.reopen = reopen
        engine = try EventReader(source: reopen())
    }

    // MARK: - Moving

    /// Moves to the next node in document order (past the current element's subtree after `expand()` or `skip()`);
    /// false at the end of the document.
    public func read() throws -> Bool {
        do {
            return try engine.read()
        } catch is EventReader.DoctypeMet {
            // Met before any element: read again from the start, as the DOM would read it.
            engine = try TreeReader(source: reopen())
            return try engine.read()
        }
    }

    /// Makes the next `read()` move past the current element's subtree instead of into it.
    public func skip() { engine.skip() }

    /// The current element with its whole subtree, as an element of its own; the next `read()` moves past it.
    public func expand() throws -> XMLElement { try engine.expand() }

    /// Calls `body` with every element named one of `localNames` below the current element (the whole document
    /// before the first `read()`), each expanded and then skipped: nested matches are inside their ancestor's subtree.
    /// Returns on the current element's end tag; a `body` that throws stops the reading there.
    public func forEachElement(named localNames: Set<String>, _ body: (XMLElement) throws -> Void) throws {
        let scope: Int
        if !engine.started {
            scope = -1
        } else {
            guard kind == .element, !engine.skipPending, !isEmptyElement else { return }
            scope = depth
        }
        let names = localNames.map { Array($0.utf8) }
        while try read() {
            if depth <= scope { return }
            guard kind == .element, engine.matches(names) else { continue }
            try body(try expand())
        }
    }

    // MARK: - The current node

    /// The kind of the current node.
    public var kind: Kind { engine.kind }

    /// The current node's name without its prefix; empty for text.
    public var localName: String { engine.localName }

    /// True when the current node is an element (start or end) with this local name.
    public func hasLocalName(_ name: String) -> Bool { engine.hasLocalName(name) }

    /// The namespace URI of the current element, nil when none.
    public var namespaceURI: String? { engine.namespaceURI }

    /// 0 for the document element, 1 for its children, ...
    public var depth: Int { engine.depth }

    /// True for an element with nothing inside: its end is the next node.
    public var isEmptyElement: Bool { engine.isEmptyElement }

    /// The text of a text, CDATA or whitespace node; empty for other nodes.
    public var text: String { engine.text }
}

/// What `XMLStreamReader` reads a document with: `EventReader`, or `TreeReader` for a document with a DOCTYPE.
protocol NodeReader: AnyObject {
    func read() throws -> Bool
    func skip()
    func expand() throws -> XMLElement
    /// True when the current element's local name is one of `names`.
    func matches(_ names: [[UInt8]]) -> Bool
    /// `read()` was called.
    var started: Bool { get }
    /// `skip()` or `expand()` was called on the current element: nothing below it is read.
    var skipPending: Bool { get }
    var kind: XMLStreamReader.Kind { get }
    var localName: String { get }
    func hasLocalName(_ name: String) -> Bool
    var namespaceURI: String? { get }
    var depth: Int { get }
    var isEmptyElement: Bool { get }
    var text: String { get }
}

/// The reader for documents with a DOCTYPE: libxml2's xmlTextReader, node by node, each expanded element copied into
/// a small document of its own.
final class TreeReader: NodeReader {
    private let reader: xmlTextReaderPtr
    // The reader pulls its input through `source` and reports errors into `firstError`; both must outlive it.
    private let source: InputSource
    private let firstError = FirstError()
    /// What libxml2 raises outside the reader's own handler (input conversion, I/O) while it reads: kept, not
    /// written to stderr, and an encoding failure refused (libxml2 drops the rest of the input after one).
    private let messages = ParseMessages()
    private(set) var started = false
    /// `skip()` or `expand()` was called on the current element.
    private var skipSubtree = false
    var skipPending: Bool { skipSubtree }

    init(source: InputSource) throws {
        _ = parserReady
        self.source = source
        // No XML_PARSE_NOENT / DTDLOAD / DTDATTR, as in XMLDocument. NODICT keeps short text values out of the
        // parser's dictionary, which otherwise grows with every distinct amount and date of a long ledger.
        let flags = XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue
            | XML_PARSE_NOCDATA.rawValue | XML_PARSE_COMPACT.rawValue | XML_PARSE_NODICT.rawValue
        let context = Unmanaged.passUnretained(source).toOpaque()
        guard let reader = xmlReaderForIO({ context, buffer, length in
            guard let context, let buffer, length > 0 else { return -1 }
            return Unmanaged<InputSource>.fromOpaque(context).takeUnretainedValue().read(into: buffer, length: Int(length))
        }, { _ in 0 }, context, nil, nil, Int32(flags)) else {
            throw XMLError(message: "out of memory creating the XML reader")
        }
        self.reader = reader
        xmlTextReaderSetStructuredErrorHandler(reader, { userData, error in
            guard let userData, let error else { return }
            Unmanaged<FirstError>.fromOpaque(userData).takeUnretainedValue().keep(error.pointee)
        }, Unmanaged.passUnretained(firstError).toOpaque())
    }

    deinit {
        xmlFreeTextReader(reader)
    }

    // MARK: - Moving

    /// Moves to the next node in document order (past the current element's subtree after `expand()` or `skip()`);
    /// false at the end of the document.
    func read() throws -> Bool {
        let skipping = skipSubtree
        let status = messages.capturing { skipping ? xmlTextReaderNext(reader) : xmlTextReaderRead(reader) }
        skipSubtree = false
        try messages.checkEncoding()
        if !started {
            started = true
            // A document without any element ends at once without an error from libxml2; the DOM parser says this.
            if status == 0 { throw firstError.error ?? XMLError(message: "Document is empty", line: 1) }
        }
        if status < 0 || firstError.error != nil {
            throw firstError.error ?? XMLError(message: "document could not be parsed", line: Int(xmlTextReaderGetParserLineNumber(reader)))
        }
        if status == 0 { return false }
        if xmlTextReaderNodeType(reader) == Int32(XML_READER_TYPE_DOCUMENT_TYPE.rawValue),
           let dtd = xmlTextReaderCurrentNode(reader), let doc = dtd.pointee.doc,
           let refusal = XMLDocument.externalEntityRefusal(doc) {
            throw refusal
        }
        return true
    }

    /// Makes the next `read()` move past the current element's subtree instead of into it.
    func skip() {
        skipSubtree = true
    }

    /// The current element with its whole subtree, as an element of a document of its own; the next `read()` moves past it.
    func expand() throws -> XMLElement {
        guard kind == .element else { throw XMLError(message: "expand() called off an element start") }
        let expanded = messages.capturing { xmlTextReaderExpand(reader) }
        try messages.checkEncoding()
        guard let node = expanded, firstError.error == nil else {
            throw firstError.error ?? XMLError(message: "the element could not be read", line: Int(xmlTextReaderGetParserLineNumber(reader)))
        }
        skipSubtree = true
        guard let doc = xmlNewDoc(nil) else { throw XMLError(message: "out of memory copying an element") }
        let owner = XMLDocument(owning: doc)
        // Internal entities stay references (no substitution); their text is looked up in the copy's DTD.
        if let subset = node.pointee.doc?.pointee.intSubset, let dtd = xmlCopyDtd(subset) {
            dtd.pointee.doc = doc
            doc.pointee.intSubset = dtd
        }
        // xmlDocCopyNode re-declares namespaces bound on the (uncopied) ancestors at the copy's root.
        guard let copy = xmlDocCopyNode(node, doc, 1) else { throw XMLError(message: "out of memory copying an element") }
        xmlDocSetRootElement(doc, copy)
        return XMLElement(document: owner, node: copy)
    }

    /// True when the current element's local name is one of `names`.
    func matches(_ names: [[UInt8]]) -> Bool {
        guard let name = xmlTextReaderConstLocalName(reader) else { return false }
        return names.contains { equalBytes(name, $0) }
    }

    // MARK: - The current node

    /// The kind of the current node.
    var kind: XMLStreamReader.Kind {
        switch Int(xmlTextReaderNodeType(reader)) {
        case Int(XML_READER_TYPE_ELEMENT.rawValue): .element
        case Int(XML_READER_TYPE_END_ELEMENT.rawValue): .endElement
        case Int(XML_READER_TYPE_TEXT.rawValue), Int(XML_READER_TYPE_CDATA.rawValue),
             Int(XML_READER_TYPE_WHITESPACE.rawValue), Int(XML_READER_TYPE_SIGNIFICANT_WHITESPACE.rawValue): .text
        default: .other
        }
    }

    /// The current node's name without its prefix; empty for text.
    var localName: String {
        guard kind == .element || kind == .endElement, let name = xmlTextReaderConstLocalName(reader) else { return "" }
        return String(cString: name)
    }

    /// True when the current node is an element (start or end) with this local name.
    func hasLocalName(_ name: String) -> Bool {
        guard kind == .element || kind == .endElement, let raw = xmlTextReaderConstLocalName(reader) else { return false }
        return equal(raw, name)
    }

    /// The namespace URI of the current element, nil when none.
    var namespaceURI: String? {
        xmlTextReaderConstNamespaceUri(reader).map { String(cString: $0) }
    }

    /// 0 for the document element, 1 for its children, ...
    var depth: Int { Int(xmlTextReaderDepth(reader)) }

    /// True for `<x/>`: no end tag follows.
    var isEmptyElement: Bool { xmlTextReaderIsEmptyElement(reader) == 1 }

    /// The text of a text, CDATA or whitespace node; empty for other nodes.
    var text: String {
        guard kind == .text, let value = xmlTextReaderConstValue(reader) else { return "" }
        return String(cString: value)
    }
}

/// The input, handed to libxml2 in the pieces it asks for: bytes in memory (copied a piece at a time, no copy of the
/// whole document) or a file (read straight into libxml2's buffer; the descriptor is closed with the reader).
final class InputSource {
    private enum Origin {
        case bytes([UInt8])
        case file(descriptor: Int32)
    }

    private let origin: Origin
    private var offset = 0

    init(bytes: [UInt8]) { origin = .bytes(bytes) }

    init(path: String) throws {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw XMLError(message: "\(path): cannot open: \(String(cString: strerror(errno)))")
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_size > 0 else {
            close(descriptor)
            throw XMLError(message: "Document is empty", line: 1)
        }
        origin = .file(descriptor: descriptor)
    }

    deinit {
        if case .file(let descriptor) = origin { close(descriptor) }
    }

    /// Copies up to `length` bytes into `buffer`; the count, 0 at the end, -1 on an error.
    func read(into buffer: UnsafeMutablePointer<CChar>, length: Int) -> Int32 {
        switch origin {
        case .bytes(let bytes):
            let count = min(length, bytes.count - offset)
            guard count > 0 else { return 0 }
            bytes.withUnsafeBytes { all in
                guard let base = all.baseAddress else { return }
                UnsafeMutableRawPointer(buffer).copyMemory(from: base + offset, byteCount: count)
            }
            offset += count
            return Int32(count)
        case .file(let descriptor):
            while true {
                let count = Glibc.read(descriptor, buffer, length)
                if count < 0 && errno == EINTR { continue }
                return Int32(clamping: count)
            }
        }
    }
}

/// Compares a NUL-terminated xmlChar string with UTF-8 bytes without allocating (names matched per element, encoded once).
func equalBytes(_ p: UnsafePointer<xmlChar>, _ name: [UInt8]) -> Bool {
    for (i, byte) in name.enumerated() where p[i] != byte { return false }
    return p[name.count] == 0
}
