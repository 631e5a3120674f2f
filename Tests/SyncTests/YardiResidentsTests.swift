import Foundation
import OwnerDashCore
import SQLiteKit
@testable import Sync
import Testing

/// unified_residents, unified_leases and unified_lease_residents from GetResidentsByStatus.
@Suite struct YardiResidentsTests {
    @Test func residentStatusesMapAndDeniedApplicantsAreNotResidents() throws {
        let yardi = try YardiFixture()
        try yardi.loadedEverything()
        let statuses = [("t1", "Current"), ("t2", "Notice"), ("t3", "Eviction"), ("t4", "Future"), ("t5", "Past"),
                        ("t6", "Former"), ("t7", "Applicant"), ("t8", "approved"), ("t9", "Waitlist"),
                        ("t10", "Denied"), ("t11", "Canceled")]
        for (tenant, status) in statuses { try yardi.resident(tenant, status, unit: "101") }
        #expect(yardi.sync().first?.error == nil)
        let residents = try yardi.keyed("SELECT resident_id, status, pms_status FROM unified_residents")
        let expected = ["t1": "current", "t2": "notice", "t3": "current", "t4": "future", "t5": "former",
                        "t6": "former", "t7": "applicant", "t8": "applicant", "t9": "applicant"]
        #expect(residents.mapValues { $0[0].textValue ?? "" } == expected)
        #expect(residents["t3"]?[1].textValue == "Eviction")
    }

    @Test func unknownResidentStatusFailsTheProperty() throws {
        let yardi = try YardiFixture()
        try yardi.loadedEverything()
        try yardi.unit("101", "Occupied No Notice", tenant: "t1")
        try yardi.resident("t1", "Current", unit: "101")
        try yardi.resident("t2", "Skipped", unit: "102")
        let error = try #require(yardi.sync().first?.error)
        #expect(error.contains("t2 'Skipped'"))
        #expect(try yardi.rows("SELECT count(*) FROM unified_units").first?.first?.integerValue == 0)
    }

    @Test func residentFieldsAndLedgerBalance() throws {
        let yardi = try YardiFixture()
        try yardi.loadedEverything()
        try yardi.resident("t1", "Notice", unit: "101", rent: 1525.5, leaseID: "L1", leaseFrom: "2026-01-01",
                           leaseTo: "2026-12-31", moveIn: "2025-01-01", moveOut: "2026-12-31", notice: "2026-11-02",
                           first: "Omar", last: "O'Brien")
        try yardi.resident("t2", "Future", unit: "102", leaseID: "L2", moveIn: "2026-12-05")
        try yardi.resident("t3", "Current", unit: "103", leaseID: "L3", moveIn: "2025-06-01")
        try yardi.charge("t1", "2026-11-01", 1525.5, unit: "101")
        try yardi.payment("t1", "2026-11-03", 1000)
        try yardi.charge("t3", "2026-11-01", 900, paid: 900, unit: "103")
        try yardi.payment("t3", "2026-11-02", 900)
        #expect(yardi.sync().first?.error == nil)
        let t1 = try yardi.keyed("""
            SELECT resident_id, unit_number, lease_id, name, first_name, last_name, move_in_date, notice_date,
                   move_out_date, current_rent, balance
            FROM unified_residents
            """)
        #expect(t1["t1"] == [.text("101"), .text("L1"), .text("O'Brien, Omar"), .text("Omar"), .text("O'Brien"),
                             .text("2025-01-01"), .text("2026-11-02"), .text("2026-12-31"), .real(1525.5), .real(525.5)])
        #expect(t1["t2"]?.last == .null, "no ledger rows: balance unknown")
        #expect(t1["t3"]?.last == .real(0), "a ledger that nets to zero")
    }

    @Test func leasesRenewalsMonthToMonthAndRoommates() throws {
        let yardi = try YardiFixture()
        try yardi.loadedEverything()
        // A roommate on the same lease, listed first: the head still gives the lease's resident.
        try yardi.resident("t1r", "Current", unit: "101", rent: 1400, leaseID: "L1", leaseFrom: "2026-03-01",
                           leaseTo: "2027-02-28", moveIn: "2026-03-01", roommate: true)
        // Its head: a first lease (starts on the move-in day), current. (starts on the move-in day), current.
        try yardi.resident("t1", "Current", unit: "101", rent: 1400, leaseID: "L1", leaseFrom: "2026-03-01",
                           leaseTo: "2027-02-28", moveIn: "2026-03-01")
        // Renewal (starts after move-in) whose term ended: month to month.
        try yardi.resident("t2", "Current", unit: "102", rent: 1500, leaseID: "L2", leaseFrom: "2025-09-01",
                           leaseTo: "2026-08-31", moveIn: "2023-09-01")
        // Notice on a renewal still in term.
        try yardi.resident("t3", "Notice", unit: "103", leaseID: "L3", leaseFrom: "2026-05-01", leaseTo: "2027-04-30",
                           moveIn: "2024-05-01", moveOut: "2026-12-31")
        try yardi.resident("t4", "Future", unit: "104", leaseID: "L4", leaseFrom: "2026-12-05", leaseTo: "2027-12-04",
                           moveIn: "2026-12-05")
        try yardi.resident("t5", "Past", unit: "105", leaseID: "L5", leaseFrom: "2024-01-01", leaseTo: "2024-12-31",
                           moveIn: "2023-01-01", moveOut: "2024-12-31")
        try yardi.resident("t6", "Applicant", unit: "106")  // no lease id: no lease
        #expect(yardi.sync().first?.error == nil)

        let leases = try yardi.keyed("""
            SELECT lease_id, resident_id, unit_number, start_date, end_date, rent_amount, status, is_renewal, is_month_to_month
            FROM unified_leases
            """)
        #expect(leases.keys.sorted() == ["L1", "L2", "L3", "L4", "L5"])
        func facts(_ lease: String) -> [String] { leases[lease].map { [$0[0], $0[5], $0[6], $0[7]].map { $0.textValue ?? "" } } ?? [] }
        #expect(facts("L1") == ["t1", "current", "0", "0"])
        #expect(facts("L2") == ["t2", "current", "1", "1"])
        #expect(facts("L3") == ["t3", "current", "1", "0"])
        #expect(facts("L4") == ["t4", "future", "0", "0"])
        #expect(facts("L5") == ["t5", "past", "1", "0"])
        #expect(leases["L2"]?[2...4] == [.text("2025-09-01"), .text("2026-08-31"), .real(1500)])

        let roles = try yardi.keyed("SELECT resident_id, lease_id, role FROM unified_lease_residents")
        #expect(roles["t1"] == [.text("L1"), .text("head")])
        #expect(roles["t1r"] == [.text("L1"), .text("co_resident")])
        #expect(roles.count == 6)
    }
}
