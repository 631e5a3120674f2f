import OwnerDashCore

/// The bar on top of every served page (the dashboard's pages and the report pages alike): the pages, who is signed
/// in and sign-out, one line of data freshness, and a banner when something is stale. Its stylesheet (`css`) goes in
/// each page's head, so pages with different styles of their own carry the same bar.
public struct NavigationBar: Sendable {
    /// A page the bar links to.
    public struct Link: Sendable {
        public var title: String
        public var href: String
        /// A link titled `title` to `href`.
        public init(_ title: String, _ href: String) { self.title = title; self.href = href }
    }

    /// A line of the banner, with where to read more.
    public struct Warning: Sendable {
        public var text: String
        public var link: Link?
        /// A warning; `link` follows its text.
        public init(_ text: String, link: Link? = nil) { self.text = text; self.link = link }
    }

    public var links: [Link]
    /// The href of the page shown (marked `aria-current`), if it is one of `links`.
    public var current: String?
    /// The signed-in user's e-mail.
    public var user: String
    /// The session's CSRF token for the sign-out form; nil: no sign-out (a bearer token, `--no-sign-in`).
    public var signOutToken: String?
    /// The oldest and the newest data date of the viewer's properties, and the page listing each; nil: no line (the
    /// portfolio page says it itself, and nothing synced says nothing).
    public var freshness: (oldest: LocalDate, newest: LocalDate, details: Link)?
    public var warnings: [Warning]

    /// A bar.
    public init(links: [Link], current: String?, user: String, signOutToken: String?,
                freshness: (oldest: LocalDate, newest: LocalDate, details: Link)?, warnings: [Warning]) {
        self.links = links; self.current = current; self.user = user; self.signOutToken = signOutToken
        self.freshness = freshness; self.warnings = warnings
    }

    /// The bar's markup (`<nav id="serve-bar">`), every piece of data escaped.
    public func render() -> String {
        var html = HTMLWriter()
        html.element("nav", [("id", "serve-bar"), ("aria-label", "OwnerDash pages")]) { html in
            html.element("div", [("class", "bar-row")]) { html in
                html.element("ul") { html in
                    for link in links {
                        html.element("li") { html in
                            html.element("a", [("href", link.href), ("aria-current", link.href == current ? "page" : nil)],
                                         text: link.title)
                        }
                    }
                }
                html.element("div", [("class", "bar-user")]) { html in
                    html.element("span", [("id", "user")], text: user)
                    if let signOutToken {
                        html.element("form", [("method", "post"), ("action", "/auth/signout")]) { html in
                            html.empty("input", [("type", "hidden"), ("name", "csrf"), ("value", signOutToken)])
                            html.element("button", [("type", "submit"), ("id", "signout")], text: "Sign out")
                        }
                    }
                }
            }
            if let freshness {
                html.element("p", [("id", "freshness"), ("class", "bar-line")]) { html in
                    if freshness.oldest == freshness.newest {
                        html.text("Data as of ")
                        html.element("time", [("datetime", freshness.newest.iso)], text: DashboardFormat.longDate(freshness.newest))
                    } else {
                        html.text("Data dates: oldest ")
                        html.element("time", [("datetime", freshness.oldest.iso)], text: DashboardFormat.longDate(freshness.oldest))
                        html.text(", newest ")
                        html.element("time", [("datetime", freshness.newest.iso)], text: DashboardFormat.longDate(freshness.newest))
                    }
                    html.text(" \u{B7} ")
                    html.element("a", [("href", freshness.details.href)], text: freshness.details.title)
                }
            }
            if !warnings.isEmpty {
                html.element("div", [("id", "stale"), ("role", "alert")]) { html in
                    for (index, warning) in warnings.enumerated() {
                        if index > 0 { html.text(" ") }
                        html.text(warning.text)
                        if let link = warning.link {
                            html.text(" ")
                            html.element("a", [("href", link.href)], text: link.title)
                        }
                    }
                }
            }
        }
        return html.html
    }

    /// The bar's look, scoped to `#serve-bar`: a white strip with the current page underlined, wrapping on a phone,
    /// its content lined up with the dashboard's (1,200 px of content, 20 px in from the edge, 12 on a phone).
    /// The report pages keep a 24 px body margin, which the bar reaches over to run edge to edge; the dashboard's
    /// pages have none (`DashboardStyle` sets the bar's margin to 0 there). Neither `<` nor `&`: pages are XML too.
    public static let css = """
        #serve-bar { font: 14px/1.4 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
                     background: #FFFFFF; color: #1F2933; border-bottom: 1px solid #D9DEE3; padding: 0 20px;
                     margin: -24px -24px 16px; }
        #serve-bar .bar-row { display: flex; flex-wrap: wrap; align-items: center; gap: 0 16px; max-width: 1200px;
                              margin: 0 auto; }
        #serve-bar ul { display: flex; flex-wrap: wrap; gap: 0 2px; list-style: none; margin: 0 0 0 -8px; padding: 0; }
        #serve-bar li a { display: block; padding: 10px 8px 8px; color: #334E68; text-decoration: none;
                          border-bottom: 2px solid transparent; }
        #serve-bar li a:hover { color: #0072B2; }
        #serve-bar li a[aria-current="page"] { color: #0072B2; border-bottom-color: #0072B2; font-weight: 600; }
        #serve-bar a:focus-visible, #serve-bar button:focus-visible { outline: 3px solid #E69F00; outline-offset: 1px; }
        #serve-bar .bar-user { margin-left: auto; display: flex; flex-wrap: wrap; align-items: center; gap: 4px 8px;
                               padding: 6px 0; color: #52606D; font-size: 13px; overflow-wrap: anywhere; }
        #serve-bar form { display: inline; margin: 0; }
        #serve-bar button { font: inherit; padding: 3px 10px; border: 1px solid #BCCCDC; border-radius: 6px;
                            background: #F4F6F8; color: #1F2933; cursor: pointer; }
        #serve-bar .bar-line { max-width: 1200px; margin: 0 auto; padding: 0 0 6px; color: #52606D; font-size: 13px; }
        #serve-bar #stale { max-width: 1200px; margin: 0 auto 8px; background: #FFF3CD; border: 1px solid #E0B000;
                            border-radius: 6px; padding: 4px 8px; color: #5C4400; font-size: 13px; }
        @media (max-width: 640px) {
            #serve-bar { padding: 0 12px; }
            #serve-bar li a { padding: 8px 6px 6px; }
            #serve-bar .bar-user { margin-left: 0; }
        }
        @media print { #serve-bar { display: none; } }
        """
}
