import HTTPServer
import Render

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
        var body = "{\"type\": \"about:blank\", \"title\": " + JSONFormat.string(title) + ", \"status\": \(status), \"detail\": "
            + JSONFormat.string(detail)
        if let parameter {
            body += ", \"invalid_params\": [{\"name\": " + JSONFormat.string(parameter) + ", \"reason\": " + JSONFormat.string(detail) + "}]"
        }
        body += "}\n"
        return ServerResponse(status: status, contentType: "application/problem+json", text: body,
                              headers: headers.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
    }
}
