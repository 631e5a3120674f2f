import XMLKit

/// One element of a SOAP request body: a text value, or an element holding more elements (RPX `auth`).
public enum SOAPParameter: Sendable, Equatable {
    case value(String, String)
    case group(String, [SOAPParameter])
}

/// A SOAP 1.1 request ready to post: where, which SOAPAction, and the envelope bytes.
public struct SOAPRequest: Sendable {
    public var url: String
    public var operation: String
    public var soapAction: String
    public var body: [UInt8]

    /// The HTTP headers of a SOAP 1.1 call; the action is quoted, as .NET clients send it.
    public var headers: [(name: String, value: String)] {
        [("Content-Type", "text/xml; charset=utf-8"), ("SOAPAction", "\"\(soapAction)\""), ("Accept", "text/xml")]
    }
}

/// Builds SOAP 1.1 envelopes as text: element names are ours, every value goes through `XMLText.escape`.
public enum SOAPEnvelope {
    /// The SOAP 1.1 envelope namespace (both vendors answer 1.1).
    public static let soap11Namespace = "http://schemas.xmlsoap.org/soap/envelope/"

    /// `<soap:Envelope><soap:Body><operation xmlns="namespace">parameters</operation></soap:Body></soap:Envelope>`.
    ///
    /// The operation element declares `namespace` as the default namespace, so every parameter is
    /// qualified in it (document/literal, `elementFormDefault="qualified"`) without a prefix.
    /// CR and LF never appear in the body: a Yardi client reports that line feeds break the server,
    /// and escaping already turns any CR/LF inside a value into a character reference.
    public static func build(operation: String, namespace: String, parameters: [SOAPParameter]) -> [UInt8] {
        var text = "<?xml version=\"1.0\" encoding=\"utf-8\"?>"
        text += "<soap:Envelope xmlns:soap=\"\(soap11Namespace)\"><soap:Body>"
        text += "<\(operation) xmlns=\"\(XMLText.escape(namespace))\">"
        for parameter in parameters { append(parameter, to: &text) }
        text += "</\(operation)></soap:Body></soap:Envelope>"
        return Array(text.utf8).filter { $0 != 0x0A && $0 != 0x0D }
    }

    private static func append(_ parameter: SOAPParameter, to text: inout String) {
        switch parameter {
        case .value(let name, let value):
            text += "<\(name)>\(XMLText.escape(value))</\(name)>"
        case .group(let name, let children):
            text += "<\(name)>"
            for child in children { append(child, to: &text) }
            text += "</\(name)>"
        }
    }
}
