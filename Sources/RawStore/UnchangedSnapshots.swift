import LibCryptoKit
import OwnerDashCore
import SQLiteKit

/// Snapshots stored when they change: a unit, resident or lease list (RPX or Yardi SOAP) or a report whose rows
/// are identical to the previous snapshot of the same (report or operation, property) is recorded in
/// `loaded_artifacts` as "unchanged since run X" (`stored_as_of` = the as-of date whose rows hold it,
/// `unchanged_since_run` = the run that stored them) and its rows are not stored again.
///
/// "Identical" is decided by `rows_sha256`, a SHA-256 over the parsed rows (table, column names and values, in
/// order), not by the artifact's bytes: a report prints its run time and as-of date in its title block, so two
/// nights' files always differ even when every row is the same. An RPX whole-state list loaded by record is
/// identical when its records are the night before's, byte for byte and in order (`RecordLoad`).
///
/// Only snapshots the sync reads whole, by one as-of date, are stored once. The ledgers, the Activity report,
/// closed make-ready turns, invoices, lease charges and the financial statements are read across their earlier
/// snapshots (history by month or by window), and `getsitelist` dates the property: those are stored every time.
public enum UnchangedSnapshots {
    /// RPX operations (`loaded_artifacts.report_type`) stored once while unchanged.
    public static let rpxOperations: Set<String> = [
        "getbuildings", "unitlist", "getunitlist", "getresidentlistinfo", "getleaseinfo", "getrentableitems",
        "getscheduledcharges",
    ]
    /// Yardi operations (`loaded_artifacts.operation`) stored once while unchanged.
    public static let yardiOperations: Set<String> = [
        "GetPropertyConfigurations", "GetUnitInformation", "GetResidentsByStatus", "AvailableUnits_Login",
        "GetYardiGuestActivity_Login", "GetServiceRequest_Search",
    ]
    /// OneSite reports stored once while unchanged: the lists and counts as of a day, and the Lost Rent Summary,
    /// which no sync reads (raw only: each snapshot stands alone, and the month's last is the whole period). The
    /// financial reports the sync reads by fiscal period or posting window and the ones read across snapshots
    /// (Activity, closed make-ready turns) are stored every time.
    public static let reports: Set<String> = [
        "rent_roll", "box_score", "delinquency", "monthly_summary", "make_ready_summary", "make_ready_analysis",
        "lease_expiration", "renewal_detail", "projected_occupancy", "lease_details", "lease_summary",
        "primary_advertising_source", "move_out_reasons", "leasing_activity_summary", "concessions", "lost_rent_summary",
    ]

    /// Whether a snapshot of this report or operation is stored once while unchanged.
    public static func storesOnce(_ key: String) -> Bool {
        rpxOperations.contains(key) || yardiOperations.contains(key) || reports.contains(key)
    }

    /// The snapshot an unchanged one refers to: where its rows are and which run stored them; and of the snapshot
    /// itself, what a load by record compares with (`RecordLoad`).
    struct Stored {
        var rowsSHA256: String?
        var asOf: String
        var runID: String
        /// The snapshot's own artifact, its rows and the build that decoded them (nil unless asked for).
        var artifactSHA256: String?
        var rowCount: Int64?
        var decodedBy: String? = nil
    }

