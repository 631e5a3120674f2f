import CLibXML2

/// `XMLStreamReader`'s engine: libxml2's SAX2 push parser, fed the input 64 KB at a time, its events (element starts
/// and ends, character data) queued per piece and read one after the other. No libxml2 node is ever made: an
/// expanded element is copied from the events into an `XMLTree`, and a skipped one's events are dropped as they are
/// parsed. (The xmlTextReader it replaces built, copied and freed a libxml2 subtree per record: four times the
/// parser's own cost on a 24-month ledger.)
final class EventReader: NodeReader {
    /// The document has a DOCTYPE: `XMLStreamReader` reads it with `TreeReader`, as the DOM would.
    struct DoctypeMet: Error {}

    /// What the queue holds.
    enum EventKind: UInt8 {
        case start, end, text
    }

    /// One event. Names are the parser's own interned strings, valid while the parser lives.
    struct Event {
        var kind: EventKind
        var depth: Int32
        var line: Int32
        var name: UnsafePointer<xmlChar>?
        var namespaceURI: UnsafePointer<xmlChar>?
        var prefix: UnsafePointer<xmlChar>?
        /// `.text`: its bytes in `State.characters`; `.start`: its attributes in `State.attributes`.
        var range: Range<Int32>
    }

    /// What the parser's callbacks write and where the reader is, reached through a pointer: a class's properties
    /// would each be checked for exclusive access on every one of a ledger's millions of events.
    struct State {
        var events: [Event] = []
        var characters: [UInt8] = []
        /// Each start event's attributes, their values in `characters`.
        var attributes: [XMLTree.Attribute] = []
        /// The depth the next element starts at.
        var depth: Int32 = 0
        /// While a skipped element's rest is parsed: its depth (its descendants and its end are dropped); else -1.
        var skipping: Int32 = -1
        var doctype = false
        let firstError = FirstError()
        var context: xmlParserCtxtPtr?
        /// The current event in `events`.
        var index = -1
        var finished = false
        var sawElement = false
        var started = false
        /// `skip()` was called on the current element.
        var skipPending = false

        mutating func start(_ name: UnsafePointer<xmlChar>?, _ prefix: UnsafePointer<xmlChar>?,
                            _ namespaceURI: UnsafePointer<xmlChar>?, _ count: Int32,
                            _ values: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?) {
            let depth = self.depth
            self.depth += 1
            if skipping >= 0 && depth > skipping || doctype { return }
            let first = Int32(attributes.count)
            if let values {
                for k in 0 ..< Int(count) {
                    // Five pointers an attribute: localname, prefix, URI, value start, value end.
                    let start = Int32(characters.count)
                    if let from = values[5 * k + 3], let to = values[5 * k + 4], to > from {
                        appendAttributeValue(UnsafeBufferPointer(start: from, count: to - from))
                    }
                    attributes.append(XMLTree.Attribute(name: values[5 * k], namespaceURI: values[5 * k + 2],
                                                        value: start ..< Int32(characters.count)))
                }
            }
            let line = context.map { Int32(clamping: $0.pointee.input?.pointee.line ?? 0) } ?? 0
            events.append(Event(kind: .start, depth: depth, line: line, name: name, namespaceURI: namespaceURI,
                                prefix: prefix, range: first ..< Int32(attributes.count)))
        }

        /// An attribute's value as libxml2 hands it to SAX2 without entity substitution: `&` (written `&amp;` or
        /// `&#38;`) comes as `&#38;`, for a tree builder to decode (xmlSAX2AttributeNs does); every other reference
        /// is already replaced, and no entity but the predefined ones exists without a DOCTYPE.
        private mutating func appendAttributeValue(_ value: UnsafeBufferPointer<UInt8>) {
            guard value.contains(0x26) else {
                characters.append(contentsOf: value)
                return
            }
            let escaped: [UInt8] = Array("&#38;".utf8)
            var i = 0
            while i < value.count {
                if value[i] == 0x26, i + 5 <= value.count, value[i ..< i + 5].elementsEqual(escaped) {
                    characters.append(0x26)
                    i += 5
                } else {
                    characters.append(value[i])
                    i += 1
                }
            }
        }

        mutating func end(_ name: UnsafePointer<xmlChar>?, _ prefix: UnsafePointer<xmlChar>?,
                          _ namespaceURI: UnsafePointer<xmlChar>?) {
            depth -= 1
            if doctype { return }
            if skipping >= 0 {
                let skipped = skipping
                if depth == skipped { skipping = -1 }
                if depth >= skipped { return }
            }
            events.append(Event(kind: .end, depth: depth, line: 0, name: name, namespaceURI: namespaceURI, prefix: prefix,
                                range: 0 ..< 0))
        }

