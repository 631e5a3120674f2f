import Foundation
import Ledger
import Metrics
import OwnerDashCore
import SOAP
import SQLiteKit
@testable import Sync
import Testing

/// Yardi shapes the vendor sends that a naive reading gets wrong (scripts/pms_sim/README.md, quirk catalogue), each
/// from a SOAP fixture in the vendor's shape loaded by the production loader, synced, and read back as a user reads it.
@Suite struct YardiVendorShapesTests {
    /// GetUnitInformation pretty-printed (each value inside newlines and indentation) and GetResidentsByStatus with
    /// dates that are not zero-padded (`2/8/2025`): the same units, statuses, rents and dates as the compact shapes.
    @Test func indentedValuesAndUnpaddedDatesReadAsTheUsualOnes() throws {
        let yardi = try YardiFixture()
        try yardi.loadedEverything()
        try yardi.loadSOAP("yardi_get_unit_information_indented.xml", .getUnitInformation)
        try yardi.loadSOAP("yardi_get_residents_by_status_unpadded.xml", .getResidentsByStatus)
        #expect(yardi.sync().first?.error == nil)
        let units = try yardi.keyed("SELECT unit_number, status, pms_status, floorplan, bedrooms FROM unified_units")
        #expect(units["1101"] == [.text("occupied"), .text("Occupied No Notice"), .text("b1"), .integer(2)])
        #expect(units["1113"]?[0] == .text("occupied_notice") && units["1220"]?[0] == .text("vacant"))
        let residents = try yardi.keyed("SELECT resident_id, status, move_in_date, move_out_date, current_rent FROM unified_residents")
        #expect(residents["t101200001"] == [.text("notice"), .text("2025-02-08"), .text("2026-12-05"), .real(1610)])
        #expect(residents["t101200005"] == [.text("current"), .text("2023-08-26"), .null, .real(1690)])
    }

    /// GetUnitInformation with one unit and Yardi's two pseudo-rows (WAIT "Waitlist", NONRESID "Excluded"): one unit,
    /// the GetUnitInformation unit-count check passes (the pseudo-rows are not units it should have), and the floor,
    /// which no Yardi answer sends, is said to be missing and why.
    @Test func pseudoRowsAreNotUnitsAndTheMissingFloorIsExplained() throws {
        let yardi = try YardiFixture()
        try yardi.loadedEverything()
        try yardi.loadSOAP("yardi_get_unit_information_pseudo_units.xml", .getUnitInformation)
        #expect(try yardi.rows("SELECT count(*) FROM yardi_raw.yardi_units").first?.first == .integer(3))
        let outcome = try #require(yardi.sync().first)
        #expect(outcome.error == nil)
        #expect(try yardi.rows("SELECT unit_number FROM unified_units").map { $0[0].textValue } == ["1103"])
        let check = try yardi.rows("""
            SELECT CAST(expected AS INTEGER), CAST(actual AS INTEGER), status FROM sync_checks
            WHERE check_name = 'unit_information' AND measure = 'units'
            """)
        #expect(check == [[.integer(1), .integer(1), .text("passed")]])
        #expect(try yardi.rows("SELECT floor FROM unified_units").map { $0[0].textValue } == [nil])
        let note = try #require(try yardi.rows("SELECT floor_note FROM unified_properties").first?[0].textValue)
        #expect(note.hasPrefix("Yardi sends no floor"))
    }

    /// Three occupied units of one floor plan; residents t104200001 (1101, $2,310), t104200004 (1102, $1,435) and
    /// t104200030 (1115, $1,835, Status Eviction).
    static func occupiedUnits(_ yardi: YardiFixture) throws {
        try yardi.loadedEverything()
        try yardi.unit("1101", "Occupied No Notice", tenant: "t104200001", market: 2400)
        try yardi.unit("1102", "Occupied No Notice", tenant: "t104200004", market: 2400)
        try yardi.unit("1115", "Occupied No Notice", tenant: "t104200030", market: 2400)
        try yardi.loadSOAP("yardi_get_residents_by_status_eviction.xml", .getResidentsByStatus)
    }

