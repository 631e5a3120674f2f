import Metrics
import SQLiteKit

/// A report result (maintenance, expenses) as one printable, self-contained HTML page: every table of the result
/// with its title, numbers right-aligned and formatted as in the table format, unknown values `-`; inline CSS, no
/// script, no requests.
public enum ReportPage {
    /// The page; `generatedAt` is printed in the header as given (`2026-11-22 14:05 UTC`). `link`, when given, may name
    /// a page for a row (by its table's name and values): the row's first cell then links to it (`ownerdash serve`'s
    /// runs page links each run to its own page).
    public static func render(_ result: MetricResult, title: String, generatedAt: String,
                              link: ((_ table: String, _ row: [SQLValue]) -> String?)? = nil) -> String {
        var page = HTMLWriter()
        page.raw("<!DOCTYPE html>\n")
        page.element("html", [("lang", "en")]) { html in
            html.element("head") { head in
                head.empty("meta", [("charset", "utf-8")])
                head.element("title", text: title)
                head.element("style") { $0.raw(style) }
            }
            html.newline()
            html.element("body") { body in
                body.element("h1", text: title)
                body.element("p", [("class", "meta")], text: "Written \(generatedAt)")
                for table in result.tables where !table.rows.isEmpty || table.name == "rows" {
                    section(table, link: link, &body)
                    body.newline()
                }
            }
            html.newline()
        }
        page.newline()
        return page.html
    }

    private static func section(_ table: MetricTable, link: ((String, [SQLValue]) -> String?)?, _ body: inout HTMLWriter) {
        body.element("section", [("class", "table")]) { section in
            section.element("h2", text: table.title)
            section.element("table") { html in
                html.element("thead") { head in
                    head.element("tr") { row in
                        for column in table.columns {
                            row.element("th", [("scope", "col"), ("class", TableFormat.isNumeric(column.kind) ? "num" : nil)],
                                        text: column.name)
                        }
                    }
                }
                html.element("tbody") { tbody in
                    if table.rows.isEmpty {
                        tbody.element("tr") { $0.element("td", [("colspan", String(table.columns.count))], text: "no data") }
                    }
                    for values in table.rows { line(values, table.columns, link: link?(table.name, values), &tbody) }
                }
                if let total = table.total {
                    html.element("tfoot") { line(total, table.columns, &$0) }
                }
            }
        }
    }

    private static func line(_ values: [SQLValue], _ columns: [MetricResult.Column], link: String? = nil,
                             _ body: inout HTMLWriter) {
        body.element("tr") { row in
            for (index, (value, column)) in zip(values, columns).enumerated() {
                let attributes: [HTMLWriter.Attribute] = [("class", TableFormat.isNumeric(column.kind) ? "num" : nil)]
                if index == 0, let link {
                    row.element("td", attributes) { $0.element("a", [("href", link)], text: TableFormat.cell(value, column.kind)) }
                } else {
                    row.element("td", attributes, text: TableFormat.cell(value, column.kind))
                }
            }
        }
    }

    /// The reports' page style (also the `/api/docs` page's): system font, ruled tables, numbers right-aligned.
    public static let style = """
        body{font:14px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1a1a1a;margin:24px}
        h1{font-size:20px;margin:0 0 4px}h2{font-size:16px;margin:20px 0 6px}.meta{color:#555;margin:0 0 12px}
        table{border-collapse:collapse}th,td{padding:3px 8px;border-bottom:1px solid #ddd;text-align:left}
        th{background:#f2f2f2}.num{text-align:right;font-variant-numeric:tabular-nums}tfoot td{font-weight:600;border-top:2px solid #999}
        @media print{body{margin:0}section{break-inside:avoid}}
        """
}
