import Foundation
@testable import Ledger
import Metrics
import OwnerDashCore
import Testing

/// The debtors report over the hand-built ledger of `LedgerFixture`, plus a second Yardi property where two of its
/// people rent a second unit: Ann Lee (same name in another order and the same phone, no e-mail) and Ken Ito (the
/// same e-mail in another case).
@Suite struct DebtorsTests {
    static func fixture() throws -> LedgerFixture {
        let fixture = try LedgerFixture()
        try fixture.database.execute("""
            UPDATE unified_residents SET phone = '555-010-1234' WHERE resident_id = 't1';
            UPDATE unified_residents SET email = ' KEN@Example.com' WHERE resident_id = 't2';
            INSERT INTO unified_properties (unified_property_id, name, pms_source, as_of_date, ledger_source)
            VALUES ('yq', 'Yardi Quarter', 'yardi', '2026-11-20', 'yardi: test');
            INSERT INTO unified_residents (unified_property_id, resident_id, unit_number, name, email, phone, status)
            VALUES ('yq', 'u1', '7A', 'Ann Lee', NULL, '(555) 010-1234', 'current'),
                   ('yq', 'u2', '7B', 'Ito, Kenji', 'ken@example.com', NULL, 'current'),
                   ('yq', 'u3', '7C', 'Paid, Up', NULL, NULL, 'current');
            INSERT INTO unified_charges (unified_property_id, charge_id, resident_id, lease_id, unit_number, charge_code,
                category, category_known, period, charge_date, due_date, amount, amount_paid, balance)
            VALUES ('yq', 'd1', 'u1', 'M1', '7A', 'rent', 'RENT', 1, '2026-11', '2026-11-01', '2026-11-01', 1000, 0, 1000),
                   ('yq', 'd2', 'u2', 'M2', '7B', 'rent', 'RENT', 1, '2026-10', '2026-10-01', '2026-10-01', 700, 200, 500),
                   ('yq', 'd3', 'u2', 'M2', '7B', 'rent', 'RENT', 1, '2026-11', '2026-11-01', '2026-11-03', 700, 0, 700),
                   ('yq', 'd4', 'u3', 'M3', '7C', 'rent', 'RENT', 1, '2026-11', '2026-11-01', '2026-11-01', 800, 800, 0);
            INSERT INTO unified_payments (unified_property_id, payment_id, resident_id, lease_id, unit_number, payment_date,
                period, amount, reference, payment_type)
            VALUES ('yq', 'q1', 'u2', 'M2', '7B', '2026-10-04', '2026-10', 200, 'CHK 5', 'Check'),
                   ('yq', 'q2', 'u3', 'M3', '7C', '2026-11-02', '2026-11', 800, 'ACH 9', 'Other');
            """)
        return fixture
    }