        mutating func text(_ bytes: UnsafePointer<xmlChar>?, _ count: Int32) {
            guard let bytes, count > 0, !(skipping >= 0 && depth > skipping), !doctype else { return }
            characters.append(contentsOf: UnsafeBufferPointer(start: bytes, count: Int(count)))
            // One event for a run of character data, however many pieces the parser hands it in.
            if let last = events.indices.last, events[last].kind == .text {
                events[last].range = events[last].range.lowerBound ..< Int32(characters.count)
            } else {
                events.append(Event(kind: .text, depth: depth, line: 0, name: nil, namespaceURI: nil, prefix: nil,
                                    range: Int32(characters.count) - count ..< Int32(characters.count)))
            }
        }

        mutating func clear() {
            events.removeAll(keepingCapacity: true)
            characters.removeAll(keepingCapacity: true)
            attributes.removeAll(keepingCapacity: true)
        }
    }

    /// The parser and what its callbacks write; freed with the last reader or `XMLTree` holding it (the trees' names
    /// are the parser's interned strings).
    final class Parser {
        let context: xmlParserCtxtPtr
        let state: UnsafeMutablePointer<State>

        init(_ context: xmlParserCtxtPtr, _ state: UnsafeMutablePointer<State>) {
            self.context = context
            self.state = state
        }

        deinit {
            xmlFreeParserCtxt(context)
            state.deinitialize(count: 1)
            state.deallocate()
        }
    }

    private static let pieceSize = 64 * 1024

    private let parser: Parser
    private let state: UnsafeMutablePointer<State>
    private let context: xmlParserCtxtPtr
    private let source: InputSource
    /// Encoding failures, which libxml2 raises without its parser context (XMLDocument's `ParseMessages`).
    private let messages = ParseMessages()
    private let piece: UnsafeMutablePointer<CChar>

    var started: Bool { state.pointee.started }
    var skipPending: Bool { state.pointee.skipPending }

