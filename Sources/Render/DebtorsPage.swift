import Forecast
import Foundation
import Ledger
import OwnerDashCore

/// The debtors report as one printable, self-contained HTML page (inline CSS, no script, no requests): one block per
/// person, largest total first, with their contact, each unit's debt and the months it covers (a unit the PMS marks
/// under eviction says so), and the portfolio total. Same look as the lease-status page (its stylesheet, plus a few rules of its own). With `risk` (the forecast
/// is shown: `RiskNextMonth.read`), each unit also has its risk of being more than 30 days behind at the next month end.
public enum DebtorsPage {
    /// The page; `generatedAt` is printed in the header as given (`2026-11-22 14:05 UTC`).
    public static func render(_ report: Debtors, propertyNames: [String: String], generatedAt: String,
                              risk: RiskNextMonth? = nil) -> String {
        var page = HTMLWriter()
        page.raw("<!DOCTYPE html>\n")
        page.element("html", [("lang", "en")]) { html in
            html.element("head") { head in
                head.empty("meta", [("charset", "utf-8")])
                head.element("title", text: "Debtors")
                head.element("style") { $0.raw(LeaseStatusPage.style + style) }
            }
            html.newline()
            html.element("body") { body in
                body.element("h1", text: "Debtors")
                let dates = Set(report.asOf.values).sorted()
                body.element("p", [("class", "meta")],
                             text: "As of \(dates.joined(separator: ", ")) · written \(generatedAt) · "
                                 + "\(report.people.count) debtor\(report.people.count == 1 ? "" : "s")")
                body.element("table") { table in
                    table.element("thead") { head in
                        head.element("tr") { row in
                            for title in ["Debtor", "Property", "Unit", "Months owed", "Unit debt"] + (risk == nil ? [] : ["Risk next month"]) + ["Total"] {
                                row.element("th", [("scope", "col")], text: title)
                            }
                        }
                    }
                    for person in report.people {
                        table.newline()
                        table.element("tbody", [("class", "person")]) { group in
                            for (index, unit) in person.units.enumerated() {
                                group.element("tr") { row in
                                    if index == 0 {
                                        let span = String(person.units.count)
                                        row.element("th", [("scope", "rowgroup"), ("rowspan", span)]) { cell in
                                            cell.text(person.name ?? unit.residentID)
                                            let contact = [person.email, person.phone].compactMap { $0 }
                                            if !contact.isEmpty {
                                                cell.element("div", [("class", "contact")], text: contact.joined(separator: " · "))
                                            }
                                        }
                                    }
                                    row.element("td", text: propertyNames[unit.property] ?? unit.property)
                                    row.element("td") { cell in
                                        cell.text(unit.unit)
                                        if unit.underEviction == true {
                                            cell.text(" ")
                                            cell.element("span", [("class", "eviction"), ("title", "the PMS marks the household under eviction")],
                                                         text: "under eviction")
                                        }
                                        if unit.inCollections == true {
                                            cell.text(" ")
                                            cell.element("span", [("class", "collections"),
                                                                  ("title", "the account is placed with a collection agency")],
                                                         text: "in collections")
                                        }
                                    }
                                    row.element("td") { cell in
                                        for month in unit.months {
                                            cell.element("span", [("class", "badge overdue"),
                                                                  ("title", "due \(month.dueDate ?? "not recorded")")],
                                                         text: "\(month.period) \(dollars(month.amountCents))")
                                            cell.text(" ")
                                        }
                                    }
                                    row.element("td", [("class", "money")], text: dollars(unit.balanceCents))
                                    if let risk {
                                        let probability = risk.probability(property: unit.property, residentID: unit.residentID)
                                        row.element("td", [("class", "money risk")],
                                                    text: probability.map { String(format: "%.1f %%", $0 * 100) } ?? "\u{2013}")
                                    }
                                    if index == 0 {
                                        row.element("td", [("class", "money total"), ("rowspan", String(person.units.count))],
                                                    text: dollars(person.totalCents))
                                    }
                                }
                            }
                        }
                    }
                    table.newline()
                    table.element("tfoot") { foot in
                        foot.element("tr") { row in
                            row.element("th", [("scope", "row"), ("colspan", risk == nil ? "5" : "6")], text: "Portfolio total")
                            row.element("td", [("class", "money total")], text: dollars(report.totalCents))
                        }
                    }
                }
                LeaseStatusPage.noLedgerNote(report.noLedger, &body)
                LeaseStatusPage.partialLedgerNote(report.partialLedger, consequence: "months are aging buckets", &body)
                LeaseStatusPage.wholeAsOfNote(report.ledgerWholeAsOf, &body)
                if let risk {
                    body.element("p", [("class", "meta")],
                                 text: "Risk next month: the probability of owing more than 30 days at the next month end (delinquency forecast, model \(risk.modelID), which passed its backtest); \u{2013}: no forecast for the household (not in residence at the last month end, or its property's ledger cannot be scored).")
                }
            }
            html.newline()
        }
        page.newline()
        return page.html
    }

    static func dollars(_ cents: Int64) -> String { LeaseStatusPage.dollars(cents) }

    // Rules the lease-status stylesheet has no need for: person blocks, contact lines, right-aligned money.
    static let style = """

        tbody.person { break-inside: avoid; } tbody.person th { font-weight: 600; }
        .contact { color: #555; font-weight: normal; font-size: 11px; }
        td.money { text-align: right; white-space: nowrap; } td.total, tfoot td { font-weight: 600; }
        tfoot th { text-align: right; }
        .eviction, .collections { font-size: 11px; font-weight: 600; color: #8b1a1a; white-space: nowrap; }
        """
}
