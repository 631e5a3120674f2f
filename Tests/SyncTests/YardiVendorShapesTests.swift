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

    /// A renewed tenant's lease charges without a LeaseID: each service period takes the lease its posted charges carry
    /// (the earlier period the old lease), not the one the resident list names now, so the audit of a month of the
    /// old lease finds its rent posted, not missing on the new lease with the posting left unaudited on the old one.
    /// (yp_juniper_flats, the simulator's tenant-keyed property: 803 lines missing and 806 not audited over six months
    /// before; 2 to 7 at the other Yardi properties.)
    @Test func aRenewedTenantsEarlierPeriodWithoutALeaseIDKeepsTheLeaseItWasPostedOn() throws {
        let yardi = try YardiFixture()
        try yardi.loadedEverything()
        try yardi.resident("t1", "Current", unit: "101", rent: 1500, leaseID: "L2", leaseFrom: "2026-08-15",
                           leaseTo: "2027-08-14", moveIn: "2025-08-15")
        for (from, to, amount, statement) in [("2025-08-15", "2026-08-14", 1400.0, "2026-07-01"),
                                              ("2026-08-15", "2027-08-14", 1500.0, "2026-09-01")] {
            try yardi.insert("yardi_lease_charges", [
                "tenant_code": .text("t1"), "unit_code": .text("101"), "charge_code": .text("RENT"), "amount": .real(amount),
                "service_from_date": .text(from), "service_to_date": .text(to),
            ], asOf: statement)
        }
        for (date, lease, amount) in [("2026-06-01", "L1", 1400.0), ("2026-07-01", "L1", 1400.0), ("2026-09-01", "L2", 1500.0)] {
            try yardi.insert("yardi_transactions", [
                "kind": .text("charge"), "tenant_code": .text("t1"), "unit_code": .text("101"), "lease_id": .text(lease),
                "charge_code": .text("RENT"), "transaction_date": .text(date), "service_from_date": .text(date),
                "amount": .real(amount), "amount_paid": .real(amount), "balance_due": .real(0),
            ])
        }
        #expect(yardi.sync().first?.error == nil)
        #expect(try yardi.rows("SELECT lease_id, start_date, amount FROM unified_recurring_charges ORDER BY start_date")
                == [[.text("L1"), .text("2025-08-15"), .real(1400)], [.text("L2"), .text("2026-08-15"), .real(1500)]])
        let database = yardi.store.database
        for month in ["2026-07-31", "2026-09-30"] {
            let run = try ChargeAudit.run(database: database, properties: ["yp_test"], asOf: LocalDate(iso: month),
                                          months: 1, now: { "2026-11-21T00:00:00Z" })
            let totals = try #require(run.properties.first)
            #expect(totals.matched == 1 && totals.exceptions == 0 && totals.notAudited == 0, "\(month): \(totals)")
        }
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

    /// A real Voyager database's charge codes (`.rent` with its dot, `a_mtm`, `park`, `util`, `insur`, `fees`,
    /// `misc`, `legal`, `admin`, `damages`, `deposit`; docs/yardi-soap.md, "Charge codes") in a GetResidentTransactions
    /// answer: each has its category out of the box (rent apart from the rest), none is reported as unknown.
    @Test func voyagerChargeCodesHaveTheirCategoriesOutOfTheBox() throws {
        let yardi = try YardiFixture()
        try yardi.loadedEverything()
        try yardi.loadSOAP("yardi_get_resident_transactions_voyager.xml", .getResidentTransactions)
        let outcome = try #require(yardi.sync().first)
        #expect(outcome.error == nil, "\(outcome.error ?? "")")
        let categories = try yardi.keyed("""
            SELECT DISTINCT charge_code, category, category_known FROM unified_charges WHERE resident_id = 't0001'
            """)
        let expected: [String: String] = [
            ".rent": "RENT", "a_mtm": "RENT", "util": "UTILITIES", "fees": "FEES", "legal": "FEES", "admin": "FEES",
            "park": "OTHER", "insur": "OTHER", "misc": "OTHER", "damages": "OTHER", "deposit": "OTHER",
        ]
        #expect(categories.count == expected.count)
        for (code, category) in expected {
            #expect(categories[code] == [.text(category), .integer(1)], "\(code): \(categories[code] ?? [])")
        }
        #expect(!outcome.warnings.contains { $0.check == "charge_category" })
        // The dot is part of the code: `rent` stays a code of its own (RENT too), `.rent` is not matched by stripping.
        #expect(ChargeCategories.standard.category(of: ".RENT") == .rent)
        #expect(ChargeCategories.standard.category(of: "rent.") == nil)
    }

    /// Voyager's AmountPaid counts payments the exported window lacks (t0002: October's rent paid before the window,
    /// 200.00 of November's by a transfer): charges − payments (3,000.00) is not what is open (Σ BalanceDue 1,300.00).
    /// BalanceDue is the balance, as Voyager's aging has it: buckets − prepaid = balance, and the sync warns naming the
    /// property, the household and the gap, which the ledger carries as a balance-forward credit so that the debtors
    /// report and the statement agree with the aging. A household paid ahead with every payment in the window (t0003) is
    /// prepaid, with no warning.
    @Test func amountPaidBeyondTheWindowAgesByBalanceDueAndIsWarned() throws {
        let yardi = try YardiFixture()
        try yardi.loadedEverything()
        try yardi.loadSOAP("yardi_get_resident_transactions_voyager.xml", .getResidentTransactions)
        let outcome = try #require(yardi.sync().first)
        #expect(outcome.error == nil, "\(outcome.error ?? "")")
        let rows = try yardi.keyed("""
            SELECT resident_id, current_balance, balance_0_30, balance_31_60, balance_61_90, balance_over_90, prepaid
            FROM unified_delinquency
            """)
        #expect(rows["t0002"] == [.real(1300), .real(1300), .real(0), .real(0), .real(0), .real(0)])
        #expect(rows["t0003"] == [.real(-250), .real(0), .real(0), .real(0), .real(0), .real(250)])
        // Every household: the buckets less prepaid are its balance.
        let unbalanced = try yardi.rows("""
            SELECT resident_id FROM unified_delinquency
            WHERE round(balance_0_30 + balance_31_60 + balance_61_90 + balance_over_90 - prepaid - current_balance, 2) <> 0
            """)
        #expect(unbalanced.isEmpty, "\(unbalanced)")
        let gaps = outcome.warnings.filter { $0.check == "ledger_window" }
        #expect(gaps.map(\.subject) == ["t0002"])
        let message = try #require(gaps.first?.message)
        #expect(message.hasPrefix("household t0002: the ledger window's charges 3000.00 − payments 0.00 = 3000.00"),
                "\(message)")
        #expect(message.contains("(Σ BalanceDue) are 1300.00, a gap of 1700.00"), "\(message)")
        #expect(message.contains("carried as a balance-forward line (BALFWD, -1700.00)"), "\(message)")
        // The gap is carried as one balance-forward credit (RealPage's convention), applied in full, dated the day
        // before the ledger's first posting: the ledger's charges − payments are the delinquency's balance.
        #expect(try yardi.rows("""
            SELECT charge_id, resident_id, charge_code, category, category_known, amount, amount_paid, balance,
                   charge_date, period
            FROM unified_charges WHERE charge_id LIKE 'balance-forward:%'
            """) == [[.text("balance-forward:t0002"), .text("t0002"), .text("BALFWD"), .text("OTHER"), .integer(1),
                       .real(-1700), .real(-1700), .real(0), .text("2026-09-30"), .text("2026-09")]])
        let disagreeing = try yardi.rows("""
            WITH ledger AS (
                SELECT resident_id, sum(cents) AS cents FROM (
                    SELECT resident_id, CAST(round(amount * 100) AS INTEGER) AS cents FROM unified_charges
                    UNION ALL
                    SELECT resident_id, -CAST(round(amount * 100) AS INTEGER) FROM unified_payments)
                GROUP BY resident_id)
            SELECT d.resident_id, l.cents, CAST(round(d.current_balance * 100) AS INTEGER)
            FROM unified_delinquency d LEFT JOIN ledger l ON l.resident_id = d.resident_id
            WHERE l.cents IS NOT CAST(round(d.current_balance * 100) AS INTEGER)
            """)
        #expect(disagreeing.isEmpty, "\(disagreeing)")
        #expect(try yardi.keyed("SELECT resident_id, balance FROM unified_household_balances")["t0002"] == [.real(1300)])
        // So the ledger's own open balance, held against the delinquency, agrees (before: failed by the gap, -1,700).
        #expect(try yardi.rows("SELECT status, difference FROM sync_checks WHERE check_name = 'ledger_open_balance'")
                == [[.text("passed"), .real(0)]])
        // The debtors report and the statement say what the aging says (before: 3,000.00 at t0002).
        let debtors = try Debtors.run(database: yardi.store.database, properties: ["yp_test"], asOf: nil, minDebt: nil)
        let owed = debtors.people.flatMap(\.units).first { $0.residentID == "t0002" }
        #expect(owed?.balanceCents == 130_000)
        #expect(owed.map { $0.months.reduce(0) { $0 + $1.amountCents } } == 130_000)
        let household = try #require(try ResidentStatement.households(
            database: yardi.store.database, residentID: "t0002", properties: ["yp_test"]).first)
        let statement = try ResidentStatement.run(database: yardi.store.database, household: household, asOf: nil, from: nil)
        #expect(statement.closingBalanceCents == 130_000)
        // The query a user reads: delinquent 1,300 + t0001's open charges, net of t0003's 250 prepaid.
        let report = try Metrics.delinquency(database: yardi.store.database, properties: ["yp_test"])
        let property = try #require(report.properties.first)
        #expect(property.net == property.delinquent - Money(dollars: 250)!)
    }

    /// GetUnitInformation lists no unit and the AvailableUnits_Login marketing feed lists every unit (occupied ones
    /// too, no Voyager status text), declaring 4 and listing 5: the units come from the feed (status from occupancy
    /// and leased status and the vacate and made-ready dates, floor plan, market rent), the sync says which source it
    /// used, and the declared count is reconciled with the listed one.
    @Test func unitsFromTheILSFeedWhereGetUnitInformationListsNone() throws {
        let yardi = try YardiFixture()
        try yardi.loadedEverything()
        try yardi.loadSOAP("yardi_available_units_every_unit.xml", .availableUnits)
        try yardi.resident("t101", "Current", unit: "101", rent: 1650)
        try yardi.resident("t102", "Notice", unit: "102", rent: 1600)
        try yardi.resident("t103", "Notice", unit: "103", rent: 1700)
        let outcome = try #require(yardi.sync().first)
        #expect(outcome.error == nil, "\(outcome.error ?? "")")
        let units = try yardi.keyed("""
            SELECT unit_number, status, is_ready, floorplan, market_rent, actual_rent, resident_id, notice_for_date,
                   made_ready_date, vacant_since
            FROM unified_units
            """)
        #expect(units["101"] == [.text("occupied"), .null, .text("a1"), .real(1715), .real(1650), .text("t101"), .null, .null, .null])
        #expect(units["102"]?[0...1] == [.text("occupied_notice"), .null])
        #expect(units["102"]?[6] == .text("2026-12-15"))
        #expect(units["103"]?[0] == .text("occupied_notice_leased"))
        #expect(units["104"] == [.text("vacant"), .integer(1), .text("a1"), .real(1745), .null, .null, .null,
                                 .text("2026-10-10"), .text("2026-09-30")])
        #expect(units["105"]?[0...1] == [.text("vacant_leased"), .integer(0)])
        #expect(units.count == 5)
        let source = try yardi.rows("SELECT source, total_units, occupied_units FROM unified_occupancy_metrics")
        #expect(source == [[.text("yardi: \(YardiUnits.ilsSource)"), .integer(5), .integer(3)]])
        #expect(!outcome.warnings.contains { $0.check == "units_missing" })
        let said = try #require(outcome.warnings.first { $0.check == "unit_source" }?.message)
        #expect(said.hasPrefix("GetUnitInformation lists no unit; the 5 units are taken from the AvailableUnits_Login marketing feed"))
        let count = try #require(outcome.warnings.first { $0.check == "ils_unit_count" })
        #expect((count.expected, count.actual) == ("4", "5"))
        #expect(count.message.contains("declares 4 units (Property/Information/UnitCount) but lists 5"))
        // The reconciliation the sync records: declared 4, listed 5.
        #expect(try yardi.rows("""
            SELECT status, expected, actual FROM sync_checks WHERE check_name = 'ils_unit_count'
            """) == [[.text("failed"), .real(4), .real(5)]])
        #expect(try yardi.rows("SELECT status FROM sync_checks WHERE check_name = 'unit_information'") == [[.text("skipped")]])
    }

    /// A unit of the feed that is neither occupied nor vacant (and has no status text) fails the property on one line
    /// naming the unit and both fields: a guessed status would move occupancy.
    @Test func anILSUnitNeitherOccupiedNorVacantFailsThePropertyNamingIt() throws {
        let yardi = try YardiFixture()
        try yardi.loadedEverything()
        for (code, occupancy, leased) in [("101", "occupied", "leased"), ("102", "reserved", "available")] {
            try yardi.insert("yardi_available_units", [
                "unit_code": .text(code), "occupancy_status": .text(occupancy), "leased_status": .text(leased),
                "economic_status": .text("residential"), "declared_unit_count": .integer(2),
            ])
        }
        let error = try #require(yardi.sync().first?.error)
        #expect(error.contains("unit 102 ('reserved', 'available')") && error.contains("UnitOccupancyStatus must be occupied or vacant"),
                "\(error)")
        #expect(!error.contains("unit 101"))
    }

    /// A unit or tenant code listed twice in one snapshot (GetUnitInformation, GetResidentsByStatus, the ILS feed
    /// taken for the unit list) would count twice in every rule joining on it: the property fails, naming the code and
    /// how many rows list it.
    @Test func aCodeListedTwiceFailsThePropertyNamingIt() throws {
        let units = try YardiFixture()
        try units.loadedEverything()
        for code in ["1101", "1101", "1102"] { try units.unit(code, "Occupied No Notice") }
        let unitError = try #require(units.sync().first?.error)
        #expect(unitError.contains("GetUnitInformation lists a unit more than once: 1101 (2 rows)"), "\(unitError)")
        #expect(!unitError.contains("1102"))

        let residents = try YardiFixture()
        try residents.loadedEverything()
        try residents.unit("1101", "Occupied No Notice", tenant: "t1")
        for _ in 0..<3 { try residents.resident("t1", "Current", unit: "1101") }
        let residentError = try #require(residents.sync().first?.error)
        #expect(residentError.contains("GetResidentsByStatus lists a tenant code more than once: t1 (3 rows)"),
                "\(residentError)")

        let feed = try YardiFixture()
        try feed.loadedEverything()
        for code in ["101", "101", "102"] {
            try feed.insert("yardi_available_units", [
                "unit_code": .text(code), "occupancy_status": .text("vacant"), "leased_status": .text("available"),
                "economic_status": .text("residential"), "declared_unit_count": .integer(2),
            ])
        }
        let feedError = try #require(feed.sync().first?.error)
        #expect(feedError.contains("AvailableUnits_Login (the unit list: GetUnitInformation lists no unit) lists a unit "
                                   + "more than once: 101 (2 rows)"), "\(feedError)")
    }

    /// A feed that lists only the units for lease (no declared count, or a small part of it) is no unit list: the
    /// property has no units, and `units_missing` says why.
    @Test func anAvailabilityListIsNotTakenForTheUnitList() throws {
        let yardi = try YardiFixture()
        try yardi.loadedEverything()
        try yardi.loadSOAP("yardi_available_units.xml", .availableUnits)
        let outcome = try #require(yardi.sync().first)
        #expect(outcome.error == nil, "\(outcome.error ?? "")")
        #expect(try yardi.rows("SELECT count(*) FROM unified_units").first?.first == .integer(0))
        let missing = try #require(outcome.warnings.first { $0.check == "units_missing" }?.message)
        #expect(missing.contains("declares no unit count (Property/Information/UnitCount)"), "\(missing)")
    }

    /// GetUnitInformation answers but lists no unit, and no feed stands in: delinquency and the ledger reports answer
    /// from the ledger; the unit figures say they are missing and why (never a zero).
    @Test func withoutAUnitListDelinquencyAndTheLedgerReportsAnswer() throws {
        let yardi = try YardiFixture()
        try yardi.loadedEverything()
        try yardi.resident("t1", "Current", unit: "101", first: "Ann", last: "Lee")
        try yardi.charge("t1", "2026-11-01", 1400)
        try yardi.charge("t1", "2026-09-01", 100, unit: "101")
        let outcome = try #require(yardi.sync().first)
        #expect(outcome.error == nil, "\(outcome.error ?? "")")
        #expect(try yardi.rows("SELECT count(*) FROM unified_occupancy_metrics").first?.first == .integer(0), "no zero snapshot")
        let missing = try #require(outcome.warnings.first { $0.check == "units_missing" }?.message)
        #expect(missing.contains("AvailableUnits_Login (\(YardiFixture.asOf)) lists no unit either"), "\(missing)")
        let database = yardi.store.database
        let delinquency = try Metrics.run(MetricQuery(metric: .delinquency, properties: ["yp_test"]), database: database)
        let row = try #require(delinquency.tables.first?.rows.first)
        #expect(row.first == .text("yp_test"))
        let report = try Metrics.delinquency(database: database, properties: ["yp_test"])
        #expect(report.properties.first?.delinquent == Money(dollars: 1500))
        #expect(report.properties.first?.balance61to90 == Money(dollars: 100))
        #expect(report.topResidents.map(\.residentID) == ["t1"])
        let debtors = try Debtors.run(database: database, properties: ["yp_test"], asOf: nil, minDebt: nil)
        #expect(debtors.totalCents == 150_000 && debtors.noLedger.isEmpty)
        // The summary keeps the property's line: its delinquency, its unit figures empty (never 0) and why.
        let summary = try #require(try Metrics.summary(database: database, properties: ["yp_test"]).first)
        #expect(summary.delinquent == Money(dollars: 1500) && summary.asOf?.iso == YardiFixture.asOf)
        #expect(summary.units == nil && summary.occupancyPct == nil && summary.vacantReady == nil)
        #expect(summary.missingFigures.first?.hasPrefix("yp_test: units, occupancy_pct, leased_pct, exposure_30_pct, "
            + "exposure_60_pct, vacant_ready and aged_vacant_90 left empty: the GetUnitInformation snapshot of 2026-11-20 holds no unit") == true,
                "\(summary.missingFigures)")
        let answered = try Metrics.run(MetricQuery(metric: .summary, properties: ["yp_test"]), database: database)
        #expect(answered.tables.first?.rows.first?[2] == .null, "units: \(answered.tables.first?.rows.first ?? [])")
        #expect { _ = try Metrics.run(MetricQuery(metric: .occupancy, properties: ["yp_test"]), database: database) } throws: { error in
            "\(error)".contains("holds no unit: total units, occupancy, exposure, vacancy and pricing are missing, not zero")
                && "\(error)".contains("delinquency and the ledger reports answer from the ledger")
        }
    }
}