    init(source: InputSource) throws {
        _ = parserReady
        self.source = source
        let state = UnsafeMutablePointer<State>.allocate(capacity: 1)
        state.initialize(to: State())
        var handler = xmlSAXHandler()
        handler.initialized = UInt32(XML_SAX2_MAGIC)
        handler.startElementNs = { user, name, prefix, uri, _, _, count, _, values in
            user?.assumingMemoryBound(to: State.self).pointee.start(name, prefix, uri, count, values)
        }
        handler.endElementNs = { user, name, prefix, uri in
            user?.assumingMemoryBound(to: State.self).pointee.end(name, prefix, uri)
        }
        handler.characters = { user, bytes, count in
            user?.assumingMemoryBound(to: State.self).pointee.text(bytes, count)
        }
        handler.ignorableWhitespace = handler.characters
        handler.cdataBlock = handler.characters
        handler.internalSubset = { user, _, _, _ in
            guard let state = user?.assumingMemoryBound(to: State.self) else { return }
            state.pointee.doctype = true
            if let context = state.pointee.context { xmlStopParser(context) }
        }
        handler.serror = { user, error in
            guard let state = user?.assumingMemoryBound(to: State.self), let error, !state.pointee.doctype else { return }
            state.pointee.firstError.keep(error.pointee)
        }
        guard let context = xmlCreatePushParserCtxt(&handler, state, nil, 0, nil) else {
            state.deinitialize(count: 1)
            state.deallocate()
            throw XMLError(message: "out of memory creating the XML parser")
        }
        state.pointee.context = context
        parser = Parser(context, state)
        self.state = state
        self.context = context
        piece = .allocate(capacity: Self.pieceSize)
        // No XML_PARSE_NOENT / DTDLOAD / DTDATTR, as in XMLDocument; NODICT keeps text values out of the dictionary.
        xmlCtxtUseOptions(context, Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue
            | XML_PARSE_NOWARNING.rawValue | XML_PARSE_NOCDATA.rawValue | XML_PARSE_COMPACT.rawValue
            | XML_PARSE_NODICT.rawValue))
    }

    deinit {
        piece.deallocate()
    }

    /// Parses the next piece of the input, appending its events; the end of the input ends the document.
    private func feed() throws {
        guard !state.pointee.finished else { return }
        let count = source.read(into: piece, length: Self.pieceSize)
        guard count >= 0 else { throw XMLError(message: "the document could not be read to its end") }
        if count == 0 { state.pointee.finished = true }
        _ = messages.capturing { xmlParseChunk(context, piece, count, count == 0 ? 1 : 0) }
        if state.pointee.doctype && !state.pointee.sawElement { throw DoctypeMet() }
        try messages.checkEncoding()
        if let error = state.pointee.firstError.error { throw error }
    }

    /// Parses pieces until the queue holds an event after the current one, and moves to it; false at the end.
    private func next() throws -> Bool {
        while state.pointee.index + 1 >= state.pointee.events.count {
            if state.pointee.finished { return false }
            if state.pointee.index >= 0 {
                state.pointee.clear()
                state.pointee.index = -1
            }
            try feed()
        }
        state.pointee.index += 1
        return true
    }

    private var current: Event? {
        let index = state.pointee.index
        return index >= 0 && index < state.pointee.events.count ? state.pointee.events[index] : nil
    }

    // MARK: - Moving

    func read() throws -> Bool {
        state.pointee.started = true
        if state.pointee.skipPending {
            state.pointee.skipPending = false
            try skipToEnd()
        }
        guard try next() else {
            if !state.pointee.sawElement { throw state.pointee.firstError.error ?? XMLError(message: "Document is empty", line: 1) }
            return false
        }
        if state.pointee.events[state.pointee.index].kind == .start { state.pointee.sawElement = true }
        return true
    }

    func skip() {
        state.pointee.skipPending = true
    }

    /// From the current element's start to its end, dropping what is between; what the queue lacks of it is dropped
    /// as it is parsed.
    private func skipToEnd() throws {
        guard let start = current, start.kind == .start else { return }
        var j = state.pointee.index + 1
        while j < state.pointee.events.count {
            if state.pointee.events[j].kind == .end && state.pointee.events[j].depth == start.depth {
                state.pointee.index = j
                return
            }
            j += 1
        }
        state.pointee.clear()
        state.pointee.index = -1
        state.pointee.skipping = start.depth
        while state.pointee.skipping >= 0 {
            guard !state.pointee.finished else { throw XMLError(message: "the document ends inside <\(string(start.name))>") }
            try feed()
        }
        // The queue now starts after the element's end: the next `next()` moves to its first event.
    }

    func expand() throws -> XMLElement {
        guard let start = current, start.kind == .start else { throw XMLError(message: "expand() called off an element start") }
        state.pointee.skipPending = false
        var tree = XMLTree.Builder()
        add(start, to: &tree)
        while true {
            guard try next() else { throw XMLError(message: "the document ends inside <\(string(start.name))>") }
            let event = state.pointee.events[state.pointee.index]
            switch event.kind {
            case .start:
                add(event, to: &tree)
            case .text:
                state.pointee.characters.withUnsafeBufferPointer {
                    tree.append(UnsafeBufferPointer(rebasing: $0[event.range.indices]))
                }
            case .end:
                tree.end()
                // Positioned on the element's end: the next `read()` moves past it.
                if event.depth == start.depth { return XMLElement(tree: XMLTree(tree, parser: parser), index: 0) }
            }
        }
    }

    /// Copies a start event, its attributes with it, into `tree`.
    private func add(_ event: Event, to tree: inout XMLTree.Builder) {
        let first = Int32(tree.attributes.count)
        for attribute in state.pointee.attributes[event.range.indices] {
            state.pointee.characters.withUnsafeBufferPointer {
                tree.attribute(name: attribute.name, namespaceURI: attribute.namespaceURI,
                               value: UnsafeBufferPointer(rebasing: $0[attribute.value.indices]))
            }
        }
        tree.start(name: event.name, namespaceURI: event.namespaceURI, prefix: event.prefix, line: event.line,
                   firstAttribute: first)
    }

    /// True when the current element's local name is one of `names`.
    func matches(_ names: [[UInt8]]) -> Bool {
        guard let name = current?.name else { return false }
        return names.contains { equalBytes(name, $0) }
    }

    // MARK: - The current node

    var kind: XMLStreamReader.Kind {
        switch current?.kind {
        case .start: .element
        case .end: .endElement
        case .text: .text
        case nil: .other
        }
    }

    var localName: String {
        guard let event = current, event.kind != .text else { return "" }
        return string(event.name)
    }

    func hasLocalName(_ name: String) -> Bool {
        guard let event = current, event.kind != .text, let own = event.name else { return false }
        return equal(own, name)
    }

    var namespaceURI: String? {
        guard let event = current, event.kind != .text else { return nil }
        return event.namespaceURI.map { String(cString: $0) }
    }

    var depth: Int { Int(current?.depth ?? 0) }

    /// True when the current element's end is the next event (parsing on to see it, if need be).
    var isEmptyElement: Bool {
        guard let start = current, start.kind == .start else { return false }
        let index = state.pointee.index
        while index + 1 >= state.pointee.events.count && !state.pointee.finished {
            guard (try? feed()) != nil else { return false }
        }
        guard index + 1 < state.pointee.events.count else { return false }
        let following = state.pointee.events[index + 1]
        return following.kind == .end && following.depth == start.depth
    }

    var text: String {
        guard let event = current, event.kind == .text else { return "" }
        return state.pointee.characters.withUnsafeBufferPointer {
            String(decoding: UnsafeBufferPointer(rebasing: $0[event.range.indices]), as: UTF8.self)
        }
    }

    private func string(_ name: UnsafePointer<xmlChar>?) -> String {
        name.map { String(cString: $0) } ?? ""
    }
}