    /// The latest snapshot of (`key`, property) dated before `asOf`, resolved to the snapshot holding its rows.
    /// `decodingBuild`: also read its `decoded_by` (realpage_raw has the column).
    static func previous(_ database: Database, keyColumn: String, key: String, property: String,
                         asOf: LocalDate, decodingBuild: Bool = false) throws -> Stored? {
        guard let row = try database.query("""
            SELECT rows_sha256, coalesce(stored_as_of, as_of_date), coalesce(unchanged_since_run, run_id),
                   artifact_sha256, row_count\(decodingBuild ? ", decoded_by" : "")
            FROM loaded_artifacts
            WHERE \(keyColumn) = :key AND property_id = :property AND as_of_date < :as_of
            ORDER BY as_of_date DESC LIMIT 1
            """, [":key": .text(key), ":property": .text(property), ":as_of": .text(asOf.iso)]).first,
              let date = row[1].textValue, let run = row[2].textValue else { return nil }
        return Stored(rowsSHA256: row[0].textValue, asOf: date, runID: run, artifactSHA256: row[3].textValue,
                      rowCount: row[4].integerValue, decodedBy: decodingBuild ? row[5].textValue : nil)
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

/// A SHA-256 over parsed rows: each row's table and column names (written again only when they differ from the
/// previous row's), then its values, in a prefix-free binary encoding (a tag byte, then a fixed-size number or a
/// length and the bytes), so two different row sets never hash alike by concatenation. Rows are encoded into one
/// buffer that is hashed every 64 KiB: a 500,000-row rent roll hashes in a fraction of its parse time (the text
/// encoding this replaced took a third of the load).
struct RowsDigest {
    private let hasher = SHA256()
    private let buffer = EncodingBuffer(capacity: 1 << 16)
    /// The table of the previous row: the next row of the same table does not repeat its names. A table's rows
    /// always come with the same columns (one record kind per table; the writer's statements rely on it too).
    private var shapeTable: String?
    /// The columns of `shapeTable`, kept to check that invariant in debug builds (tests).
    private var shapeColumns: [String] = []

    mutating func add(table: String, _ row: [(String, SQLValue)]) {
        if shapeTable == table {
            assert(shapeColumns.elementsEqual(row.lazy.map(\.0)), "\(table): a row with other columns than the table's first")
        } else {
            shapeTable = table
            shapeColumns = row.map(\.0)
            text(tag: "h", table)
            word(tag: "c", UInt64(row.count))
            for (column, _) in row { text(tag: "s", column) }
        }
        reserve(1)
        buffer.append(UInt8(ascii: "v"))
        for (_, value) in row {
            switch value {
            case .null: reserve(1); buffer.append(UInt8(ascii: "n"))
            case .integer(let number): word(tag: "i", UInt64(bitPattern: number))
            case .real(let number): word(tag: "r", number.bitPattern)
            case .text(let text): self.text(tag: "t", text)
            case .blob(let blob): blob.withUnsafeBytes { bytes(tag: "b", $0) }
            }
        }
    }

    mutating func hex() -> String {
        flush()
        return hasher.finalizeHex()
    }

    private func word(tag: Unicode.Scalar, _ value: UInt64) {
        reserve(9)
        buffer.append(UInt8(ascii: tag))
        buffer.append(littleEndian: value)
    }

    private func text(tag: Unicode.Scalar, _ text: String) {
        var text = text
        text.withUTF8 { bytes(tag: tag, UnsafeRawBufferPointer($0)) }
    }

    private func bytes(tag: Unicode.Scalar, _ bytes: UnsafeRawBufferPointer) {
        reserve(5)
        buffer.append(UInt8(ascii: tag))
        buffer.append(littleEndian: UInt32(truncatingIfNeeded: bytes.count))
        if bytes.count > buffer.capacity / 2 {
            // A value larger than half the buffer is hashed where it lies, after what the buffer holds.
            flush()
            hasher.update(bytes)
        } else {
            reserve(bytes.count)
            buffer.append(bytes)
        }
    }

    /// Hashes what the buffer holds when `count` more bytes would not fit.
    private func reserve(_ count: Int) {
        if buffer.count + count > buffer.capacity { flush() }
    }

    private func flush() {
        hasher.update(buffer.contents)
        buffer.removeAll()
    }
}

/// A fixed block of memory filled front to back: the rows' encoding, written without `Array`'s checks per byte.
private final class EncodingBuffer {
    let capacity: Int
    private let storage: UnsafeMutableRawPointer
    // Written only by the one thread that owns the digest; unchecked, or every byte appended pays a dynamic check.
    @exclusivity(unchecked) private(set) var count = 0

    init(capacity: Int) {
        self.capacity = capacity
        storage = .allocate(byteCount: capacity, alignment: 8)
    }

    deinit { storage.deallocate() }

    var contents: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: storage, count: count) }

    /// The caller has made room (`RowsDigest.reserve`).
    func append(_ byte: UInt8) {
        storage.storeBytes(of: byte, toByteOffset: count, as: UInt8.self)
        count += 1
    }

    func append<Integer: FixedWidthInteger>(littleEndian value: Integer) {
        storage.storeBytes(of: value.littleEndian, toByteOffset: count, as: Integer.self)
        count += MemoryLayout<Integer>.size
    }

    func append(_ bytes: UnsafeRawBufferPointer) {
        if let base = bytes.baseAddress, bytes.count > 0 { (storage + count).copyMemory(from: base, byteCount: bytes.count) }
        count += bytes.count
    }

    func removeAll() { count = 0 }
}
