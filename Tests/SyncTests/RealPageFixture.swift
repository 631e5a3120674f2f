import Foundation
import OwnerDashCore
import RawStore
import SOAP
import SimulatorSupport
import SQLiteKit
@testable import Sync

/// A temporary data directory with a hand-built realpage_raw.db (rows inserted with SQL, as the loaders leave them:
/// dates `YYYY-MM-DD`, flags 0/1, money in dollars) and the unified.db the Synchronizer writes from it. Each test
/// makes its own; it is removed on deinit.
final class RealPageFixture {
    static let asOf = "2026-11-20"
    static let property = Property(key: "rp_test", name: "Test RealPage", pms: .realpage, siteID: "5000001")

    let directory: URL
    let raw: RealPageRawStore
    let store: UnifiedStore
    private var nextRow: [String: Int] = [:]

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("realpage-sync-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let data = DataDirectory(root: directory.path)
        raw = try RealPageRawStore(path: data.realpageRawDatabase)
        store = try UnifiedStore(dataDirectory: data)
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    /// The `loaded_artifacts.report_type` of each raw table (reports by their report type, RPX by operation).
    static let reportTypes = [
        "realpage_sites": "getsitelist", "realpage_units": "unitlist", "realpage_residents": "getresidentlistinfo",
        "realpage_leases": "getleaseinfo", "realpage_rent_roll": "rent_roll", "realpage_box_score": "box_score",
        "realpage_delinquency": "delinquency", "realpage_activity": "activity",
        "realpage_monthly_summary": "monthly_summary",
    ]

    /// The Northern, a property of the real OneSite downloads (Tests/Fixtures/real-onesite) the registry does not list.
    static let northern = Property(key: "the_northern", name: "The Northern", pms: .realpage, siteID: "5375283")

    /// Loads real OneSite downloads of The Northern as `ownerdash load` does (the registry plus The Northern), then
    /// syncs it; returns the sync's outcome.
    func syncRealNorthern(_ files: [String]) throws -> PropertySyncOutcome? {
        var configuration = try Configuration.load(path: repositoryRoot.appendingPathComponent("report_definitions.json").path)
        configuration.properties.append(Self.northern)
        let loader = ReportFileLoader(store: raw, configuration: configuration, runID: RunID("real"))
        for file in files {
            _ = try loader.load(path: repositoryRoot.appendingPathComponent("Tests/Fixtures/real-onesite/\(file)").path)
        }
        return sync([Self.northern]).first
    }

    /// The date `days` before the fixture's property date.
    static func daysAgo(_ days: Int) -> String { LocalDate(iso: asOf)!.adding(days: -days).iso }

    /// Records a loaded snapshot (even an empty one), as the loaders do.
    func loaded(_ reportType: String, asOf: String = asOf, property: String = property.key) throws {
        try raw.database.prepare("""
            INSERT OR IGNORE INTO loaded_artifacts (report_type, property_id, as_of_date, artifact, artifact_sha256, run_id, row_count)
            VALUES (:report, :property, :as_of, :artifact, 'sha', 'run', 0)
            """).execute([":report": .text(reportType), ":property": .text(property), ":as_of": .text(asOf),
                          ":artifact": .text("landing/run/realpage/\(property)/\(reportType)")])
    }

    /// Records every report and RPX operation the rules read as loaded for `asOf` (empty unless rows are inserted).
    func loadedEverything(asOf: String = asOf, property: String = property.key) throws {
        for report in Self.reportTypes.values { try loaded(report, asOf: asOf, property: property) }
    }

    /// Inserts one raw row with its lineage; its snapshot is recorded in loaded_artifacts.
    func insert(_ table: String, _ values: [String: SQLValue], asOf: String = asOf, property: String = property.key) throws {
        let key = "\(table)/\(property)/\(asOf)"
        let row = (nextRow[key] ?? 0) + 1
        nextRow[key] = row
        var all = values
        all["lineage_id"] = .integer(try RawLineage.id(raw.database, runID: "run", propertyID: property, asOf: asOf,
                                                       artifact: "landing/run/realpage/\(property)/\(table)", sha256: "sha"))
        all["property_id"] = .text(property); all["as_of_date"] = .text(asOf)
        all["source_row"] = .integer(Int64(row))
        let columns = all.keys.sorted()
        try raw.database.prepare("""
            INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES (\(columns.map { ":" + $0 }.joined(separator: ", ")))
            """).execute(Dictionary(uniqueKeysWithValues: all.map { (":" + $0.key, $0.value) }))
        if let report = Self.reportTypes[table] { try loaded(report, asOf: asOf, property: property) }
    }

    /// A getsitelist site with its SysDate (the property date).
    func site(sysDate: String?, asOf: String = asOf, property: String = property.key) throws {
        try insert("realpage_sites", ["site_id": .text("5000001"), "site_name": .text("Test RealPage"),
                                      "sys_date": SQLValue(sysDate)], asOf: asOf, property: property)
    }

    /// How unitlist flags a unit (the simulator's rpx.py encoding of each status).
    enum UnitFlags {
        case occupied, notice(String), noticeLeased(String), vacant, vacantLeased(String), model, down
    }

    /// An RPX unitlist unit: id `u<number>`, floorplan id `fp-a` "One Bedroom", building 01, 700 sq ft.
    func unit(_ number: String, _ flags: UnitFlags, floorplanID: String = "fp-a", floorplanName: String = "One Bedroom",
              building: String = "01", market: Double = 1500, sqft: Int = 700, madeReady: String? = nil,
              available: String? = nil, reason: String? = nil, designation: String? = nil,
              asOf: String = asOf, property: String = property.key) throws {
        var vacant = 1, reserved = 0
        var noticeFor: String?, expectedMoveIn: String?, why = reason, named = designation ?? "Conventional"
        switch flags {
        case .occupied: vacant = 0
        case .notice(let date): vacant = 0; noticeFor = date
        case .noticeLeased(let date): vacant = 0; noticeFor = date; reserved = 1; expectedMoveIn = "2027-01-15"
        case .vacant: break
        case .vacantLeased(let moveIn): reserved = 1; expectedMoveIn = moveIn
        case .model: why = why ?? "Model unit"; named = designation ?? "N/A"
        case .down: why = why ?? "Down unit"; named = designation ?? "N/A"
        }
        try insert("realpage_units", [
            "unit_id": .text("u\(number)"), "unit_number": .text(number), "building_id": .text("b\(building)"),
            "building_number": .text(building), "building_name": .text("Building \(building)"),
            "floorplan_id": .text(floorplanID), "floorplan_name": .text(floorplanName),
            "gross_sqft": .integer(Int64(sqft + 12)), "rentable_sqft": .integer(Int64(sqft)), "vacant": .integer(Int64(vacant)),
            "available": .integer(0), "available_date": SQLValue(available), "unit_deleted": .integer(0),
            "unit_designation": .text(named), "market_rent": .real(market), "reason_not_available": SQLValue(why),
            "made_ready_date": SQLValue(madeReady), "unit_reserved": .integer(Int64(reserved)),
            "expected_move_in_date": SQLValue(expectedMoveIn), "on_notice_for_date": SQLValue(noticeFor),
            "fp_report_unit_occupancy": .integer(1),
        ], asOf: asOf, property: property)
    }

    /// A getresidentlistinfo member row (the head of household unless `head` is false).
    func resident(household: String, member: String? = nil, unit: String, status: String, lease: String? = nil,
                  type: String = "First Lease", head: Bool = true, relationship: String? = nil,
                  first: String = "Ann", last: String = "Lee", balance: Double = 0, moveIn: String? = nil,
                  moveOut: String? = nil, noticeGiven: String? = nil, noticeFor: String? = nil, begin: String? = nil,
                  end: String? = nil, signed: String? = nil, email: String? = nil, phone: String? = nil,
                  asOf: String = asOf, property: String = property.key) throws {
        try insert("realpage_residents", [
            "resident_member_id": .text(member ?? "m\(household)"), "household_id": .text(household),
            "lease_id": SQLValue(lease), "unit_id": .text("u\(unit)"), "unit_number": .text(unit),
            "first_name": .text(first), "last_name": .text(last), "lease_status": .text(status), "lease_type": .text(type),
            "relationship": .text(relationship ?? (head ? "Head of household" : "Co-Head")),
            "head_of_household": .integer(head ? 1 : 0), "balance": .real(balance), "pending_balance": .real(0),
            "in_eviction": .integer(0), "begin_date": SQLValue(begin), "end_date": SQLValue(end),
            "move_in_date": SQLValue(moveIn), "move_out_date": SQLValue(moveOut),
            "notice_given_date": SQLValue(noticeGiven), "notice_for_date": SQLValue(noticeFor),
            "lease_signed_date": SQLValue(signed), "email": SQLValue(email), "phone": SQLValue(phone),
        ], asOf: asOf, property: property)
    }

    /// A getleaseinfo lease.
    func lease(_ id: String, household: String, unit: String, status: String = "Current", type: String = "First (Lease)",
               prior: String? = nil, signed: String? = nil, begin: String? = nil, end: String? = nil,
               moveIn: String? = nil, rent: Double = 1400, deposit: Double = 0, monthToMonth: String? = nil,
               asOf: String = asOf) throws {
        try insert("realpage_leases", [
            "lease_id": .text(id), "resh_id": .text(household), "unit_id": .text("u\(unit)"),
            "prior_lease_id": SQLValue(prior), "lease_signed_date": SQLValue(signed), "lease_begin_date": SQLValue(begin),
            "lease_end_date": SQLValue(end), "move_in_date": SQLValue(moveIn), "month_to_month_date": SQLValue(monthToMonth),
            "lease_status_text": .text(status), "type_text": .text(type), "evict": .integer(0), "rent": .real(rent),
            "current_balance": .real(0), "security_deposit": .real(deposit), "head_of_household_name": .text("Ann Lee"),
        ], asOf: asOf)
    }

    /// A Rent Roll row.
    func rentRoll(_ unit: String, _ status: String, floorplan: String? = "A1", building: String? = nil,
                  name: String? = nil, residentID: String? = nil, market: Double = 1500, actual: Double? = nil,
                  sqft: Int = 700, moveIn: String? = nil, moveOut: String? = nil, balance: Double? = nil,
                  asOf: String = asOf, property: String = property.key) throws {
        try insert("realpage_rent_roll", [
            "unit_number": .text(unit), "building": SQLValue(building), "floorplan": SQLValue(floorplan),
            "sqft": .integer(Int64(sqft)), "resident_id": SQLValue(residentID), "resident_name": SQLValue(name),
            "status": .text(status), "market_rent": .real(market), "actual_rent": SQLValue(actual),
            "move_in_date": SQLValue(moveIn), "move_out_date": SQLValue(moveOut), "balance": SQLValue(balance),
        ], asOf: asOf, property: property)
    }

    /// A Box Score floorplan row: counts by status (vacant = vacant not leased).
    func boxScore(_ floorplan: String, group: String, occupied: Int = 0, notice: Int = 0, noticeLeased: Int = 0,
                  vacant: Int = 0, vacantLeased: Int = 0, model: Int = 0, down: Int = 0, asOf: String = asOf) throws {
        let occupiedUnits = occupied + notice + noticeLeased
        let vacantUnits = vacant + vacantLeased + model + down
        try insert("realpage_box_score", [
            "floorplan_group": .text(group), "floorplan": .text(floorplan),
            "total_units": .integer(Int64(occupiedUnits + vacantUnits)), "occupied_units": .integer(Int64(occupiedUnits)),
            "vacant_units": .integer(Int64(vacantUnits)), "vacant_not_leased": .integer(Int64(vacant)),
            "vacant_leased": .integer(Int64(vacantLeased)), "occupied_no_notice": .integer(Int64(occupied)),
            "occupied_on_notice": .integer(Int64(notice + noticeLeased)), "notice_leased": .integer(Int64(noticeLeased)),
            "model_units": .integer(Int64(model)), "down_units": .integer(Int64(down)),
        ], asOf: asOf)
    }

    /// A Delinquent and Prepaid account row.
    func delinquency(_ unit: String, residentID: String?, name: String, status: String = "Current resident",
                     balance: Double, aging: [Double] = [0, 0, 0, 0], prepaid: Double? = nil, asOf: String = asOf) throws {
        try insert("realpage_delinquency", [
            "unit_number": .text(unit), "resident_id": SQLValue(residentID), "resident_name": .text(name),
            "resident_status": .text(status), "current_balance": .real(balance), "balance_0_30": .real(aging[0]),
            "balance_31_60": .real(aging[1]), "balance_61_90": .real(aging[2]), "balance_over_90": .real(aging[3]),
            "prepaid": SQLValue(prepaid),
        ], asOf: asOf)
    }

    /// An Activity report row.
    func activity(_ date: String, _ type: String, unit: String? = nil, name: String = "Diaz, Pat",
                  source: String? = "Zillow", agent: String = "Alex Rivera", asOf: String = asOf) throws {
        try insert("realpage_activity", [
            "activity_date": .text(date), "activity_type": .text(type), "unit_number": SQLValue(unit),
            "party_name": .text(name), "source": SQLValue(source), "agent": .text(agent),
        ], asOf: asOf)
    }

    /// A Monthly Activity Summary period row.
    func monthlySummary(_ month: String, moveIns: Int, moveOuts: Int, renewals: Int?, notices: Int?, asOf: String = asOf) throws {
        try insert("realpage_monthly_summary", [
            "month": .text(month), "move_ins": .integer(Int64(moveIns)), "move_outs": .integer(Int64(moveOuts)),
            "renewals": SQLValue(renewals), "notices": SQLValue(notices),
        ], asOf: asOf)
    }

    /// Syncs the properties (default: the fixture's one) with the production Synchronizer.
    @discardableResult
    func sync(_ properties: [Property] = [property], runID: String = "20261120T000000Z-test") -> [PropertySyncOutcome] {
        Synchronizer(store: store, runID: runID).sync(properties, log: Diagnostics(sink: { _ in }))
    }

    /// Rows of a query on unified.db (raw attached).
    func rows(_ sql: String) throws -> [[SQLValue]] { try store.database.query(sql) }

    /// One row per key (first column), the other columns as SQL values.
    func keyed(_ sql: String) throws -> [String: [SQLValue]] {
        Dictionary(try rows(sql).map { ($0[0].textValue ?? "", Array($0.dropFirst())) }) { first, _ in first }
    }

    /// Texts of a one-column query.
    func texts(_ sql: String) throws -> [String?] { try rows(sql).map { $0.first?.textValue } }
}

extension RealPageFixture {
    /// Loads Tests/Fixtures/soap/<name> (an RPX response) into the raw store with the production loader, as the
    /// fixture's property and property date.
    func loadSOAP(_ name: String, _ operation: RPXOperation) throws {
        let path = repositoryRoot.appendingPathComponent("Tests/Fixtures/soap/\(name)").path
        _ = try RPXArtifactLoader(store: raw, runID: RunID("run")).load(
            path: path, operation: operation, property: Self.property, asOf: LocalDate(iso: Self.asOf)!)
    }
}
