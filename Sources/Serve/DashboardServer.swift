import Foundation
import HTTPServer
import OwnerDashCore

/// `ownerdash serve`: the HTTP server over unified.db. Checks every path, answers `/healthz` to anyone and everything
/// else only to a signed-in user: the API answers 401 to anyone else, pages redirect to sign-in.
public final class DashboardServer: Sendable {
    let server: HTTPServer
    /// The port listened on.
    public var port: UInt16 { server.port }

    /// Who is asking, from the request's session cookie or bearer token.
    public typealias Authenticate = @Sendable (ServerRequest) -> Access

    /// Behind OpenID Connect sign-in.
    public convenience init(dataDirectory: DataDirectory, settings: ServerSettings, log: Diagnostics, signIn: SignIn) throws {
        try self.init(dataDirectory: dataDirectory, settings: settings, log: log, signIn: signIn, authenticate: signIn.access)
    }

    /// With `authenticate` deciding who is asking (tests, and `--no-sign-in` on loopback).
    public init(dataDirectory: DataDirectory, settings: ServerSettings, log: Diagnostics, signIn: SignIn? = nil,
                authenticate: @escaping Authenticate) throws {
        let readers = ReaderPool(dataDirectory: dataDirectory, keep: settings.threads)
        let api = APIRoutes(readers: readers, dataDirectory: dataDirectory, log: log)
        let pages = Pages(readers: readers, log: log, signOutTarget: signIn?.provider.endSessionEndpoint)
        server = try HTTPServer(settings: settings) { request in
            Self.route(request, api: api, pages: pages, signIn: signIn, authenticate: authenticate)
        }
    }

    /// Stops listening and joins the server's threads.
    public func stop() { server.stop() }

    /// Serves a socket connected elsewhere (the HTTP fuzzer's socketpair end); see `HTTPServer.adopt(socket:)`.
    public func adopt(socket: Int32) -> Bool { server.adopt(socket: socket) }

    static func route(_ request: ServerRequest, api: APIRoutes, pages: Pages, signIn: SignIn?, authenticate: Authenticate) -> ServerResponse {
        let segments: [String]
        do {
            segments = try pathSegments(request.path)
        } catch {
            return error.response
        }
        if let answer = APIRoutes.publicAnswer(segments) { return answer }
        if segments.count == 2, segments[0] == "auth", let signIn {
            return signIn.respond(request, action: segments[1])
        }
        let isAPI = segments.count >= 2 && segments[0] == "api" && segments[1] == "v2"
        switch authenticate(request) {
        case .refused(let problem):
            return problem.response
        case .anonymous:
            guard isAPI || signIn == nil else { return SignIn.redirectToSignIn(request) }
            return Problem(status: 401, title: "Unauthorized", detail: "sign in first, or send the provider's ID token as a bearer token",
                           headers: ["WWW-Authenticate": "Bearer realm=\"ownerdash\""]).response
        case .signedIn(let viewer, let csrf):
            if isAPI {
                let rest = Array(segments.dropFirst(2))
                if request.method == "POST" { return api.change(request, segments: rest, viewer: viewer, csrf: csrf) }
                return api.respond(request, segments: rest, viewer: viewer)
            }
            if request.method == "POST", segments.count == 4, segments[0] == "audit", segments[1] == "exceptions" {
                // The audit page's forms: the API's change, then back to the page (no script needed).
                let answer = api.change(request, segments: segments, viewer: viewer, csrf: csrf)
                guard answer.status == 200 else { return answer }
                return ServerResponse(status: 303, headers: [("Location", "/audit"), ("Cache-Control", "no-store")])
            }
            return pages.respond(request, segments: segments, viewer: viewer, csrf: csrf)
        }
    }

    /// The path's segments; 400 for `.` or `..` (path traversal), empty segments inside the path, control characters
    /// or backslashes, none of which any endpoint uses.
    static func pathSegments(_ path: String) throws(Problem) -> [String] {
        guard path.hasPrefix("/") else { throw Problem.badParameter("path", "must start with /") }
        var segments = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map(String.init)
        if segments.last == "" { segments.removeLast() }   // a trailing slash
        for segment in segments {
            if segment == "." || segment == ".." || segment.isEmpty {
                throw Problem.badParameter("path", "\"\(Parameters.clip(path))\" has an empty, . or .. segment")
            }
            if segment.unicodeScalars.contains(where: { $0.value < 0x20 || $0 == "\\" || $0.value == 0x7F }) {
                throw Problem.badParameter("path", "control characters and backslashes are not allowed")
            }
        }
        return segments
    }
}
