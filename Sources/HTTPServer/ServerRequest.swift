/// One HTTP request as the server hands it to a handler: everything decoded, nothing pointing into the C library.
public struct ServerRequest: Sendable {
    /// `GET`, `POST`, ... as the client sent it.
    public var method: String
    /// The path, percent-decoded (libmicrohttpd decodes it), without the query string.
    public var path: String
    /// The query's items in order, decoded; a key may repeat.
    public var query: [(name: String, value: String)]
    /// Header fields in order; look them up with `header(_:)` (names are case-insensitive).
    public var headers: [(name: String, value: String)]
    /// Cookies by name, as the `Cookie` header carried them.
    public var cookies: [String: String]
    public var body: [UInt8]
    /// The client's IP address as text (empty when unknown).
    public var clientAddress: String

    public init(method: String, path: String, query: [(name: String, value: String)] = [],
                headers: [(name: String, value: String)] = [], cookies: [String: String] = [:], body: [UInt8] = [],
                clientAddress: String = "") {
        self.method = method; self.path = path; self.query = query; self.headers = headers; self.cookies = cookies
        self.body = body; self.clientAddress = clientAddress
    }

    /// The first value of a header field (case-insensitive name).
    public func header(_ name: String) -> String? {
        let lowered = name.lowercased()
        return headers.first { $0.name.lowercased() == lowered }?.value
    }

    /// The last value of a query item (a later repetition wins, as in most frameworks); nil when absent.
    public func queryValue(_ name: String) -> String? {
        query.last { $0.name == name }?.value
    }

    /// Every value of a repeated query item, in order.
    public func queryValues(_ name: String) -> [String] {
        query.filter { $0.name == name }.map(\.value)
    }

    /// The body's form fields (`application/x-www-form-urlencoded`), decoded.
    public var formFields: [String: String] {
        var fields: [String: String] = [:]
        for pair in String(decoding: body, as: UTF8.self).split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = FormDecoding.decode(String(parts[0]))
            fields[name] = parts.count > 1 ? FormDecoding.decode(String(parts[1])) : ""
        }
        return fields
    }
}

/// `application/x-www-form-urlencoded` decoding: `+` is a space, `%XX` a byte; bad escapes are kept as they are.
enum FormDecoding {
    static func decode(_ text: String) -> String {
        var bytes: [UInt8] = []
        var input = Array(text.utf8)[...]
        while let byte = input.popFirst() {
            if byte == UInt8(ascii: "+") {
                bytes.append(0x20)
            } else if byte == UInt8(ascii: "%"), input.count >= 2,
                      let value = UInt8(String(decoding: input.prefix(2), as: UTF8.self), radix: 16) {
                bytes.append(value)
                input = input.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// One HTTP response: status, header fields, body bytes.
public struct ServerResponse: Sendable {
    public var status: Int
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]

    public init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.status = status; self.headers = headers; self.body = body
    }

    /// A text body with its content type (UTF-8).
    public init(status: Int, contentType: String, text: String, headers: [(name: String, value: String)] = []) {
        self.init(status: status, headers: [("Content-Type", contentType)] + headers, body: Array(text.utf8))
    }

    /// The first value of a header field (case-insensitive name).
    public func header(_ name: String) -> String? {
        let lowered = name.lowercased()
        return headers.first { $0.name.lowercased() == lowered }?.value
    }
}
