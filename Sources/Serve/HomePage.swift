import HTTPServer

/// The signed-in landing page: who is signed in, the API's entry points, and the sign-out button (a POST carrying the
/// CSRF token). Works without JavaScript.
enum HomePage {
    static func render(viewer: Viewer, csrf: String?) -> ServerResponse {
        func escape(_ text: String) -> String {
            text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
                .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
        }
        let scope = viewer.role == .owner ? "owner: every property" : "manager: " + viewer.properties.sorted().joined(separator: ", ")
        var html = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>OwnerDash</title>
            <meta name="viewport" content="width=device-width, initial-scale=1"></head>
            <body><h1>OwnerDash</h1>
            <p>Signed in as <strong id="user">\(escape(viewer.email))</strong> (\(escape(scope))).</p>
            <ul><li><a href="/api/v2/properties">Properties</a></li><li><a href="/api/v2/portfolio/summary">Portfolio summary</a></li></ul>

            """
        if let csrf {
            html += """
                <form method="post" action="/auth/signout"><input type="hidden" name="csrf" value="\(escape(csrf))">
                <button type="submit" id="signout">Sign out</button></form>

                """
        }
        html += "</body></html>\n"
        return ServerResponse(status: 200, contentType: "text/html; charset=utf-8", text: html,
                              headers: [("Cache-Control", "private, no-store"), ("X-Frame-Options", "DENY"),
                                        ("Content-Security-Policy", "default-src 'self'; form-action 'self' https:")])
    }
}
