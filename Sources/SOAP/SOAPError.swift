/// Why a SOAP call gave no usable payload, naming the operation and the property it was for.
///
/// One type for every way Yardi and RPX report trouble (docs/yardi-soap.md and docs/rpx-soap.md): a SOAP Fault, an
/// HTTP error, an error message inside a 200, `Login failed.`, a negative result code, a missing
/// payload, a body that is not XML, and a value a decoder cannot read.
public struct SOAPError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What went wrong.
    public enum Kind: Sendable, Equatable {
        /// `soap:Fault`: its faultcode and faultstring, and RPX's `RPXApplicationFault` CustomMessage when present.
        case fault(code: String, message: String, detail: String?)
        /// A non-200 status without a SOAP Fault in the body; `excerpt` is a short, tag-free piece of it.
        case http(status: Int, excerpt: String)
        /// `Messages/Message[@messageType='Error']` or `ErrorMessages/Error` inside a 200 Result.
        case errorMessage(String)
        /// Yardi's `Login failed.`, as a Message or as plain text.
        case loginFailed(String)
        /// A bare numeric Result (`-1` insufficient rights, `-2` no access to the property, `-3` entity or license, `-4` login).
        case resultCode(Int)
        /// The Result (or the envelope) lacks the element the operation returns.
        case missingPayload(expected: String, found: String?)
        /// The body could not be parsed as XML.
        case notXML(String)
        /// A field whose text is not what the vendor documents (`MarketRent: "abc" is not an amount`).
        case invalidValue(String)
    }

    public var operation: String
    /// Registry key (or vendor id) of the property; nil when not known where the error arose.
    public var property: String?
    public var kind: Kind

    /// An error of `kind` for `operation` (and `property`, when known).
    public init(operation: String, property: String? = nil, kind: Kind) {
        self.operation = operation; self.property = property; self.kind = kind
    }

    /// The same error, now knowing the property.
    public func forProperty(_ property: String) -> SOAPError {
        var copy = self
        copy.property = property
        return copy
    }

    public var description: String {
        let subject = property.map { "\(operation) for \($0)" } ?? operation
        return "\(subject): \(reason)"
    }

    /// The reason alone, without operation and property.
    public var reason: String {
        switch kind {
        case let .fault(code, message, detail):
            var text = "SOAP Fault \(code): \(message)"
            if let detail, !detail.isEmpty, detail != message { text += " (\(detail))" }
            return text
        case let .http(status, excerpt):
            return "HTTP \(status)" + (excerpt.isEmpty ? "" : ": \(excerpt)")
        case .errorMessage(let message):
            return "the server answered with an error: \(message)"
        case .loginFailed(let message):
            return "login failed (check YARDI_USERNAME, YARDI_PASSWORD, YARDI_SERVER_NAME, YARDI_DATABASE): \(message)"
        case .resultCode(let code):
            let meaning: String = switch code {
            case -1: "the web-service user has insufficient rights"
            case -2: "the interface entity has no access to the property"
            case -3: "interface entity or license error"
            case -4: "login failed"
            default: "an error code"
            }
            return "the server answered with result code \(code) (\(meaning))"
        case let .missingPayload(expected, found):
            return "the response has no <\(expected)> element" + (found.map { " (found \($0))" } ?? " (an empty result)")
        case .notXML(let message):
            return "the response is not XML: \(message)"
        case .invalidValue(let message):
            return message
        }
    }
}
