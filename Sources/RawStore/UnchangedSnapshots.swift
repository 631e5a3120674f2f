import OwnerDashCore
import SQLiteKit

/// Snapshots stored when they change: a unit, resident or lease list (RPX or Yardi SOAP) or a report whose rows
/// are identical to the previous snapshot of the same (report or operation, property) is recorded in
/// `loaded_artifacts` as "unchanged since run X" (`stored_as_of` = the as-of date whose rows hold it,
/// `unchanged_since_run` = the run that stored them) and its rows are not stored again.
///
/// "Identical" is decided by `rows_sha256`, a SHA-256 over the parsed rows (table, column names and values, in
/// order), not by the artifact's bytes: a report prints its run time and as-of date in its title block, so two
/// nights' files always differ even when every row is the same.
///
/// Only snapshots the sync reads whole, by one as-of date, are stored once. The ledgers, the Activity report,
/// closed make-ready turns, invoices, lease charges and the financial statements are read across their earlier
/// snapshots (history by month or by window), and `getsitelist` dates the property: those are stored every time.
public enum UnchangedSnapshots {
    /// RPX operations (`loaded_artifacts.report_type`) stored once while unchanged.
    public static let rpxOperations: Set<String> = [
        "getbuildings", "unitlist", "getresidentlistinfo", "getleaseinfo", "getrentableitems", "getscheduledcharges",
    ]
    /// Yardi operations (`loaded_artifacts.operation`) stored once while unchanged.
    public static let yardiOperations: Set<String> = [
        "GetPropertyConfigurations", "GetUnitInformation", "GetResidentsByStatus", "AvailableUnits_Login",
        "GetYardiGuestActivity_Login", "GetServiceRequest_Search",
    ]
    /// OneSite reports stored once while unchanged: the lists and counts as of a day. The financial reports (by
    /// fiscal period or posting window) and the ones read across snapshots (Activity, closed make-ready turns) are
    /// stored every time.
    public static let reports: Set<String> = [
        "rent_roll", "box_score", "delinquency", "monthly_summary", "make_ready_summary", "make_ready_analysis",
        "lease_expiration", "renewal_detail", "projected_occupancy", "lease_details", "lease_summary",
        "primary_advertising_source", "move_out_reasons", "leasing_activity_summary", "concessions",
    ]

    /// Whether a snapshot of this report or operation is stored once while unchanged.
    public static func storesOnce(_ key: String) -> Bool {
        rpxOperations.contains(key) || yardiOperations.contains(key) || reports.contains(key)
    }

    /// The snapshot an unchanged one refers to: where its rows are and which run stored them.
    struct Stored {
        var rowsSHA256: String?
        var asOf: String
        var runID: String
    }

    /// The latest snapshot of (`key`, property) dated before `asOf`, resolved to the snapshot holding its rows.
    static func previous(_ database: Database, keyColumn: String, key: String, property: String,
                         asOf: LocalDate) throws -> Stored? {
        guard let row = try database.query("""
            SELECT rows_sha256, coalesce(stored_as_of, as_of_date), coalesce(unchanged_since_run, run_id)
            FROM loaded_artifacts
            WHERE \(keyColumn) = :key AND property_id = :property AND as_of_date < :as_of
            ORDER BY as_of_date DESC LIMIT 1
            """, [":key": .text(key), ":property": .text(property), ":as_of": .text(asOf.iso)]).first,
              let date = row[1].textValue, let run = row[2].textValue else { return nil }
        return Stored(rowsSHA256: row[0].textValue, asOf: date, runID: run)
    }

    /// Before the rows of (`key`, property, `asOf`) are deleted (a new snapshot of that date replaces them): the
    /// later snapshots recorded as unchanged since it would lose their rows, so the rows move to the earliest of
    /// them, which becomes the stored one the others refer to. Nothing to do when none refers to it.
    static func releaseDependents(_ database: Database, keyColumn: String, key: String, property: String,
                                  asOf: LocalDate, tables: [String], totals: Bool) throws {
        let base: [String: SQLValue] = [":key": .text(key), ":property": .text(property), ":as_of": .text(asOf.iso)]
        guard let first = try database.scalar("""
            SELECT min(as_of_date) FROM loaded_artifacts
            WHERE \(keyColumn) = :key AND property_id = :property AND stored_as_of = :as_of
            """, base)?.textValue else { return }
        let moved = base.merging([":first": .text(first)]) { $1 }
        for table in tables {
            try database.prepare("UPDATE \(table) SET as_of_date = :first WHERE property_id = :property AND as_of_date = :as_of")
                .execute(moved.filter { $0.key != ":key" })
        }
        if totals {
            try database.prepare("""
                UPDATE loaded_report_totals SET as_of_date = :first
                WHERE report_type = :key AND property_id = :property AND as_of_date = :as_of
                """).execute(moved)
        }
        try database.prepare("""
            UPDATE loaded_artifacts SET stored_as_of = NULL, unchanged_since_run = NULL
            WHERE \(keyColumn) = :key AND property_id = :property AND as_of_date = :first
            """).execute(moved.filter { $0.key != ":as_of" })
        try database.prepare("""
            UPDATE loaded_artifacts SET stored_as_of = :first
            WHERE \(keyColumn) = :key AND property_id = :property AND stored_as_of = :as_of
            """).execute(moved)
    }

    /// Records the snapshot's content hash and, when it is unchanged, where its rows are (after its
    /// `loaded_artifacts` row was written).
    static func record(_ database: Database, keyColumn: String, key: String, property: String, asOf: LocalDate,
                       rowsSHA256: String?, unchangedSince stored: Stored?) throws {
        try database.prepare("""
            UPDATE loaded_artifacts SET rows_sha256 = :rows_sha, stored_as_of = :stored_as_of,
                                        unchanged_since_run = :stored_run
            WHERE \(keyColumn) = :key AND property_id = :property AND as_of_date = :as_of
            """).execute([":key": .text(key), ":property": .text(property), ":as_of": .text(asOf.iso),
                          ":rows_sha": SQLValue(rowsSHA256), ":stored_as_of": SQLValue(stored?.asOf),
                          ":stored_run": SQLValue(stored?.runID)])
    }
}

/// A SHA-256 over parsed rows: table, then each column's name, type and value, with separators that cannot occur
/// inside the encoding of a value's length, so two different row sets never hash alike by concatenation.
struct RowsDigest {
    private var hasher = SHA256()

    mutating func add(table: String, _ row: [(String, SQLValue)]) {
        field(table)
        for (column, value) in row {
            field(column)
            switch value {
            case .null: field("n")
            case .integer(let number): field("i\(number)")
            case .real(let number): field("r\(number.bitPattern)")
            case .text(let text): field("t" + text)
            case .blob(let bytes): field("b\(bytes.count)"); hasher.update(bytes)
            }
        }
        field("\n")
    }

    /// Each field as its UTF-8 length, a colon, then its bytes.
    private mutating func field(_ text: String) {
        let bytes = Array(text.utf8)
        hasher.update(Array("\(bytes.count):".utf8))
        hasher.update(bytes)
    }

    mutating func hex() -> String { hasher.finalizeHex() }
}
