import Foundation
import XMLKit

/// A checked SOAP response: the parsed document and the operation's `<OpResult>` payload root.
public struct SOAPResponse {
    public let document: XMLDocument
    /// `<OpResult>`, the element holding the operation's payload.
    public let result: XMLElement
    /// The payload root inside the Result (`UnitInformation`, `SiteList`, ...).
    public let payload: XMLElement

    /// Parses and checks a response body; throws a `SOAPError` for every error shape the vendors use.
    ///
    /// The check is `SOAPResponse.check` (streamed); the tree is parsed only for a response that passed it.
    public init(bytes: [UInt8], status: Int = 200, operation: String, expectedRoot: String, property: String? = nil) throws {
        try Self.check(bytes: bytes, status: status, operation: operation, expectedRoot: expectedRoot, property: property)
        func failure(_ kind: SOAPError.Kind) -> SOAPError { SOAPError(operation: operation, property: property, kind: kind) }
        let document: XMLDocument
        do {
            document = try XMLDocument(bytes: bytes)
        } catch {
            throw failure(.notXML("\(error)"))
        }
        // Where the check found them: the first Result in the Body, and its first child named like the payload root.
        guard let body = document.root?.child(named: "Body"),
              let result = body.descendants(named: operation + "Result").first else {
            throw failure(.missingPayload(expected: operation + "Result", found: nil))
        }
        guard let payload = result.child(named: expectedRoot) else {
            throw failure(.missingPayload(expected: expectedRoot, found: nil))
        }
        self.document = document
        self.result = result
        self.payload = payload
    }

    /// Checks a response body without building its tree (memory stays flat however long it is); throws a `SOAPError`.
    public static func check(bytes: [UInt8], status: Int = 200, operation: String, expectedRoot: String,
                             property: String? = nil) throws {
        try stream(bytes: bytes, status: status, operation: operation, expectedRoot: expectedRoot, property: property,
                   records: []) { _ in }
    }

    /// Checks a response body saved in the file at `path`, reading it in pieces: a download is checked without ever
    /// being held in memory, however large the ledger. The same checks and errors as `check(bytes:)`.
    ///
    /// `records`: the element the payload lists its records in (`RPXOperation.listedRecord`). Where the answer frames
    /// cleanly into them (`RecordFrame`), libxml2 parses only what lies around the records (the envelope, a Fault, the
    /// Result and its messages, the payload root: every place an error is said), and the records are held to their
    /// frame alone: a cut answer fails it, as does anything but whitespace between two records. Parsing every record
    /// too cost as much as the load of the answer (which decodes only the records whose bytes it has not decoded
    /// before, so a record garbled inside an intact frame fails there, naming the file). Any error met that way is
    /// looked for again over the whole answer, so that what the check says of a failed answer is the same either way.
    public static func check(path: String, status: Int = 200, operation: String, expectedRoot: String,
                             property: String? = nil, records: String? = nil) throws {
        let head = head(ofFile: path)
        if let records, status == 200, let around = around(records, inFile: path) {
            do {
                return try scan(head: head, status: status, operation: operation, expectedRoot: expectedRoot,
                                property: property, records: [], reader: { try XMLStreamReader(bytes: around) }) { _ in }
            } catch is SOAPError {
                // Said over the whole answer below.
            }
        }
        try scan(head: head, status: status, operation: operation, expectedRoot: expectedRoot,
                 property: property, records: [], reader: { try XMLStreamReader(path: path) }) { _ in }
    }

