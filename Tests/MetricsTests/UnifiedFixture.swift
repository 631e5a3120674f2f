import Foundation
import OwnerDashCore
import SQLiteKit
import Sync

/// A hand-built unified.db in its own temporary data directory: created and migrated by `UnifiedStore`, filled
/// row by row with the numbers a test works its answers out from.
final class UnifiedFixture {
    let directory: URL
    let dataDirectory: DataDirectory
    let store: UnifiedStore
    var database: Database { store.database }

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("metrics-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        dataDirectory = DataDirectory(root: directory.path)
        store = try UnifiedStore(dataDirectory: dataDirectory)
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    /// unified.db opened the way `ownerdash query` opens it: read-only.
    func reader() throws -> Database {
        try UnifiedStore.openForReading(dataDirectory: dataDirectory)
    }

    func property(_ key: String, pms: String = "realpage", units: Int? = nil, asOf: String? = nil) throws {
        try database.prepare("""
            INSERT INTO unified_properties (unified_property_id, name, pms_source, total_units, as_of_date)
            VALUES (:key, :name, :pms, :units, :as_of)
            """).execute([":key": .text(key), ":name": .text(key.capitalized), ":pms": .text(pms),
                          ":units": SQLValue(units), ":as_of": SQLValue(asOf)])
    }

    /// The sync's record that a source had no snapshot (a Yardi call failed, a OneSite report or RPX operation was not
    /// loaded), as `YardiCrossChecks` and `RealPageCrossChecks` write it.
    func missingSnapshot(_ key: String, _ asOf: String, operation: String) throws {
        try database.prepare("""
            INSERT INTO unified_sync_warnings (unified_property_id, as_of_date, check_name, subject, expected, actual, message)
            VALUES (:key, :as_of, 'snapshot', :operation, :as_of, 'none', 'not loaded')
            """).execute([":key": .text(key), ":as_of": .text(asOf), ":operation": .text(operation)])
    }

    /// One occupancy snapshot. Counts not given are derived so the row is consistent: vacant = total − occupied,
    /// vacant not leased = vacant − vacant leased − model − down, notice not leased = on notice − notice leased,
    /// pre-leased = vacant leased + notice leased, exposure now = vacant not leased + notice not leased.
    func occupancy(_ key: String, _ asOf: String, total: Int, occupied: Int, leased: Int, vacantLeased: Int = 0,
                   vacantReady: Int = 0, aged: Int = 0, agedCost: Double = 0, onNotice: Int = 0, noticeLeased: Int = 0,
                   model: Int = 0, down: Int = 0, exposure30: Int? = nil, exposure60: Int? = nil) throws {
        let vacant = total - occupied
        let vacantNotLeased = vacant - vacantLeased - model - down
        let noticeNotLeased = onNotice - noticeLeased
        let exposureNow = vacantNotLeased + noticeNotLeased
        let rentableVacant = vacantLeased + vacantNotLeased
        func pct(_ n: Int) -> SQLValue { .real((100.0 * Double(n) / Double(total) * 100).rounded() / 100) }
        try database.prepare("""
            INSERT INTO unified_occupancy_metrics (
                unified_property_id, as_of_date, total_units, occupied_units, vacant_units, vacant_leased,
                vacant_not_leased, vacant_ready, vacant_not_ready, aged_vacant_90, aged_vacancy_cost, on_notice,
                notice_leased, notice_not_leased, pre_leased, model_units, down_units, leased_units,
                physical_occupancy, leased_pct, exposure_now, exposure_30, exposure_60,
                exposure_now_pct, exposure_30_pct, exposure_60_pct, source)
            VALUES (:key, :as_of, :total, :occupied, :vacant, :vacant_leased, :vacant_not_leased, :ready, :not_ready,
                    :aged, :aged_cost, :on_notice, :notice_leased, :notice_not_leased, :pre_leased, :model, :down,
                    :leased, :occupancy_pct, :leased_pct, :exposure_now, :exposure_30, :exposure_60,
                    :exposure_now_pct, :exposure_30_pct, :exposure_60_pct, 'test')
            """).execute([
                ":key": .text(key), ":as_of": .text(asOf), ":total": SQLValue(total), ":occupied": SQLValue(occupied),
                ":vacant": SQLValue(vacant), ":vacant_leased": SQLValue(vacantLeased),
                ":vacant_not_leased": SQLValue(vacantNotLeased), ":ready": SQLValue(vacantReady),
                ":not_ready": SQLValue(rentableVacant - vacantReady), ":aged": SQLValue(aged), ":aged_cost": .real(agedCost),
                ":on_notice": SQLValue(onNotice), ":notice_leased": SQLValue(noticeLeased),
                ":notice_not_leased": SQLValue(noticeNotLeased), ":pre_leased": SQLValue(vacantLeased + noticeLeased),
                ":model": SQLValue(model), ":down": SQLValue(down), ":leased": SQLValue(leased),
                ":occupancy_pct": pct(occupied), ":leased_pct": pct(leased), ":exposure_now": SQLValue(exposureNow),
                ":exposure_30": SQLValue(exposure30 ?? exposureNow), ":exposure_60": SQLValue(exposure60 ?? exposureNow),
                ":exposure_now_pct": pct(exposureNow), ":exposure_30_pct": pct(exposure30 ?? exposureNow),
                ":exposure_60_pct": pct(exposure60 ?? exposureNow),
            ])
    }

    func pricing(_ key: String, _ asOf: String, floorplan: String, bedrooms: Int?, units: Int, occupied: Int,
                 sqft: Double?, inPlace: Double?, asking: Double?, lossToLease: Double?) throws {
        try database.prepare("""
            INSERT INTO unified_pricing_metrics (
                unified_property_id, as_of_date, floorplan, floorplan_name, bedrooms, units, occupied_units, avg_sqft,
                in_place_rent, in_place_psf, asking_rent, asking_psf, loss_to_lease)
            VALUES (:key, :as_of, :fp, :fp, :bedrooms, :units, :occupied, :sqft, :in_place,
                    round(:in_place / :sqft, 4), :asking, round(:asking / :sqft, 4), :loss)
            """).execute([
                ":key": .text(key), ":as_of": .text(asOf), ":fp": .text(floorplan), ":bedrooms": SQLValue(bedrooms),
                ":units": SQLValue(units), ":occupied": SQLValue(occupied), ":sqft": SQLValue(sqft),
                ":in_place": SQLValue(inPlace), ":asking": SQLValue(asking), ":loss": SQLValue(lossToLease),
            ])
    }

    /// One resident's delinquency row; current balance = the buckets − prepaid; `underEviction`, `inCollections`
    /// nil: not said.
    func delinquency(_ key: String, _ asOf: String, resident: String, unit: String, name: String,
                     _ b0: Double, _ b31: Double, _ b61: Double, _ b90: Double, prepaid: Double = 0,
                     underEviction: Bool? = nil, inCollections: Bool? = nil) throws {
        try database.prepare("""
            INSERT INTO unified_delinquency (
                unified_property_id, as_of_date, resident_id, unit_number, name, resident_status, current_balance,
                balance_0_30, balance_31_60, balance_61_90, balance_over_90, prepaid, under_eviction, in_collections,
                source)
            VALUES (:key, :as_of, :resident, :unit, :name, 'current', round(:b0 + :b31 + :b61 + :b90 - :prepaid, 2),
                    :b0, :b31, :b61, :b90, :prepaid, :under_eviction, :in_collections, 'test')
            """).execute([
                ":under_eviction": SQLValue(underEviction.map { $0 ? 1 : 0 }),
                ":in_collections": SQLValue(inCollections.map { $0 ? 1 : 0 }),
                ":key": .text(key), ":as_of": .text(asOf), ":resident": .text(resident), ":unit": .text(unit),
                ":name": .text(name), ":b0": .real(b0), ":b31": .real(b31), ":b61": .real(b61), ":b90": .real(b90),
                ":prepaid": .real(prepaid),
            ])
        // The night's totals, as the sync writes them beside its residents.
        try DelinquencySnapshot.recount(database)
    }

    func event(_ key: String, _ date: String, _ type: String, source: String? = nil, unit: String? = nil) throws {
        try database.prepare("""
            INSERT INTO unified_activity (unified_property_id, event_date, event_type, unit_number, source)
            VALUES (:key, :date, :type, :unit, :source)
            """).execute([":key": .text(key), ":date": .text(date), ":type": .text(type), ":unit": SQLValue(unit),
                          ":source": SQLValue(source)])
    }

    /// `count` events of one type on one date.
    func events(_ key: String, _ date: String, _ type: String, count: Int, source: String? = nil) throws {
        for _ in 0..<count { try event(key, date, type, source: source) }
    }

    func unit(_ key: String, _ unit: String, floorplan: String, status: String = "occupied") throws {
        try database.prepare("""
            INSERT INTO unified_units (unified_property_id, unit_number, floorplan, status)
            VALUES (:key, :unit, :fp, :status)
            """).execute([":key": .text(key), ":unit": .text(unit), ":fp": .text(floorplan), ":status": .text(status)])
    }

    func lease(_ key: String, _ id: String, unit: String?, resident: String?, start: String?, end: String?, rent: Double?,
               renewal: Bool = false, prior: String? = nil, status: String = "current") throws {
        try database.prepare("""
            INSERT INTO unified_leases (unified_property_id, lease_id, unit_number, resident_id, start_date, end_date,
                                        rent_amount, status, is_renewal, prior_lease_id)
            VALUES (:key, :id, :unit, :resident, :start, :end, :rent, :status, :renewal, :prior)
            """).execute([
                ":key": .text(key), ":id": .text(id), ":unit": SQLValue(unit), ":resident": SQLValue(resident),
                ":start": SQLValue(start), ":end": SQLValue(end), ":rent": SQLValue(rent), ":status": .text(status),
                ":renewal": .integer(renewal ? 1 : 0), ":prior": SQLValue(prior),
            ])
    }
}

/// A date from its ISO text (test literals only).
func day(_ text: String) -> LocalDate {
    guard let date = LocalDate(iso: text) else { preconditionFailure("not a date: \(text)") }
    return date
}
