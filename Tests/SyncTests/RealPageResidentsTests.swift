import Foundation
import OwnerDashCore
import SQLiteKit
@testable import Sync
import Testing

/// unified_residents, unified_leases and unified_lease_residents from RPX getresidentlistinfo and getleaseinfo.
@Suite struct RealPageResidentsTests {
    @Test func everyLeaseStatusMapsToOneResidentStatus() throws {
        let realpage = try RealPageFixture()
        try realpage.loadedEverything()
        try realpage.resident(household: "h1", unit: "101", status: "Current", lease: "L1")
        try realpage.resident(household: "h2", unit: "102", status: "Current", lease: "L2", type: "Notice given - move out")
        try realpage.resident(household: "h3", unit: "103", status: "Current", lease: "L3", noticeFor: "2026-12-31")
        try realpage.resident(household: "h4", unit: "104", status: "Future Lease", lease: "L4")
        try realpage.resident(household: "h5", unit: "105", status: "Applicant - Lease Signed", lease: "L5")
        try realpage.resident(household: "h6", unit: "106", status: " applicant ", lease: "L6")
        try realpage.resident(household: "h7", unit: "107", status: "Former", lease: "L7", type: "Moved Out")
        try realpage.resident(household: "h8", unit: "108", status: "Former Applicant", lease: "L8")
        #expect(realpage.sync().first?.error == nil)

        let residents = try realpage.keyed("SELECT resident_id, status, pms_status FROM unified_residents")
        let expected = ["h1": "current", "h2": "notice", "h3": "notice", "h4": "current", "h5": "future",
                        "h6": "applicant", "h7": "former"]
        #expect(residents.keys.sorted() == expected.keys.sorted(), "a Former Applicant is not a resident")
        for (id, status) in expected { #expect(residents[id]?[0].textValue == status, "\(id)") }
        #expect(residents["h6"]?[1] == .text(" applicant "), "pms_status keeps RPX's text")
    }

    @Test func anUnknownLeaseStatusFailsThePropertyNamingTheResidents() throws {
        let realpage = try RealPageFixture()
        try realpage.loadedEverything()
        try realpage.resident(household: "h1", unit: "101", status: "Current")
        try realpage.resident(household: "h2", unit: "102", status: "Eviction")
        let error = try #require(realpage.sync().first?.error)
        #expect(error.contains("h2/mh2 'Eviction'"))
        #expect(error.contains("RealPageResidents.residentStatuses"))
        #expect(try realpage.rows("SELECT * FROM unified_residents").isEmpty)
    }

    @Test func membersHaveTheirOwnIdsAndTheHeadCarriesTheHouseholdBalanceAndLeaseRent() throws {
        let realpage = try RealPageFixture()
        try realpage.loadedEverything()
        try realpage.unit("101", .occupied)
        try realpage.resident(household: "25200001", member: "25600001", unit: "101", status: "Current", lease: "L1",
                              first: "Laura", last: "Ramirez", balance: 6117.81, moveIn: "2025-05-06")
        try realpage.resident(household: "25200001", member: "25600002", unit: "101", status: "Current", lease: "L1",
                              head: false, first: "Ethan", last: "Walker", moveIn: "2025-05-06")
        // A member listed twice (once per lease row): the most current status wins.
        try realpage.resident(household: "25200001", member: "25600002", unit: "101", status: "Former", lease: "L0",
                              head: false, first: "Ethan", last: "Walker")
        // A household without an hohbit member: its first member listed is its head.
        try realpage.resident(household: "25200009", member: "25600009", unit: "102", status: "Former", head: false,
                              relationship: "Spouse", first: "Mia", last: "Ito", balance: 90)
        try realpage.lease("L1", household: "25200001", unit: "101", rent: 2515)
        #expect(realpage.sync().first?.error == nil)

        let residents = try realpage.keyed("""
            SELECT resident_id, name, unit_number, lease_id, status, current_rent, balance FROM unified_residents
            """)
        #expect(residents["25200001"] == [.text("Ramirez, Laura"), .text("101"), .text("L1"), .text("current"),
                                          .real(2515), .real(6117.81)])
        #expect(residents["25200001-25600002"] == [.text("Walker, Ethan"), .text("101"), .text("L1"), .text("current"),
                                                   .real(2515), .null])
        #expect(residents["25200009"]?[5] == .real(90))
        #expect(residents.count == 3)
    }

    /// Each member keeps the e-mail and phone RPX sent for it (OneSite fills the head's), so debtors can join a person's
    /// units; the Rent Roll fallback has none.
    @Test func membersCarryTheirEmailAndPhone() throws {
        let realpage = try RealPageFixture()
        try realpage.loadedEverything()
        try realpage.unit("101", .occupied)
        try realpage.resident(household: "25200001", member: "25600001", unit: "101", status: "Current", lease: "L1",
                              first: "Laura", last: "Ramirez", email: "Laura.Ramirez7@example.com", phone: "(313) 555-2434")
        try realpage.resident(household: "25200001", member: "25600002", unit: "101", status: "Current", lease: "L1",
                              head: false, first: "Ethan", last: "Walker")
        #expect(realpage.sync().first?.error == nil)

        let residents = try realpage.keyed("SELECT resident_id, email, phone FROM unified_residents")
        #expect(residents["25200001"] == [.text("Laura.Ramirez7@example.com"), .text("(313) 555-2434")])
        #expect(residents["25200001-25600002"] == [.null, .null])
    }

    @Test func leasesComeFromGetLeaseInfoAndTheResidentListFillsTheOldHouseholds() throws {
        let realpage = try RealPageFixture()
        try realpage.loadedEverything()
        try realpage.unit("101", .occupied)
        try realpage.resident(household: "h1", unit: "101", status: "Current", lease: "L1c", type: "Renewal",
                              moveIn: "2024-05-06")
        try realpage.resident(household: "h1", member: "h1-co", unit: "101", status: "Current", lease: "L1c",
                              head: false, relationship: "Co-Head")
        try realpage.resident(household: "h1", member: "h1-kid", unit: "101", status: "Current", lease: "L1c",
                              head: false, relationship: "Minor child")
        try realpage.resident(household: "h1", member: "h1-g", unit: "101", status: "Current", lease: "L1c",
                              head: false, relationship: "Guarantor")
        try realpage.lease("L1a", household: "h1", unit: "101", status: "Current - Past", signed: "2024-04-20",
                           begin: "2024-05-06", end: "2025-05-05", moveIn: "2024-05-06", rent: 2360, deposit: 500)
        try realpage.lease("L1b", household: "h1", unit: "101", status: "Current", type: "Renewal", prior: "L1a",
                           signed: "2025-03-26", begin: "2025-05-06", end: "2026-05-05", rent: 2480,
                           monthToMonth: "2026-05-06")
        try realpage.lease("L1c", household: "h1", unit: "101", status: "Current - Future", type: "Renewal", prior: "L1b",
                           signed: "2026-10-13", begin: "2026-12-06", end: "2027-12-05", rent: 2515)
        try realpage.lease("L2", household: "h2", unit: "102", status: "Applicant", signed: "2026-11-10",
                           begin: "2026-12-01", end: "2027-11-30", rent: 1800)
        try realpage.lease("L3", household: "h3", unit: "103", status: "Former", type: "Notice given - move out",
                           begin: "2025-01-01", end: "2025-12-31", rent: 1700)
        // Gone more than a year: only getresidentlistinfo has its last lease (a renewal: it began after move-in).
        try realpage.resident(household: "h4", unit: "104", status: "Former", lease: "L4", type: "Moved Out",
                              moveIn: "2022-03-01", moveOut: "2025-06-30", begin: "2024-03-01", end: "2025-02-28",
                              signed: "2024-01-15")
        // An applicant's unsigned lease is no lease.
        try realpage.resident(household: "h5", unit: "105", status: "Applicant", lease: "L5")
        #expect(realpage.sync().first?.error == nil)

        let leases = try realpage.keyed("""
            SELECT lease_id, unit_number, resident_id, status, is_renewal, prior_lease_id, is_month_to_month,
                   signed_date, rent_amount, security_deposit, pms_status
            FROM unified_leases
            """)
        #expect(leases.keys.sorted() == ["L1a", "L1b", "L1c", "L2", "L3", "L4"])
        #expect(leases["L1a"] == [.text("101"), .text("h1"), .text("past"), .integer(0), .null, .integer(0),
                                  .text("2024-04-20"), .real(2360), .real(500), .text("Current - Past")])
        #expect(leases["L1b"]?[2...5] == [.text("current"), .integer(1), .text("L1a"), .integer(1)])
        #expect(leases["L1c"]?[2...4] == [.text("future"), .integer(1), .text("L1b")])
        #expect(leases["L2"]?[2...3] == [.text("future"), .integer(0)])
        #expect(leases["L3"]?[2...3] == [.text("past"), .integer(0)])
        #expect(leases["L4"] == [.text("104"), .text("h4"), .text("past"), .integer(1), .null, .integer(0),
                                 .text("2024-01-15"), .null, .null, .text("Former")])

        let roles = try realpage.rows("""
            SELECT lease_id, resident_id, role FROM unified_lease_residents ORDER BY lease_id, resident_id
            """).map { $0.map { $0.textValue ?? "" }.joined(separator: " ") }
        // Every lease of a household gets the household's members.
        for lease in ["L1a", "L1b", "L1c"] {
            #expect(roles.filter { $0.hasPrefix(lease + " ") } == [
                "\(lease) h1 head", "\(lease) h1-h1-co co_resident", "\(lease) h1-h1-g guarantor",
                "\(lease) h1-h1-kid occupant",
            ])
        }
        #expect(roles.contains("L4 h4 head"))
        #expect(!roles.contains { $0.hasPrefix("L2 ") }, "h2 has no member rows")
    }

    @Test func aLeaseListedTwiceIsReadFromItsFirstRowAndTheResidentListsLeaseOnlyWhereGetLeaseInfoHasNone() throws {
        let realpage = try RealPageFixture()
        try realpage.loadedEverything()
        try realpage.unit("101", .occupied)
        try realpage.unit("102", .occupied)
        // getleaseinfo lists L1 twice (its first row wins) and L2, which the resident list also names with other dates.
        try realpage.lease("L1", household: "h1", unit: "101", status: "Current", begin: "2026-01-01", end: "2026-12-31",
                           rent: 1500)
        try realpage.lease("L1", household: "h1", unit: "101", status: "Former", begin: "2025-01-01", end: "2025-12-31",
                           rent: 1400)
        try realpage.lease("L2", household: "h2", unit: "102", status: "Current", begin: "2026-03-01", end: "2027-02-28",
                           rent: 1600)
        try realpage.resident(household: "h1", unit: "101", status: "Current", lease: "L1")
        try realpage.resident(household: "h2", unit: "102", status: "Current", lease: "L2", begin: "2025-03-01",
                              end: "2026-02-28")
        try realpage.resident(household: "h2", member: "h2-co", unit: "102", status: "Current", lease: "L2", head: false)
        #expect(realpage.sync().first?.error == nil)

        let leases = try realpage.keyed("SELECT lease_id, status, start_date, rent_amount FROM unified_leases")
        #expect(leases == [
            "L1": [.text("current"), .text("2026-01-01"), .real(1500)],
            "L2": [.text("current"), .text("2026-03-01"), .real(1600)],
        ])
        let members = try realpage.rows("""
            SELECT lease_id, resident_id, role FROM unified_lease_residents ORDER BY lease_id, resident_id
            """).map { $0.map { $0.textValue ?? "" }.joined(separator: " ") }
        #expect(members == ["L1 h1 head", "L2 h2 head", "L2 h2-h2-co co_resident"])
    }

    @Test func anUnknownLeaseStatusTextFailsTheProperty() throws {
        let realpage = try RealPageFixture()
        try realpage.loadedEverything()
        try realpage.lease("L9", household: "h9", unit: "109", status: "Pending Renewal")
        let error = try #require(realpage.sync().first?.error)
        #expect(error.contains("lease L9 'Pending Renewal'"))
    }

    @Test func withoutRPXResidentsTheRentRollNamesTheResidents() throws {
        let realpage = try RealPageFixture()
        try realpage.loaded("rent_roll")
        try realpage.rentRoll("101", "Occupied no NTV", name: "Lee, Ann", residentID: "25200001", actual: 1400,
                              moveIn: "2025-01-01", balance: 12.5)
        try realpage.rentRoll("102", "Occupied NTV", name: "Diaz, Pat", actual: 1500, moveOut: "2026-12-31")
        try realpage.rentRoll("103", "Vacant Leased")
        try realpage.rentRoll("103", "Applicant - Lease Signed", name: "Ito, Mia")
        #expect(realpage.sync().first?.error == nil)
        let residents = try realpage.keyed("""
            SELECT resident_id, unit_number, status, current_rent, balance, move_out_date FROM unified_residents
            """)
        #expect(residents["25200001"] == [.text("101"), .text("current"), .real(1400), .real(12.5), .null])
        #expect(residents["102/Diaz, Pat"] == [.text("102"), .text("notice"), .real(1500), .null, .text("2026-12-31")])
        #expect(residents["103/Ito, Mia"]?[1] == .text("future"))
        #expect(try realpage.rows("SELECT * FROM unified_leases").isEmpty, "the Rent Roll names no lease id")
        let unitResidents = try realpage.keyed("SELECT unit_number, resident_id FROM unified_units")
        #expect(unitResidents["101"] == [.text("25200001")])
        #expect(unitResidents["102"] == [.text("102/Diaz, Pat")], "units and residents use the same fallback id")
    }
}
