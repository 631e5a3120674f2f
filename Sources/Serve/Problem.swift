import HTTPServer

/// An RFC 9457 problem details answer (`application/problem+json`): what went wrong, in one sentence, with the
/// offending parameter named when there is one.
public struct Problem: Error, Sendable, Equatable {
    public var status: Int
    public var title: String
    public var detail: String
    /// The query or path parameter at fault (the `invalid_params` extension member), if any.
    public var parameter: String?
    /// Extra header fields (`WWW-Authenticate` on 401, `Allow` on 405).
    public var headers: [String: String] = [:]

    public init(status: Int, title: String, detail: String, parameter: String? = nil, headers: [String: String] = [:]) {
        self.status = status; self.title = title; self.detail = detail; self.parameter = parameter; self.headers = headers
    }

    /// 400 naming the bad parameter and what it must be.
    public static func badParameter(_ name: String, _ reason: String) -> Problem {
        Problem(status: 400, title: "Bad Request", detail: "\(name): \(reason)", parameter: name)
    }

    /// 404: no such resource, or one the viewer may not see (never told apart, so ids cannot be probed).
    public static func notFound(_ detail: String) -> Problem {
        Problem(status: 404, title: "Not Found", detail: detail)
    }

    public var response: ServerResponse {
        var body = "{\"type\": \"about:blank\", \"title\": " + JSONText.string(title) + ", \"status\": \(status), \"detail\": "
            + JSONText.string(detail)
        if let parameter {
            body += ", \"invalid_params\": [{\"name\": " + JSONText.string(parameter) + ", \"reason\": " + JSONText.string(detail) + "}]"
        }
        body += "}\n"
        return ServerResponse(status: status, contentType: "application/problem+json", text: body,
                              headers: headers.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
    }
}

/// JSON string literals for the few bodies built here (problems, health); reports go through Render's JSON format.
enum JSONText {
    static func string(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{0}"..."\u{1F}", "\u{7F}":
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