    /// The answer in the file at `path` with its list of `record` elements emptied: what lies before the first record
    /// and after the last. Nil where it does not frame cleanly (`RecordFrame`), lists no record, cannot be read, or
    /// what lies around the records is more than `aroundLimit` bytes (then it is no smaller to parse).
    static func around(_ record: String, inFile path: String) -> [UInt8]? {
        guard let file = fopen(path, "rb") else { return nil }
        defer { fclose(file) }
        var frame = RecordFrame(record: record)
        // Read through 64 KiB, left as fread fills it: a 256 KiB array zeroed for every answer checked was some 8
        // thousand of a night's page faults (above glibc's mmap threshold, and handed back by each property's trim).
        let piece = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 16)
        defer { piece.deallocate() }
        var offset = 0
        while true {
            let read = fread(piece.baseAddress, 1, piece.count, file)
            if read > 0 {
                frame.feed(UnsafeRawBufferPointer(rebasing: piece[..<read]), at: offset) { _ in }
                offset += read
            }
            if read < piece.count { break }
        }
        guard ferror(file) == 0, frame.finish(record: { _ in }), let first = frame.firstStart, let last = frame.lastEnd,
              first + (offset - last) <= aroundLimit else { return nil }
        var around = [UInt8](repeating: 0, count: first + (offset - last))
        let complete = around.withUnsafeMutableBytes { buffer -> Bool in
            rewind(file)
            guard fread(buffer.baseAddress, 1, first, file) == first, fseek(file, last, SEEK_SET) == 0 else { return false }
            return fread(buffer.baseAddress! + first, 1, offset - last, file) == offset - last
        }
        return complete ? around : nil
    }

    /// The most `around` reads into memory: an answer's envelope is a few hundred bytes.
    static let aroundLimit = 1 << 20

    /// How much of a response's start the error checks look at (`Login failed.`, excerpts); the rest is only streamed.
    public static let headLength = 4096

    /// The first bytes of a file (what an error's excerpt quotes); empty when it cannot be read, which the reader then
    /// reports.
    public static func head(ofFile path: String, count: Int = headLength) -> [UInt8] {
        guard let handle = FileHandle(forReadingAtPath: path) else { return [] }
        defer { try? handle.close() }
        return (try? handle.read(upToCount: count)).map { [UInt8]($0) } ?? []
    }

    /// Checks a response body while streaming it, and hands `body` each element named one of `records` inside the
    /// payload root, in document order, one small subtree at a time.
    ///
    /// The checks are those of docs/yardi-soap.md, "How Yardi reports errors", in its order: HTTP status and SOAP
    /// Fault, then error messages inside the Result (`Messages/Message[@messageType='Error']`, `ErrorMessages`),
    /// `Login failed.` as plain text, a bare negative result code, and finally the expected payload root (a silent
    /// empty answer is an error: a wrong property code comes back that way). They are decided at the end of the document, so
    /// a response with an error anywhere throws it even after `body` has seen records: a caller stores records only
    /// inside a transaction it can roll back. The payload is not read at all when an error met before it already
    /// decides the answer. The Result is the first `<operation>Result` element of the Body.
    public static func stream(bytes: [UInt8], status: Int = 200, operation: String, expectedRoot: String,
                              property: String? = nil, records: Set<String>,
                              _ body: (XMLElement) throws -> Void) throws {
        try scan(head: Array(bytes.prefix(headLength)), status: status, operation: operation, expectedRoot: expectedRoot,
                 property: property, records: records, reader: { try XMLStreamReader(bytes: bytes) }, body)
    }

    /// `stream`'s work over any input: `head` is the input's first bytes (what error excerpts quote), `reader` opens it.
    private static func scan(head: [UInt8], status: Int, operation: String, expectedRoot: String, property: String?,
                             records: Set<String>, reader makeReader: () throws -> XMLStreamReader,
                             _ body: (XMLElement) throws -> Void) throws {
        func failure(_ kind: SOAPError.Kind) -> SOAPError { SOAPError(operation: operation, property: property, kind: kind) }
        var scan = Scan(operation: operation, expectedRoot: expectedRoot, status: status)
        do {
            let reader = try makeReader()
            try scan.read(reader, records: records, body)
        } catch let error as XMLError {
            guard status == 200 else { throw failure(.http(status: status, excerpt: Self.excerpt(head))) }
            if Self.containsLoginFailed(head) { throw failure(.loginFailed(Self.excerpt(head))) }
            throw failure(.notXML("\(error)"))
        }
        if let kind = scan.verdict(head: head) { throw failure(kind) }
    }

    /// What a streamed reading of a response met, in the order the verdict weighs it.
    private struct Scan {
        let operation: String
        let expectedRoot: String
        let status: Int
        var rootName = ""
        var sawBody = false
        var fault: SOAPError.Kind?
        var bodyFirstChild: String?
        var sawResult = false
        var resultFirstChild: String?
        /// Direct text of the Result (a bare `-4` or `Login failed.`), kept short: it matters only when there are no children.
        var resultText = ""
        var sawPayload = false
        var messageErrors: [String] = []
        /// The text of the first `ErrorMessages` in the Result; an error only when the payload is missing.
        var errorMessages: String?

        init(operation: String, expectedRoot: String, status: Int) {
            self.operation = operation; self.expectedRoot = expectedRoot; self.status = status
        }

        mutating func read(_ reader: XMLStreamReader, records: Set<String>, _ body: (XMLElement) throws -> Void) throws {
            var bodyDepth: Int?      // depth of the Body's children
            var resultDepth: Int?    // depth of the Result's children
            while try reader.read() {
                if let depth = resultDepth, reader.depth < depth { resultDepth = nil }
                if let depth = bodyDepth, reader.depth < depth { bodyDepth = nil }
                switch reader.kind {
                case .text:
                    if let depth = resultDepth, reader.depth == depth, resultText.utf8.count < 4096 { resultText += reader.text }
                    continue
                case .element:
                    break
                default:
                    continue
                }
                let depth = reader.depth
                if depth == 0 {
                    rootName = reader.localName
                    if reader.hasLocalName("Fault") {
                        fault = SOAPResponse.faultKind(try reader.expand())
                    } else if !reader.hasLocalName("Envelope") {
                        reader.skip()
                    }
                } else if depth == 1 && bodyDepth == nil && resultDepth == nil {
                    // The Envelope's children: only its first Body is read.
                    if reader.hasLocalName("Body") && !sawBody && !reader.isEmptyElement {
                        sawBody = true
                        bodyDepth = 2
                    } else {
                        if reader.hasLocalName("Body") { sawBody = true }
                        reader.skip()
                    }
                } else if let resultChildren = resultDepth, depth == resultChildren {
                    try resultChild(reader, records: records, body)
                } else if resultDepth == nil, let bodyChildren = bodyDepth, depth >= bodyChildren {
                    if depth == bodyChildren && bodyFirstChild == nil { bodyFirstChild = reader.localName }
                    if depth == bodyChildren && reader.hasLocalName("Fault") {
                        let kind = SOAPResponse.faultKind(try reader.expand())
                        if fault == nil { fault = kind }
                    } else if !sawResult && reader.hasLocalName(operation + "Result") {
                        sawResult = true
                        if !reader.isEmptyElement { resultDepth = depth + 1 }
                    }
                }
            }
        }

        /// One child element of the Result: the payload (streamed to `body`), Messages, or anything else
        /// (searched for `ErrorMessages`, which sit several levels down: docs/yardi-soap.md).
        private mutating func resultChild(_ reader: XMLStreamReader, records: Set<String>,
                                          _ body: (XMLElement) throws -> Void) throws {
            if resultFirstChild == nil { resultFirstChild = reader.localName }
            if reader.hasLocalName(expectedRoot) && !sawPayload {
                sawPayload = true
                // An error already met decides the answer: its payload is not worth reading. Nor is it node by node
                // when no record is asked for (a check): skipped whole, libxml2 still parses it (a cut or garbled
                // payload still fails), without a trip through Swift per node (a ledger's check took as long as its load).
                if fault != nil || status != 200 || !messageErrors.isEmpty || records.isEmpty {
                    reader.skip()
                } else {
                    try reader.forEachElement(named: records, body)
                }
            } else if reader.hasLocalName("Messages") {
                let messages = try reader.expand()
                messageErrors += messages.descendants(named: "Message").filter {
                    ($0.attribute("messageType") ?? "").caseInsensitiveCompare("Error") == .orderedSame
                }.map { String($0.text.trimmingWhitespace) }
                if errorMessages == nil, let list = messages.descendants(named: "ErrorMessages").first {
                    errorMessages = Self.text(of: list)
                }
            } else if reader.hasLocalName("ErrorMessages") && errorMessages == nil && !sawPayload {
                // ItfServiceRequests answers a refusal with `ErrorMessages/Error` straight under the Result.
                errorMessages = Self.text(of: try reader.expand())
            } else if errorMessages == nil && !sawPayload {
                var first: String?
                try reader.forEachElement(named: ["ErrorMessages"]) { list in
                    if first == nil { first = Self.text(of: list) }
                }
                errorMessages = first
            } else {
                reader.skip()
            }
        }

        private static func text(of list: XMLElement) -> String {
            let items = list.children.map { String($0.text.trimmingWhitespace) }.filter { !$0.isEmpty }
            let text = items.isEmpty ? String(list.text.trimmingWhitespace) : items.joined(separator: "; ")
            return text.isEmpty ? "ErrorMessages without text" : text
        }

        /// The first error, weighed in docs/yardi-soap.md's order; nil for a good response.
        func verdict(head: [UInt8]) -> SOAPError.Kind? {
            if let fault { return fault }
            guard status == 200 else { return .http(status: status, excerpt: SOAPResponse.excerpt(head)) }
            guard sawBody && rootName == "Envelope" else {
                if SOAPResponse.containsLoginFailed(head) { return .loginFailed(SOAPResponse.excerpt(head)) }
                return .missingPayload(expected: "soap:Envelope", found: "<\(rootName)>")
            }
            guard sawResult else {
                return .missingPayload(expected: operation + "Result", found: bodyFirstChild.map { "<\($0)>" })
            }
            if let first = messageErrors.first {
                let all = messageErrors.joined(separator: "; ")
                return first.contains("Login failed") ? .loginFailed(all) : .errorMessage(all)
            }
            if !sawPayload, let errorMessages { return .errorMessage(errorMessages) }
            if resultFirstChild == nil {
                let text = String(resultText.trimmingWhitespace)
                if text.contains("Login failed") { return .loginFailed(text) }
                if let code = Int(text), code < 0 { return .resultCode(code) }
            }
            guard sawPayload else {
                return .missingPayload(expected: expectedRoot, found: resultFirstChild.map { "<\($0)>" })
            }
            return nil
        }
    }

    /// faultcode, faultstring and RPX's `detail/RPXApplicationFault/CustomMessage` (SOAP 1.2's Code/Reason too).
    static func faultKind(_ fault: XMLElement) -> SOAPError.Kind {
        func clean(_ text: String?) -> String? {
            let value = text?.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
            return value?.isEmpty == false ? value : nil
        }
        let code = clean(fault.child(named: "faultcode")?.text)
            ?? clean(fault.child(named: "Code")?.child(named: "Value")?.text) ?? "unknown"
        let message = clean(fault.child(named: "faultstring")?.text)
            ?? clean(fault.child(named: "Reason")?.text) ?? "no faultstring"
        let detail = clean(fault.descendants(named: "CustomMessage").first?.text)
        return .fault(code: code, message: message, detail: detail)
    }

    /// `Login failed.` in the head (`headLength` bytes): Yardi's plain-text refusal.
    private static func containsLoginFailed(_ head: [UInt8]) -> Bool {
        String(decoding: head, as: UTF8.self).contains("Login failed")
    }

    /// One line of readable text from a body: tags dropped, whitespace collapsed, at most 160 characters.
    static func excerpt(_ bytes: [UInt8], limit: Int = 160) -> String {
        var text = ""
        var inTag = false
        for character in String(decoding: bytes.prefix(2048), as: UTF8.self) {
            if character == "<" { inTag = true; text.append(" "); continue }
            if character == ">" { inTag = false; continue }
            if !inTag { text.append(character) }
        }
        var line = text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
        if line.count > limit { line = String(line.prefix(limit)) + "..." }
        return line
    }
}
