import Ledger
import Metrics
import OwnerDashCore

/// The lease payment-status grid as one printable, self-contained HTML page (inline CSS, no script, no requests):
/// per property, floors -> units -> leases with their tenants, and per month a rent and a utilities badge colored by
/// status (green PAID, blue PARTIAL, yellow PENDING, red OVERDUE) whose tooltip says what was billed, paid, when it
/// was due and what is still owed.
public enum LeaseStatusPage {
    /// The page; `generatedAt` is printed in the header as given (`2026-11-22 14:05 UTC`).
    public static func render(_ report: LeasePaymentStatusReport, generatedAt: String) -> String {
        var page = HTMLWriter()
        page.raw("<!DOCTYPE html>\n")
        page.element("html", [("lang", "en")]) { html in
            html.element("head") { head in
                head.empty("meta", [("charset", "utf-8")])
                head.element("title", text: "Lease payment status")
                head.element("style") { $0.raw(style) }
            }
            html.newline()
            html.element("body") { body in
                body.element("h1", text: "Lease payment status")
                let range = "\(report.months.first ?? "") to \(report.months.last ?? "")"
                body.element("p", [("class", "meta")], text: "Months \(range) · written \(generatedAt) · R = rent, U = utilities")
                legend(&body)
                for property in Array(Set(report.lines.map(\.property))).sorted() {
                    section(property, report, &body)
                }
                noLedgerNote(report.noLedger, &body)
                partialLedgerNote(report.partialLedger.keys.sorted(), consequence: "only the month of the balances is known", &body)
                wholeAsOfNote(report.ledgerWholeAsOf, &body)
            }
            html.newline()
        }
        page.newline()
        return page.html
    }

    private static func legend(_ body: inout HTMLWriter) {
        body.element("p", [("class", "legend")]) { p in
            for status in PaymentStatus.allCases {
                p.element("span", [("class", "badge \(status.rawValue.lowercased())")], text: status.rawValue)
                p.text(" ")
            }
        }
    }

    private static func section(_ property: String, _ report: LeasePaymentStatusReport, _ body: inout HTMLWriter) {
        let lines = report.lines.filter { $0.property == property }
        body.element("section", [("class", "property")]) { section in
            section.element("h2", text: property)
            section.element("p", [("class", "meta")], text: "Past due = due before \(report.asOf[property] ?? "the property date")")
            section.element("table") { table in
                table.element("thead") { head in
                    head.element("tr") { row in
                        for title in ["Unit", "Lease", "Tenants"] { row.element("th", [("scope", "col")], text: title) }
                        for month in report.months { row.element("th", [("scope", "col")], text: month) }
                    }
                }
                table.element("tbody") { tbody in
                    var floor: String?? = .none
                    for line in lines {
                        if floor != .some(line.floor) {
                            floor = .some(line.floor)
                            tbody.element("tr", [("class", "floor")]) { row in
                                row.element("th", [("colspan", String(3 + report.months.count)), ("scope", "rowgroup")],
                                            text: line.floor.map { "Floor \($0)" } ?? unknownFloor(report.floorNotes[property]))
                            }
                        }
                        tbody.newline()
                        tbody.element("tr") { row in
                            row.element("td", text: line.unit)
                            row.element("td", text: line.leaseIDs.isEmpty ? line.residentID : line.leaseIDs.joined(separator: ", "))
                            row.element("td", text: line.tenants.isEmpty ? line.residentID : line.tenants.joined(separator: "; "))
                            for month in report.months {
                                row.element("td", [("class", "month")]) { cell in
                                    badge("R", "Rent", line.rent[month], &cell)
                                    badge("U", "Utilities", line.utilities[month], &cell)
                                }
                            }
                        }
                    }
                }
            }
        }
        body.newline()
    }

    /// The heading of the units whose floor is not known: why, as the sync recorded it (the PMS does not send it).
    static func unknownFloor(_ note: String?) -> String {
        "Floor not known: " + (note ?? "no floor was synced for these units and no reason was recorded (sync again)")
    }

    /// The properties left out for having no tenant ledger, named under the report (never shown as zeros).
    static func noLedgerNote(_ properties: [String], consequence: String = "not shown as zeros", _ body: inout HTMLWriter) {
        guard !properties.isEmpty else { return }
        body.element("p", [("class", "no-ledger")],
                     text: "No tenant ledger synced (\(consequence)): \(properties.joined(separator: ", "))")
    }

    /// The properties whose ledger is partial (balances and schedule, no postings), named with what that means.
    static func partialLedgerNote(_ properties: [String], consequence: String, _ body: inout HTMLWriter) {
        guard !properties.isEmpty else { return }
        body.element("p", [("class", "no-ledger")],
                     text: "Partial ledger, from the Delinquent and Prepaid and Rent Roll reports, no posted charges or "
                         + "payments (\(consequence)): \(properties.joined(separator: ", "))")
    }

    /// The properties whose ledger nightly windows have brought past its last whole pull, each with that pull's date,
    /// and what follows.
    static func wholeAsOfNote(_ lags: [String: LedgerWholeAsOf], _ body: inout HTMLWriter) {
        guard let note = LedgerWholeAsOf.note(lags) else { return }
        body.element("p", [("class", "meta")], text: note)
    }

    private static func badge(_ letter: String, _ kind: String, _ cell: LeasePaymentStatusReport.Cell?,
                              _ html: inout HTMLWriter) {
        guard let cell else { return }
        let tooltip = "\(kind): billed \(dollars(cell.billedCents)), paid \(dollars(cell.paidCents)), "
            + "due \(cell.dueDate ?? "not recorded"), balance \(dollars(cell.balanceCents))"
        html.element("span", [("class", "badge \(cell.status.rawValue.lowercased())"), ("title", tooltip)],
                     text: "\(letter) \(cell.status.rawValue)")
    }

    /// `$1,234.56`, as the dashboard writes amounts to the cent.
    static func dollars(_ cents: Int64) -> String { DashboardFormat.money(Money(cents: cents), cents: true) }

    // The badge colors are PaymentStatus.badgeColor, shared with the workbook's status fills.
    static let style = """
        body { font: 13px/1.4 system-ui, sans-serif; margin: 24px; color: #1b1b1b; }
        h1 { font-size: 20px; margin: 0 0 4px; } h2 { font-size: 16px; margin: 20px 0 2px; }
        .meta { color: #555; margin: 0 0 8px; } .no-ledger { color: #8a1c1c; }
        table { border-collapse: collapse; width: 100%; }
        th, td { border-bottom: 1px solid #ddd; padding: 3px 6px; text-align: left; vertical-align: top; }
        thead th { background: #f3f3f3; position: sticky; top: 0; }
        tr.floor th { background: #fafafa; font-weight: 600; }
        td.month { white-space: nowrap; }
        .badge { display: inline-block; border-radius: 3px; padding: 0 4px; margin: 1px 2px 1px 0; font-size: 11px;
                 font-weight: 600; border: 1px solid rgba(0,0,0,.25); }
        .badge.paid { background: \(PaymentStatus.paid.badgeColor); } .badge.pending { background: \(PaymentStatus.pending.badgeColor); }
        .badge.partial { background: \(PaymentStatus.partial.badgeColor); } .badge.overdue { background: \(PaymentStatus.overdue.badgeColor); }
        @page { size: landscape; margin: 12mm; }
        @media print { body { margin: 0; font-size: 10px; } thead th { position: static; }
                       section.property { break-before: page; } section.property:first-of-type { break-before: auto; }
                       .badge { -webkit-print-color-adjust: exact; print-color-adjust: exact; } }
        """
}