    @Test func peopleAreGroupedAcrossTheirUnitsAndSortedByTotal() throws {
        let fixture = try Self.fixture()
        let report = try Debtors.run(database: fixture.database, properties: ["rp", "yp", "yq"], asOf: nil, minDebt: nil)
        #expect(report.noLedger == ["rp"], "the property without a ledger is named, not shown as zeros")
        // Ann: 940 on 101 + 1000 on 7A; Old Tenant: 1300; Ken: 50 parking on 201 (his rent is posted 11-25, after
        // the property date) + 1200 on 7B. Paid Up owes nothing and is not listed.
        #expect(report.people.map(\.name) == ["Lee, Ann", "Old, Tenant", "Ito, Ken"])
        #expect(report.people.map(\.totalCents) == [194_000, 130_000, 125_000])
        #expect(report.totalCents == 449_000)
        let ann = report.people[0]
        #expect(ann.key == "name-phone:ann lee|5550101234")
        #expect(ann.units.map(\.unit) == ["7A", "101"], "largest unit debt first")
        #expect(ann.properties == ["yq", "yp"])
        #expect(ann.units[1].months == [Debtors.MonthDebt(period: "2026-11", dueDate: "2026-11-01", amountCents: 94_000)],
                "payments settle the oldest charges first: what is owed is November's")
        let ken = report.people[2]
        #expect(ken.key == "email:ken@example.com")
        #expect(ken.units.map(\.residentID) == ["u2", "t2"])
        #expect(ken.units[0].months.map(\.period) == ["2026-10", "2026-11"])
        #expect(ken.units[0].months.map(\.amountCents) == [50_000, 70_000], "the month shares add up to the unit's debt")
        #expect(report.people[1].key == "resident:yp/t3", "no e-mail, no phone: the household alone")
    }

    /// A household the ledger alone knows (RealPage's Transaction Detail by Code without a roster: key `unit/name`, no
    /// unified_residents row, as on the real Nexus East files) is named from its key in the debtors report, the rental
    /// tracker, the statement and the unit's tenant history, not left blank.
    @Test func aHouseholdTheLedgerAloneKnowsIsNamedFromItsKey() throws {
        let fixture = try Self.fixture()
        try fixture.database.execute("""
            INSERT INTO unified_charges (unified_property_id, charge_id, resident_id, lease_id, unit_number, charge_code,
                category, category_known, period, charge_date, due_date, amount, amount_paid, balance)
            VALUES ('yp', 'n1', '1121/Bryant Small', NULL, '1121', 'RENT', 'RENT', 1, '2026-10', '2026-10-01', '2026-10-01',
                    3246, 0, 3246),
                   ('yp', 'n2', 'B/7/Ana Ruiz', NULL, 'B/7', 'RENT', 'RENT', 1, '2026-10', '2026-10-01', '2026-10-01', 10, 0, 10)
            """)
        let report = try Debtors.run(database: fixture.database, properties: ["yp"], asOf: nil, minDebt: nil)
        #expect(report.people.first { $0.units.contains { $0.residentID == "1121/Bryant Small" } }?.name == "Bryant Small")
        #expect(report.people.first { $0.units.contains { $0.residentID == "t1" } }?.name == "Lee, Ann", "a resident row's own name")
        #expect(report.people.first { $0.units.contains { $0.residentID == "B/7/Ana Ruiz" } }?.name == "Ana Ruiz",
                "a unit printed with its building keeps its slash; the name follows the last one")
        let tracker = try RentalTracker.run(database: fixture.database, properties: ["yp"], asOf: nil, minBalance: nil,
                                            minMonthsBehind: 1, sort: .balance)
        #expect(tracker.residents.first { $0.residentID == "1121/Bryant Small" }?.name == "Bryant Small")
        let households = try ResidentStatement.households(database: fixture.database, residentID: "1121/Bryant Small",
                                                          properties: ["yp"])
        #expect(households.map(\.name) == ["Bryant Small"])
        let history = try #require(try TenantHistory.run(database: fixture.database, property: "yp", unit: "1121"))
        #expect(history.tenants.map(\.name) == ["Bryant Small"])
    }

    @Test func asOfCountsOnlyWhatWasPostedByThenAndMinDebtFiltersOnTheTotal() throws {
        let fixture = try Self.fixture()
        let later = try Debtors.run(database: fixture.database, properties: ["yp", "yq"], asOf: LocalDate(iso: "2026-11-30"),
                                    minDebt: nil)
        #expect(later.people.first?.name == "Ito, Ken", "after 11-25 his November rent on 201 is posted too")
        #expect(later.people.first?.totalCents == 315_000)
        let early = try Debtors.run(database: fixture.database, properties: ["yp", "yq"], asOf: LocalDate(iso: "2026-10-02"),
                                    minDebt: nil)
        // On 10-02: t1 owes October's water (rent paid 10-03 is not yet in), t3 October's rent, u2 October's rent.
        #expect(early.people.map(\.totalCents) == [144_000, 130_000, 70_000])
        let big = try Debtors.run(database: fixture.database, properties: ["yp", "yq"], asOf: nil, minDebt: 1300)
        #expect(big.people.map(\.name) == ["Lee, Ann", "Old, Tenant"], "a total of $1,300 or more")
        let none = try Debtors.run(database: fixture.database, properties: ["yp", "yq"], asOf: nil, minDebt: 10_000)
        #expect(none.people.isEmpty && none.totalCents == 0)
    }

    @Test func theResultTablesCarryThePeopleTheirUnitsAndMonths() throws {
        let fixture = try Self.fixture()
        let report = try Debtors.run(database: fixture.database, properties: ["rp", "yp", "yq"], asOf: nil, minDebt: nil)
        let result = report.result(parameters: [])
        #expect(result.tables.map(\.name) == ["rows", "units", "months"])
        #expect(result.tables[0].total?.last == .real(4490))
        #expect(result.tables[1].rows.count == 5)
        #expect(result.warnings == ["rp: no tenant ledger synced for this property (left out, not shown as zeros)"])
    }

    /// A ledger the nightly windows have brought past its last whole pull misses a posting dated back before them (a
    /// credit to an old month lowers a debt) until the next one: the debts' answer names the property and that pull's
    /// date, as the ledger reports do; none once the ledger was pulled whole (NULL).
    @Test func aLedgerBroughtForwardByWindowsIsNamedWithItsLastWholePull() throws {
        let fixture = try Self.fixture()
        try fixture.database.execute("UPDATE unified_properties SET ledger_whole_as_of = '2026-11-16' WHERE unified_property_id = 'yp'")
        let report = try Debtors.run(database: fixture.database, properties: ["rp", "yp", "yq"], asOf: nil, minDebt: nil)
        #expect(report.ledgerWholeAsOf == ["yp": LedgerWholeAsOf(asOf: "2026-11-20", wholeAsOf: "2026-11-16")])
        let table = try #require(report.result(parameters: []).tables.first { $0.name == "ledger_whole_as_of" })
        #expect(table.rows == [[.text("yp"), .text("2026-11-20"), .text("2026-11-16")]])
        try fixture.database.execute("UPDATE unified_properties SET ledger_whole_as_of = NULL")
        let whole = try Debtors.run(database: fixture.database, properties: ["rp", "yp", "yq"], asOf: nil, minDebt: nil)
        #expect(whole.result(parameters: []).tables.map(\.name) == ["rows", "units", "months"])
    }

    @Test func theIdentityRule() {
        func key(_ email: String?, _ name: String?, _ phone: String?, _ resident: String) -> String {
            Debtors.personKey(email: email, name: name, phone: phone, property: "p", resident: resident)
        }
        #expect(key("a@x.com", "Lee, Ann", nil, "r1") == key("A@X.COM ", "Someone Else", nil, "r2"), "the e-mail decides")
        #expect(key(nil, "Lee, Ann", "+1 (555) 010-1234", "r1") == key(nil, "ann  LEE", "5550101234", "r2"),
                "name words in any order and case, the phone's last 10 digits")
        #expect(key(nil, "Lee, Ann", "555-010-1234", "r1") != key(nil, "Lee, Anne", "555-010-1234", "r2"))
        #expect(key(nil, "Lee, Ann", nil, "r1") != key(nil, "Lee, Ann", nil, "r2"), "a name alone is not a person")
        #expect(key(nil, "Lee, Ann", "555-010-1234", "r1") != key(nil, "Lee, Ann", "555-010-9999", "r2"))
    }
}
