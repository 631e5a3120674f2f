import Ledger
import OwnerDashCore

/// A recorded lease-charge audit run as one printable, self-contained HTML page (inline CSS, no script): the property
/// totals, then per property its exceptions (with the key to resolve each by and its status badge) and, unless
/// exceptions only, every lease and charge code with its status.
public enum AuditPage {
    /// The page; `generatedAt` is printed in the header as given. `actions`: HTML for an extra Action column of the
    /// exceptions (the live server's resolve / reopen forms); nil for the printed page.
    public static func render(_ report: AuditReport, exceptionsOnly: Bool, generatedAt: String,
                              actions: ((AuditReport.Exception) -> String)? = nil) -> String {
        var page = HTMLWriter()
        page.raw("<!DOCTYPE html>\n")
        page.element("html", [("lang", "en")]) { html in
            html.element("head") { head in
                head.empty("meta", [("charset", "utf-8")])
                head.element("title", text: "Lease-charge audit, run \(report.runID)")
                head.element("style") { $0.raw(LeaseStatusPage.style + style) }
            }
            html.newline()
            html.element("body") { body in
                body.element("h1", text: "Lease-charge audit, run \(report.runID)")
                body.element("p", [("class", "meta")],
                             text: "Months \(report.firstMonth) to \(report.lastMonth) · as of \(report.asOf) · run started \(report.startedAt) · written \(generatedAt)")
                table(["Property", "Leases", "Lines", "Matched", "Missing", "Unexpected", "Under", "Over",
                       "Undercharged", "Overcharged", "Not audited", "Not audited $"],
                      report.properties.map { p in
                          [p.property, String(p.leases), String(p.lines), String(p.matched), String(p.missing),
                           String(p.unexpected), String(p.undercharge), String(p.overcharge),
                           dollars(p.underchargeTotal), dollars(p.overchargeTotal), String(p.notAudited),
                           p.notAuditedAmount.map(dollars) ?? ""].map { ($0, nil) }
                      }, &body)
                for totals in report.properties {
                    let property = totals.property
                    body.element("section", [("class", "property")]) { section in
                        section.element("h2", text: property)
                        if let note = notAuditedNote(totals) { section.element("p", [("class", "no-ledger")], text: note) }
                        let exceptions = report.exceptions.filter { $0.key.property == property }
                        section.element("h3", text: "Exceptions (\(exceptions.count))")
                        table(["Key", "Unit", "Kind", "Expected", "Posted", "Variance", "Status", "Resolution",
                               "Expected from"] + (actions == nil ? [] : ["Action"]),
                              exceptions.map { e in
                                  [(e.key.description, nil), (e.unit ?? "", nil), (e.kind, nil), (dollars(e.expected), nil),
                                   (dollars(e.posted), nil), (dollars(e.variance), nil),
                                   (e.status.rawValue, "badge \(e.status.rawValue.lowercased())"), (resolution(e), nil),
                                   (e.expectedFrom ?? "", nil)]
                              }, &section, actions: actions.map { action in exceptions.map(action) })
                        if !exceptionsOnly {
                            let leases = report.leaseCharges.filter { $0.property == property }
                            section.element("h3", text: "Leases and charge codes (\(leases.count))")
                            table(["Unit", "Lease", "Resident", "Code", "Months", "Matched", "Exceptions", "Status",
                                   "Expected from"],
                                  leases.map { l in
                                      [(l.unit ?? "", nil), (l.leaseID, nil), (l.residentID ?? "", nil), (l.chargeCode, nil),
                                       (String(l.months), nil), (String(l.matched), nil), (String(l.exceptions), nil),
                                       (l.status.rawValue, "badge \(l.status.rawValue.lowercased())"), (l.expectedFrom ?? "", nil)]
                                  }, &section)
                        }
                    }
                    body.newline()
                }
                LeaseStatusPage.noLedgerNote(report.noLedger, consequence: "not audited, not zeros", &body)
                LeaseStatusPage.partialLedgerNote(report.partialLedger, consequence: "schedule only, not audited", &body)
                LeaseStatusPage.wholeAsOfNote(report.ledgerWholeAsOf, &body)
            }
            html.newline()
        }
        page.newline()
        return page.html
    }

    /// What the run could not judge at this property, with how much and why; nil when everything posted was audited.
    static func notAuditedNote(_ p: ChargeAudit.PropertyTotals) -> String? {
        guard p.notAudited > 0 else { return nil }
        let leases = p.notAuditedLeases.map { " on \($0) lease\($0 == 1 ? "" : "s")" } ?? ""
        let amount = p.notAuditedAmount.map { " (\(dollars($0)))" } ?? ""
        return "Not audited: \(p.notAudited) charge line\(p.notAudited == 1 ? "" : "s")\(leases)\(amount), "
            + ChargeAudit.unscheduledReason
    }

    /// `charge: posted water — dana 2026-11-22T14:05:09Z (run 1)`, or the reopening.
    static func resolution(_ e: AuditReport.Exception) -> String {
        guard let event = e.event else { return "" }
        let who = [e.by, e.at].compactMap { $0 }.joined(separator: " ")
        let run = e.eventRun.map { e.historical ? " (from run \($0))" : " (run \($0))" } ?? ""
        let what = event == "resolved" ? "\(e.action ?? ""): \(e.fix ?? "")" : "reopened"
        return "\(what) — \(who)\(run)\(e.note.map { "; \($0)" } ?? "")"
    }

    /// Each cell: its text and an optional class for a span around it (a status badge); `actions`: one more cell per
    /// row, HTML as given.
    private static func table(_ headers: [String], _ rows: [[(String, String?)]], _ html: inout HTMLWriter,
                              actions: [String]? = nil) {
        html.element("table") { table in
            table.element("thead") { head in
                head.element("tr") { row in for title in headers { row.element("th", [("scope", "col")], text: title) } }
            }
            table.element("tbody") { tbody in
                for (index, cells) in rows.enumerated() {
                    tbody.newline()
                    tbody.element("tr") { row in
                        for (text, badge) in cells {
                            row.element("td") { cell in
                                if let badge { cell.element("span", [("class", badge)], text: text) } else { cell.text(text) }
                            }
                        }
                        if let actions { row.element("td") { $0.raw(actions[index]) } }
                    }
                }
                if rows.isEmpty {
                    tbody.element("tr") { row in row.element("td", [("colspan", String(headers.count))], text: "None") }
                }
            }
        }
    }

    static func dollars(_ value: Money) -> String { DashboardFormat.money(value, cents: true) }

    static let style = """
        h3 { font-size: 14px; margin: 12px 0 4px; }
        .badge.passed { background: #bfe5c8; } .badge.resolved { background: #c6dcf5; } .badge.open { background: #f4b5ad; }
        """
}