    /// A household under eviction is in place: it counts as a current household, its rent is in-place rent and its
    /// lease is a current lease expiring on its LeaseToDate.
    @Test func aHouseholdUnderEvictionIsAHouseholdInPlace() throws {
        let yardi = try YardiFixture()
        try Self.occupiedUnits(yardi)
        #expect(yardi.sync().first?.error == nil)

        #expect(try yardi.rows("SELECT status, pms_status FROM unified_residents WHERE resident_id = 't104200030'")
                == [[.text("current"), .text("Eviction")]])
        #expect(try yardi.rows("SELECT status, end_date FROM unified_leases WHERE lease_id = '104400060'")
                == [[.text("current"), .text("2027-10-27")]])
        let pricing = try Metrics.pricing(database: yardi.store.database, properties: ["yp_test"]).floorplans
        let plan = try #require(pricing.first)
        #expect(plan.occupied == 3)
        // (2,310 + 1,435 + 1,835) / 3: the evicting household's rent is in place.
        #expect(plan.inPlaceRent == Money(dollars: 1860))
    }

    /// Applicants as GetResidentsByStatus lists them when the Status filter names them (quirk yardi_applicant_statuses;
    /// OwnerDash's filter does not, docs/yardi-soap.md): an `Applicant` is kept as an applicant, `Denied` and `Canceled`
    /// are no residents at all, and none of them is a household in place: listed on an occupied unit with a higher
    /// rent, the unit's in-place rent and the occupied and leased counts stay those of the households living there.
    @Test func applicantsDeniedAndCanceledAreNoHouseholdsAndNoInPlaceRent() throws {
        let yardi = try YardiFixture()
        try yardi.loadedEverything()
        for (unit, tenant, status, rent) in [("1101", "t104200001", "Current", 2310.0), ("1102", "t104200004", "Current", 1435),
                                             ("1115", "t104200030", "Eviction", 1835)] {
            try yardi.unit(unit, "Occupied No Notice", tenant: tenant, market: 2400)
            try yardi.resident(tenant, status, unit: unit, rent: rent, moveIn: "2025-06-01")
        }
        try yardi.unit("1120", "Vacant Unrented Ready", market: 2400)
        try yardi.resident("p0001001", "Applicant", unit: "1101", rent: 2900, leaseFrom: "2026-12-15", moveIn: "2026-12-15")
        try yardi.resident("p0001002", "Denied", unit: "1120", rent: 2900, leaseFrom: "2026-12-01", moveIn: "2026-12-01")
        try yardi.resident("p0001003", "Canceled", unit: "1102", rent: 2900)
        #expect(yardi.sync().first?.error == nil)

        let residents = try yardi.keyed("SELECT resident_id, status FROM unified_residents")
        #expect(residents.mapValues { $0[0].textValue ?? "" } == [
            "t104200001": "current", "t104200004": "current", "t104200030": "current", "p0001001": "applicant"])
        #expect(try yardi.rows("SELECT count(*) FROM unified_leases WHERE lease_id IS NULL OR resident_id LIKE 'p%'")
                == [[.integer(0)]], "an applicant without a lease id has no lease")
        let occupancy = try yardi.rows("""
            SELECT total_units, occupied_units, vacant_leased, leased_units, exposure_now FROM unified_occupancy_metrics
            """)
        #expect(occupancy == [[.integer(4), .integer(3), .integer(0), .integer(3), .integer(1)]])
        let plan = try #require(try Metrics.pricing(database: yardi.store.database, properties: ["yp_test"]).floorplans.first)
        #expect(plan.occupied == 3)
        #expect(plan.inPlaceRent == Money(dollars: 1860), "(2,310 + 1,435 + 1,835) / 3: no applicant's rent")
    }

    /// Lease charges without a LeaseID (Yardi's own sample): the schedule is keyed on Detail/CustomerID, each
    /// customer's lines under the lease GetResidentsByStatus lists for it, and the audit checks the posted rent.
    @Test func leaseChargesWithoutALeaseIDAreScheduledByCustomerAndAudited() throws {
        let yardi = try YardiFixture()
        try Self.occupiedUnits(yardi)
        try yardi.loadSOAP("yardi_get_resident_lease_charges_no_lease_id.xml", .getResidentLeaseCharges)
        #expect(try yardi.rows("SELECT count(*) FROM yardi_raw.yardi_lease_charges WHERE lease_id IS NULL").first?.first
                == .integer(12))
        // November's rent: posted right for 1101, $100 short for 1115 (the household under eviction).
        try yardi.charge("t104200001", "2026-11-01", 2310, unit: "1101")
        try yardi.charge("t104200030", "2026-11-01", 1735, unit: "1115")
        #expect(yardi.sync().first?.error == nil)

        let schedule = try yardi.keyed("""
            SELECT resident_id, count(*), group_concat(DISTINCT lease_id) FROM unified_recurring_charges GROUP BY resident_id
            """)
        #expect(schedule["t104200001"] == [.integer(4), .text("104400002")])
        #expect(schedule["t104200004"] == [.integer(5), .text("104400006")])
        #expect(schedule["t104200030"] == [.integer(3), .text("104400060")])

        let database = yardi.store.database
        let run = try ChargeAudit.run(database: database, properties: ["yp_test"], asOf: LocalDate(iso: YardiFixture.asOf),
                                      months: 1, now: { "2026-11-21T00:00:00Z" })
        #expect(try ChargeAudit.unaudited(database: database, runID: run.runID).isEmpty)
        let report = try AuditReport.load(database: database, runID: run.runID)
        let rent = report.exceptions.filter { $0.key.chargeCode == "RENT" }
        // t104200004's rent is missing, t104200030's short; t104200001's matched.
        #expect(Set(rent.compactMap(\.residentID)) == ["t104200004", "t104200030"])
        #expect(rent.first { $0.residentID == "t104200030" }?.posted == Money(dollars: 1735))
    }

    /// Posted charges and no schedule at all: the audit names the property instead of reporting 0 exceptions.
    @Test func postedChargesWithoutAScheduleAreNamedNotPassed() throws {
        let yardi = try YardiFixture()
        try Self.occupiedUnits(yardi)
        try yardi.charge("t104200001", "2026-11-01", 2310, unit: "1101")
        try yardi.charge("t104200004", "2026-10-01", 1435, unit: "1102")
        #expect(yardi.sync().first?.error == nil)
        let database = yardi.store.database
        let run = try ChargeAudit.run(database: database, properties: ["yp_test"], asOf: LocalDate(iso: YardiFixture.asOf),
                                      months: 2, now: { "2026-11-21T00:00:00Z" })
        #expect(try ChargeAudit.unaudited(database: database, runID: run.runID)
                == [ChargeAudit.Unaudited(property: "yp_test", postedCharges: 2, scheduleLines: 0)])
    }

    /// GetUnitInformation failed (nothing landed) while residents and the ledger loaded: the property is synced from
    /// what is there, and occupancy says the units are missing instead of answering zero.
    @Test func withoutUnitInformationThePropertySyncsWhatLoadedAndOccupancySaysUnitsAreMissing() throws {
        let yardi = try YardiFixture()
        try yardi.loaded("GetResidentsByStatus")
        try yardi.loaded("GetResidentTransactions_Login")
        try yardi.loadSOAP("yardi_get_residents_by_status_eviction.xml", .getResidentsByStatus)
        try yardi.charge("t104200030", "2026-11-01", 1835, unit: "1115")
        let outcome = try #require(yardi.sync().first)
        #expect(outcome.error == nil, "\(outcome.error ?? "")")
        #expect(outcome.asOf?.iso == YardiFixture.asOf)
        #expect(try yardi.rows("SELECT count(*) FROM unified_residents").first?.first == .integer(3))
        #expect(try yardi.rows("SELECT sum(current_balance) FROM unified_delinquency").first?.first == .real(1835))
        #expect(try yardi.rows("SELECT check_name FROM unified_sync_warnings WHERE check_name = 'units_missing'") == [[.text("units_missing")]])
        #expect(try yardi.rows("SELECT count(*) FROM unified_occupancy_metrics").first?.first == .integer(0), "no zero snapshot")

        let database = yardi.store.database
        #expect { _ = try Metrics.run(MetricQuery(metric: .occupancy, properties: ["yp_test"]), database: database) } throws: { error in
            "\(error)".hasPrefix("yp_test: no GetUnitInformation snapshot loaded (the call failed or was not fetched)")
                && "\(error)".contains("occupancy, exposure, vacancy and pricing are missing, not zero")
        }
    }
}
