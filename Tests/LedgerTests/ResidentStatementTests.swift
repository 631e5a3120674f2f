import OwnerDashCore
import SQLiteKit
import Testing
@testable import Ledger

/// The resident statement and the tenant history over the hand-built ledger of `LedgerFixture`.
@Suite struct ResidentStatementTests {
    @Test func theStatementRunsTheBalanceInDateOrderChargesBeforePaymentsOnTheSameDay() throws {
        let fixture = try LedgerFixture()
        let households = try ResidentStatement.households(database: fixture.database, residentID: "t1", properties: ["yp", "rp"])
        #expect(households.map(\.property) == ["yp"])
        let household = try #require(households.first)
        #expect(household.unit == "101" && household.name == "Lee, Ann" && household.status == "current")

        let statement = try ResidentStatement.run(database: fixture.database, household: household, asOf: nil, from: nil)
        #expect(statement.asOf == "2026-11-20" && statement.openingBalanceCents == 0)
        #expect(statement.lines.map(\.date) == ["2026-10-01", "2026-10-01", "2026-10-03", "2026-11-01", "2026-11-05"])
        #expect(statement.lines.map(\.kind) == [.charge, .charge, .payment, .charge, .payment])
        #expect(statement.lines.map(\.balanceCents) == [140_000, 144_000, 4_000, 144_000, 94_000])
        #expect(statement.lines[2].detail == "CHK 1001" && statement.lines[2].code == "Check")
        // The closing balance is what the rental tracker calls the balance: charges less payments.
        #expect(statement.closingBalanceCents == 94_000)

        let november = try ResidentStatement.run(database: fixture.database, household: household, asOf: nil, from: "2026-11")
        #expect(november.openingBalanceCents == 4_000 && november.lines.count == 2 && november.closingBalanceCents == 94_000)
        let october = try ResidentStatement.run(database: fixture.database, household: household,
                                                asOf: LocalDate(iso: "2026-10-31"), from: nil)
        #expect(october.lines.count == 3 && october.closingBalanceCents == 4_000)

        let result = statement.result(parameters: [])
        #expect(result.tables.map(\.name) == ["household", "lines"])
        #expect(result.tables[1].rows.count == 6, "the opening balance line, then the five postings")
        #expect(result.tables[1].total?[7] == .real(940))
        #expect(try ResidentStatement.households(database: fixture.database, residentID: "nobody", properties: ["yp"]).isEmpty)

        // A co-resident's id (RealPage lists each member as a resident) names its household: the household's
        // statement, saying so, where it was a statement of no line and a balance of 0.00.
        try fixture.database.execute("""
            INSERT INTO unified_residents (unified_property_id, resident_id, unit_number, name, status)
            VALUES ('yp', 't1-m2', '101', 'Lee, Bo', 'current');
            INSERT INTO unified_leases (unified_property_id, lease_id, unit_number, resident_id, start_date, status, is_renewal)
            VALUES ('yp', 'L1', '101', 't1', '2026-10-01', 'current', 0);
            INSERT INTO unified_lease_residents (unified_property_id, lease_id, resident_id, role)
            VALUES ('yp', 'L1', 't1', 'head'), ('yp', 'L1', 't1-m2', 'co_resident');
            """)
        let member = try #require(try ResidentStatement.households(database: fixture.database, residentID: "t1-m2",
                                                                   properties: ["yp", "rp"]).first)
        #expect(member.residentID == "t1" && member.name == "Lee, Ann")
        #expect(member.askedMember == ResidentStatement.Member(id: "t1-m2", name: "Lee, Bo", role: "co_resident"))
        let shared = try ResidentStatement.run(database: fixture.database, household: member, asOf: nil, from: nil)
        #expect(shared.closingBalanceCents == 94_000 && shared.lines.count == 5)
        #expect(shared.result(parameters: []).warnings == [
            "t1-m2 (Lee, Bo) is a co_resident of household t1 (Lee, Ann): this is the household's statement, whose "
                + "charges and payments are under its id",
        ])

        // A ledger the nightly windows brought past its last whole pull: the statement names that pull's date.
        try fixture.database.execute("UPDATE unified_properties SET ledger_whole_as_of = '2026-11-16' WHERE unified_property_id = 'yp'")
        let windowed = try ResidentStatement.run(database: fixture.database, household: household, asOf: nil, from: nil)
        let lag = try #require(windowed.result(parameters: []).tables.first { $0.name == "ledger_whole_as_of" })
        #expect(lag.rows == [[.text("yp"), .text("2026-11-20"), .text("2026-11-16")]])
    }

    @Test func tenantHistoryListsEveryHouseholdOfTheUnitWithItsLeasesAndBalance() throws {
        let fixture = try LedgerFixture()
        try fixture.database.execute("""
            UPDATE unified_residents SET move_in_date = '2025-02-01', move_out_date = '2026-10-31' WHERE resident_id = 't3';
            UPDATE unified_residents SET move_in_date = '2026-11-01' WHERE resident_id = 't1';
            INSERT INTO unified_leases (unified_property_id, lease_id, unit_number, resident_id, start_date, end_date,
                                        rent_amount, status, is_renewal)
            VALUES ('yp', 'L0', '101', 't3', '2025-02-01', '2026-01-31', 1250, 'past', 0),
                   ('yp', 'L0b', '101', 't3', '2026-02-01', '2027-01-31', 1300, 'past', 1),
                   ('yp', 'L1', '101', 't1', '2026-11-01', '2027-10-31', 1400, 'current', 0);
            """)
        let history = try #require(try TenantHistory.run(database: fixture.database, property: "yp", unit: "101"))
        #expect(history.tenants.map(\.residentID) == ["t3", "t1"], "oldest move-in first")
        #expect(history.tenants.map(\.balanceCents) == [130_000, 94_000])
        #expect(history.tenants[0].leases.map(\.leaseID) == ["L0", "L0b"] && history.tenants[0].leases[1].isRenewal == true)
        // The months its ledger posted charges on each lease (t3's one charge, on L0, in October).
        #expect(history.tenants[0].leases.map(\.firstPosted) == ["2026-10", nil] && history.tenants[0].leases.allSatisfy(\.listedByPMS))
        #expect(history.tenants[0].moveOut == "2026-10-31" && history.tenants[1].leases.first?.rentCents == 140_000)
        #expect(try TenantHistory.run(database: fixture.database, property: "yp", unit: "999") == nil)
        let result = history.result(parameters: [])
        #expect(result.tables.map { $0.rows.count } == [2, 3])
        #expect(result.warnings.isEmpty, "each household's first lease listed is its first lease")

        // A co-resident (RealPage lists every member of a household as a resident): one of t1's members, not a
        // household of the unit with no lease and a balance of 0.00.
        try fixture.database.execute("""
            INSERT INTO unified_residents (unified_property_id, resident_id, unit_number, name, status, move_in_date)
            VALUES ('yp', 't1-m2', '101', 'Lee, Bo', 'current', '2026-11-01');
            INSERT INTO unified_lease_residents (unified_property_id, lease_id, resident_id, role)
            VALUES ('yp', 'L1', 't1', 'head'), ('yp', 'L1', 't1-m2', 'co_resident');
            """)
        let withMember = try #require(try TenantHistory.run(database: fixture.database, property: "yp", unit: "101"))
        #expect(withMember.tenants.map(\.residentID) == ["t3", "t1"])
        #expect(withMember.tenants.map(\.members) == [[], ["Lee, Bo (co_resident)"]])
        #expect(withMember.result(parameters: []).tables[0].rows[1][2] == .text("Lee, Bo (co_resident)"))

        // A household whose earliest lease the PMS lists is a renewal (Yardi sends one lease per household): named,
        // not shown as a household of one lease without a word; the earlier lease its ledger's charges name is listed,
        // with the months posted on it.
        try fixture.database.execute("""
            DELETE FROM unified_leases WHERE lease_id = 'L0';
            UPDATE unified_charges SET period = '2026-01', charge_date = '2026-01-01', due_date = '2026-01-01' WHERE charge_id = 'c6';
            """)
        let renewed = try #require(try TenantHistory.run(database: fixture.database, property: "yp", unit: "101"))
        #expect(renewed.pms == "yardi")
        let t3 = try #require(renewed.tenants.first)
        #expect(t3.leases.map(\.leaseID) == ["L0", "L0b"] && t3.leases.map(\.listedByPMS) == [false, true])
        #expect(t3.leases[0].firstPosted == "2026-01" && t3.leases[0].start == nil && t3.leases[0].status == nil)
        let ledgerRow = try #require(renewed.result(parameters: []).tables[1].rows.first)
        #expect(ledgerRow[7] == .text("2026-01") && ledgerRow[9] == .text("ledger") && ledgerRow[6] == .null)
        #expect(renewed.result(parameters: []).warnings == [
            "t3: its earliest lease the PMS lists, L0b from 2026-02-01, is a renewal; of the leases before it, the "
                + "ledger's charges name L0 (the months posted, no dates or rent): Yardi sends one lease per household "
                + "(GetResidentsByStatus: the current one, or the last)",
        ])
        // Without a charge on it, the earlier lease is not known at all.
        try fixture.database.execute("DELETE FROM unified_charges WHERE charge_id = 'c6'")
        let unknown = try #require(try TenantHistory.run(database: fixture.database, property: "yp", unit: "101"))
        #expect(unknown.result(parameters: []).warnings == [
            "t3: its earliest lease the PMS lists, L0b from 2026-02-01, is a renewal; the leases before it are not "
                + "listed: Yardi sends one lease per household (GetResidentsByStatus: the current one, or the last)",
        ])
    }
}
