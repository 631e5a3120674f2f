import Foundation
@testable import Ledger
@testable import Notices
import Testing

/// Notice templates: placeholders, the repeated months block, and the one-line errors for a bad template.
@Suite struct NoticeTemplateTests {
    static let person = Debtors.Person(
        key: "email:ann@example.com", name: "Lee, Ann", email: "ann@example.com", phone: "555-010-1234",
        units: [Debtors.UnitDebt(property: "yq", unit: "7A", residentID: "u1", name: "Lee, Ann", status: "current",
                                 balanceCents: 150_000,
                                 months: [.init(period: "2026-10", dueDate: "2026-10-01", amountCents: 50_000),
                                          .init(period: "2026-11", dueDate: "2026-11-01", amountCents: 100_000)]),
                Debtors.UnitDebt(property: "yp", unit: "101", residentID: "t1", name: "Lee, Ann", status: "current",
                                 balanceCents: 4_050,
                                 months: [.init(period: "2026-11", dueDate: "2026-11-05", amountCents: 4_050)])],
        totalCents: 154_050)
    static let debtors = Debtors(people: [person], noLedger: [], asOf: ["yp": "2026-11-20", "yq": "2026-11-20"])

    @Test func placeholdersAndTheMonthsBlock() throws {
        let template = try NoticeTemplate(text: """
            Dear {{name}} ({{contact}}), you owe {{ total }} at {{property}} since {{due_date}}:
            {{#months}}- {{period}} {{unit}} {{amount}} due {{due_date}}
            {{/months}}{{month_count}} months, as of {{as_of}}.
            """, source: "t.txt")
        let notices = NoticeBatch.notices(for: Self.debtors, template: template,
                                          propertyNames: ["yq": "Yardi Quarter", "yp": "Yardi Place"])
        #expect(notices.count == 1)
        #expect(notices[0].text == """
            Dear Lee, Ann (ann@example.com · 555-010-1234), you owe $1540.50 at Yardi Quarter, Yardi Place since 2026-10-01:
            - 2026-10 7A $500.00 due 2026-10-01
            - 2026-11 101 $40.50 due 2026-11-05
            - 2026-11 7A $1000.00 due 2026-11-01
            2 months, as of 2026-11-20.
            """)
        #expect(notices[0].fileName.hasPrefix("lee-ann-") && notices[0].fileName.hasSuffix(".txt"))
        #expect(notices[0].contentHash.count == 64)
    }

    @Test func theBuiltInTemplateNamesEveryMonthAndTheTotal() throws {
        let template = try NoticeTemplate(text: NoticeTemplate.builtIn, source: "built-in template")
        let text = NoticeBatch.notices(for: Self.debtors, template: template, propertyNames: [:])[0].text
        #expect(text.contains("To: Lee, Ann"))
        #expect(text.contains("Total due: $1540.50"))
        #expect(text.contains("2026-10  unit 7A  $500.00  (due 2026-10-01)"))
        #expect(!text.contains("{{"))
    }

    @Test func badTemplatesAreOneLineNamingThePlaceholderAndTheFile() throws {
        func error(_ text: String) -> String {
            do {
                _ = try NoticeTemplate(text: text, source: "/tmp/notice.txt")
                return "no error"
            } catch {
                return "\(error)"
            }
        }
        #expect(error("Dear {{nmae}}").hasPrefix("/tmp/notice.txt: unknown placeholder {{nmae}} (known: "))
        #expect(error("{{period}} outside the block").hasPrefix("/tmp/notice.txt: unknown placeholder {{period}}"))
        #expect(error("{{#months}} {{amount}}") == "/tmp/notice.txt: {{#months}} is never closed with {{/months}}")
        #expect(error("{{/months}}") == "/tmp/notice.txt: {{/months}} without an opening {{#months}}")
        #expect(error("Dear {{name") == "/tmp/notice.txt: a \"{{\" is never closed with \"}}\"")
        #expect(!error("Dear {{nmae}}").contains("\n"))
    }
}
