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
    /// Order follows reference 1.4: HTTP status and SOAP Fault, then error messages inside the Result
    /// (`Messages/Message[@messageType='Error']`, `ErrorMessages`), `Login failed.` as plain text, a bare
    /// negative result code, and finally the expected payload root (a silent empty answer is an error:
    /// a wrong property code comes back that way).
    public init(bytes: [UInt8], status: Int = 200, operation: String, expectedRoot: String, property: String? = nil) throws {
        func failure(_ kind: SOAPError.Kind) -> SOAPError { SOAPError(operation: operation, property: property, kind: kind) }
        let document: XMLDocument
        do {
            document = try XMLDocument(bytes: bytes)
        } catch {
            guard status == 200 else { throw failure(.http(status: status, excerpt: Self.excerpt(bytes))) }
            if Self.containsLoginFailed(bytes) { throw failure(.loginFailed(Self.excerpt(bytes))) }
            throw failure(.notXML("\(error)"))
        }
        guard let root = document.root else { throw failure(.notXML("no root element")) }
        let envelopeBody = root.hasLocalName("Envelope") ? root.child(named: "Body") : nil
        if let fault = envelopeBody?.child(named: "Fault") ?? (root.hasLocalName("Fault") ? root : nil) {
            throw failure(Self.faultKind(fault))
        }
        guard status == 200 else { throw failure(.http(status: status, excerpt: Self.excerpt(bytes))) }
        guard let body = envelopeBody else {
            if Self.containsLoginFailed(bytes) { throw failure(.loginFailed(Self.excerpt(bytes))) }
            throw failure(.missingPayload(expected: "soap:Envelope", found: "<\(root.localName)>"))
        }
        // Direct path first: a full-ledger response has millions of nodes, not worth a deep search.
        guard let result = body.child(named: operation + "Response")?.child(named: operation + "Result")
                ?? body.descendants(named: operation + "Result").first else {
            let found = body.children.first.map { "<\($0.localName)>" }
            throw failure(.missingPayload(expected: operation + "Result", found: found))
        }
        let payloads = result.children
        try Self.checkMessages(in: result, deep: !payloads.contains { $0.hasLocalName(expectedRoot) }, failure: failure)
        if payloads.isEmpty {
            let text = result.text.trimmingCharacters(in: .whitespacesAndNewlines)
            if text.contains("Login failed") { throw failure(.loginFailed(text)) }
            if let code = Int(text), code < 0 { throw failure(.resultCode(code)) }
        }
        guard let payload = payloads.first(where: { $0.hasLocalName(expectedRoot) }) else {
            throw failure(.missingPayload(expected: expectedRoot, found: payloads.first.map { "<\($0.localName)>" }))
        }
        self.document = document
        self.result = result
        self.payload = payload
    }

    /// Error messages inside a 200 Result; warnings and info messages are not errors.
    /// `deep` searches the whole Result for `ErrorMessages` (they sit several levels down, reference 1.4 item 3);
    /// when the expected payload is there, only `Messages` beside it are looked at.
    private static func checkMessages(in result: XMLElement, deep: Bool, failure: (SOAPError.Kind) -> SOAPError) throws {
        let errors = result.children(named: "Messages").flatMap { $0.descendants(named: "Message") }.filter {
            ($0.attribute("messageType") ?? "").caseInsensitiveCompare("Error") == .orderedSame
        }.map { $0.text.trimmingCharacters(in: .whitespacesAndNewlines) }
        if let first = errors.first {
            let all = errors.joined(separator: "; ")
            throw failure(first.contains("Login failed") ? .loginFailed(all) : .errorMessage(all))
        }
        if deep, let list = result.descendants(named: "ErrorMessages").first {
            let items = list.children.map { $0.text.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
            let text = items.isEmpty ? list.text.trimmingCharacters(in: .whitespacesAndNewlines) : items.joined(separator: "; ")
            throw failure(.errorMessage(text.isEmpty ? "ErrorMessages without text" : text))
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

    private static func containsLoginFailed(_ bytes: [UInt8]) -> Bool {
        String(decoding: bytes.prefix(4096), as: UTF8.self).contains("Login failed")
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
