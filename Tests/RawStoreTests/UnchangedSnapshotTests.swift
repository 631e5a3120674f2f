import Foundation
import LibCryptoKit
import OwnerDashCore
import SOAP
import SQLiteKit
import Testing
@testable import RawStore

/// Snapshots stored when they change: a second night's identical unit list or report is recorded as unchanged since
/// the first run, its rows not stored again; a changed one is stored; replacing a stored snapshot others refer to
/// hands its rows to them first.
@Suite struct UnchangedSnapshotTests {
    let day1 = LocalDate(year: 2026, month: 11, day: 20)!
    let day2 = LocalDate(year: 2026, month: 11, day: 21)!
    let day3 = LocalDate(year: 2026, month: 11, day: 22)!

    /// The digest's encoding is a stored contract: `rows_sha256` of last night's snapshot is compared with tonight's,
    /// so a change of encoding would make every snapshot look changed once. Held against the encoding written out by
    /// hand: the table and its column names once (again when the table changes), then each row's tagged values.
    @Test func theRowsDigestEncodesAsItAlwaysHas() {
        func le<T: FixedWidthInteger>(_ value: T) -> [UInt8] { withUnsafeBytes(of: value.littleEndian) { Array($0) } }
        func text(_ tag: Character, _ value: String) -> [UInt8] {
            [tag.asciiValue!] + le(UInt32(value.utf8.count)) + Array(value.utf8)
        }
        let long = String(repeating: "é long note ", count: 4_000)   // past half the buffer: hashed where it lies
        let rows: [(String, [(String, SQLValue)])] = [
            ("t1", [("a", .integer(-7)), ("b", .text("101")), ("c", .null)]),
            ("t1", [("a", .integer(8)), ("b", .text(long)), ("c", .real(1450.25))]),
            ("t2", [("x", .blob([1, 2, 3]))]),
            ("t1", [("a", .integer(9)), ("b", .text("")), ("c", .null)]),
        ]
        var expected: [UInt8] = []
        var previous: String?
        for (table, row) in rows {
            if previous != table {
                expected += text("h", table) + [UInt8(ascii: "c")] + le(UInt64(row.count))
                for (column, _) in row { expected += text("s", column) }
                previous = table
            }
            expected.append(UInt8(ascii: "v"))
            for (_, value) in row {
                switch value {
                case .null: expected.append(UInt8(ascii: "n"))
                case .integer(let number): expected += [UInt8(ascii: "i")] + le(UInt64(bitPattern: number))
                case .real(let number): expected += [UInt8(ascii: "r")] + le(number.bitPattern)
                case .text(let value): expected += text("t", value)
                case .blob(let blob): expected += [UInt8(ascii: "b")] + le(UInt32(blob.count)) + blob
                }
            }
        }
        var digest = RowsDigest()
        for (table, row) in rows { digest.add(table: table, row) }
        #expect(digest.hex() == SHA256.hexDigest(of: expected))
    }

    @Test func anIdenticalSecondUnitListIsStoredOnce() throws {
        let fixture = try YardiFixture()
        let path = try fixture.artifact("yardi_get_unit_information.xml")
        let first = try fixture.loader(run: "run-1").load(path: path, operation: .getUnitInformation,
                                                          property: fixture.property, asOf: day1)
        let second = try fixture.loader(run: "run-2").load(path: path, operation: .getUnitInformation,
                                                           property: fixture.property, asOf: day2)
        #expect(first.unchangedSinceRun == nil && first.rows == 4)
        #expect(second.unchangedSinceRun == "run-1" && second.rows == 4 && !second.alreadyLoaded)
        // Four unit rows in all, every one of the first night's.
        #expect(try fixture.rows("SELECT as_of_date, count(*) FROM yardi_units GROUP BY as_of_date") == [[.text("2026-11-20"), .integer(4)]])
        #expect(try fixture.rows("""
            SELECT as_of_date, run_id, stored_as_of, unchanged_since_run, row_count, rows_sha256 IS NOT NULL
            FROM loaded_artifacts ORDER BY as_of_date
            """) == [[.text("2026-11-20"), .text("run-1"), .null, .null, .integer(4), .integer(1)],
                     [.text("2026-11-21"), .text("run-2"), .text("2026-11-20"), .text("run-1"), .integer(4), .integer(1)]])
    }

    @Test func aChangedUnitListIsStoredAndAThirdIdenticalNightRefersToIt() throws {
        let fixture = try YardiFixture()
        let original = try fixture.artifact("yardi_get_unit_information.xml")
        let changed = try fixture.artifact("yardi_get_unit_information.xml", as: "changed.xml") {
            $0.replacingOccurrences(of: "1715", with: "1745")
        }
        _ = try fixture.loader(run: "run-1").load(path: original, operation: .getUnitInformation, property: fixture.property, asOf: day1)
        let second = try fixture.loader(run: "run-2").load(path: changed, operation: .getUnitInformation, property: fixture.property, asOf: day2)
        let third = try fixture.loader(run: "run-3").load(path: changed, operation: .getUnitInformation, property: fixture.property, asOf: day3)
        #expect(second.unchangedSinceRun == nil)
        #expect(third.unchangedSinceRun == "run-2")
        #expect(try fixture.rows("SELECT as_of_date, market_rent FROM yardi_units WHERE unit_code = '1101' ORDER BY 1")
                == [[.text("2026-11-20"), .real(1715)], [.text("2026-11-21"), .real(1745)]])
    }

    @Test func replacingAStoredSnapshotHandsItsRowsToTheNightsThatReferToIt() throws {
        let fixture = try YardiFixture()
        let original = try fixture.artifact("yardi_get_unit_information.xml")
        let corrected = try fixture.artifact("yardi_get_unit_information.xml", as: "corrected.xml") {
            $0.replacingOccurrences(of: "1715", with: "1799")
        }
        for (run, day) in [("run-1", day1), ("run-2", day2), ("run-3", day3)] {
            _ = try fixture.loader(run: run).load(path: original, operation: .getUnitInformation, property: fixture.property, asOf: day)
        }
        // Day 1 loaded again with other rows (a replay after a fix): days 2 and 3 keep the rows they had.
        _ = try fixture.loader(run: "run-4").load(path: corrected, operation: .getUnitInformation, property: fixture.property, asOf: day1)
        #expect(try fixture.rows("SELECT as_of_date, count(*), sum(market_rent * (unit_code = '1101')) FROM yardi_units GROUP BY as_of_date ORDER BY 1")
                == [[.text("2026-11-20"), .integer(4), .real(1799)], [.text("2026-11-21"), .integer(4), .real(1715)]])
        #expect(try fixture.rows("SELECT as_of_date, stored_as_of FROM loaded_artifacts ORDER BY 1")
                == [[.text("2026-11-20"), .null], [.text("2026-11-21"), .null], [.text("2026-11-22"), .text("2026-11-21")]])
    }

    @Test func ledgersAreMergedNeverRecordedUnchanged() throws {
        // The ledger is one row per transaction merged from every answer (LedgerMerge), not a snapshot: a second
        // night's identical answer is recorded as loaded, never as unchanged, and keeps every transaction once.
        let fixture = try YardiFixture()
        let path = try fixture.artifact("yardi_get_resident_transactions.xml")
        _ = try fixture.loader(run: "run-1").load(path: path, operation: .getResidentTransactions, property: fixture.property, asOf: day1)
        let afterFirst = try fixture.rows("SELECT count(*) FROM yardi_transactions")
        let second = try fixture.loader(run: "run-2").load(path: path, operation: .getResidentTransactions, property: fixture.property, asOf: day2)
        #expect(second.unchangedSinceRun == nil)
        #expect(try fixture.rows("SELECT count(*) FROM yardi_transactions") == afterFirst)
        #expect(try fixture.rows("SELECT count(*) FROM loaded_artifacts WHERE operation = 'GetResidentTransactions_Login'")
                == [[.integer(2)]])
    }

    /// getunitlist (read only at its latest snapshot, for the floor) and the Lost Rent Summary (read by no sync) are
    /// stored once while unchanged: in the year benchmark they were the two largest raw tables, a full copy a night.
    @Test func unitObjectsAndLostRentAreStoredOnceWhileUnchanged() throws {
        let fixture = try LoaderFixture()
        let nexus = Property(key: "nexus_east", name: "Nexus East", pms: .realpage, siteID: "5472172")
        let rpx = RPXArtifactLoader(store: fixture.store, runID: RunID("run-1"))
        let first = try rpx.load(path: try fixture.soapCopy("rpx_getunitlist.xml"), operation: .getunitlist, property: nexus, asOf: day1)
        let second = try RPXArtifactLoader(store: fixture.store, runID: RunID("run-2"))
            .load(path: try fixture.soapCopy("rpx_getunitlist.xml"), operation: .getunitlist, property: nexus, asOf: day2)
        #expect(first.rows > 0 && first.unchangedSinceRun == nil && second.unchangedSinceRun == "run-1")
        #expect(try fixture.store.database.query("SELECT DISTINCT as_of_date FROM realpage_unit_objects") == [[.text("2026-11-20")]])

        let file = fixture.report("lost_rent_summary.xlsx")
        let night1 = try fixture.loader(run: "run-1").load(path: file, hints: ReportFileHints(propertyKey: "nexus_east", asOf: day1))
        let night2 = try fixture.loader(run: "run-2").load(path: file, hints: ReportFileHints(propertyKey: "nexus_east", asOf: day2))
        #expect(night1.rows > 0 && night1.unchangedSinceRun == nil && night2.unchangedSinceRun == "run-1")
        #expect(try fixture.store.database.query("SELECT DISTINCT as_of_date FROM realpage_lost_rent") == [[.text("2026-11-20")]])
    }

    @Test func anIdenticalReportOfTheNextDayIsStoredOnceWithItsPrintedTotals() throws {
        let fixture = try LoaderFixture()
        let file = fixture.report("box_score_nexus_east.xlsx")
        let first = try fixture.loader(run: "run-1").load(path: file, hints: ReportFileHints(asOf: day1))
        let second = try fixture.loader(run: "run-2").load(path: file, hints: ReportFileHints(asOf: day2))
        #expect(first.unchangedSinceRun == nil && second.unchangedSinceRun == "run-1")
        #expect(second.rows == first.rows && !second.alreadyLoaded)
        #expect(try fixture.store.database.query("SELECT DISTINCT as_of_date FROM realpage_box_score") == [[.text("2026-11-20")]])
        #expect(try fixture.store.database.query("SELECT DISTINCT as_of_date FROM loaded_report_totals") == [[.text("2026-11-20")]])
        #expect(try fixture.store.database.query("SELECT stored_as_of FROM loaded_artifacts WHERE as_of_date = '2026-11-21'")
                == [[.text("2026-11-20")]])
    }
}

/// Raw retention: prune keeps the policy's dates of the whole-snapshot kinds, hands rows of a removed stored night to
/// a kept unchanged one, leaves the ledgers alone and gives the pages back.
@Suite struct RawRetentionTests {
    @Test func pruneKeepsTheLastDaysAndMonthEndsAndShrinksTheFile() throws {
        let fixture = try YardiFixture()
        let first = LocalDate(year: 2026, month: 9, day: 1)!
        // 61 nights (Sep 1 - Oct 31), each unit list a little different (every one stored), plus a ledger each night.
        let ledger = try fixture.artifact("yardi_get_resident_transactions.xml")
        for night in 0..<61 {
            let day = first.adding(days: night)
            let path = try fixture.artifact("yardi_get_unit_information.xml", as: "units-\(night).xml") {
                $0.replacingOccurrences(of: "1715.00", with: "\(1700 + night).00")
            }
            _ = try fixture.loader(run: "run-\(night)").load(path: path, operation: .getUnitInformation,
                                                              property: fixture.property, asOf: day)
            _ = try fixture.loader(run: "run-\(night)").load(path: ledger, operation: .getResidentTransactions,
                                                              property: fixture.property, asOf: day)
        }
        let path = fixture.store.database.path
        let ledgerRows = try fixture.rows("SELECT count(*) FROM yardi_transactions")
        let result = try RawRetention.prune(path: path, keyColumn: "operation",
                                            policy: RawSnapshotPolicy(keepDays: 7, keepMonthly: 2), dryRun: false)
        // Kept: Oct 25-31 (the 7 days before the newest, Oct 31, and it), and Sep 30 (the last of September).
        let kept = try fixture.rows("SELECT DISTINCT as_of_date FROM yardi_units ORDER BY 1").compactMap { $0[0].textValue }
        #expect(kept == ["2026-09-30"] + (25...31).map { "2026-10-\($0)" })
        #expect(result.snapshots == 61 - 8 && result.rows == (61 - 8) * 4)
        #expect(try fixture.rows("SELECT count(*) FROM yardi_transactions") == ledgerRows,
                "the merged ledger is history the sync reads: not pruned")
        #expect(try fixture.rows("SELECT count(*) FROM loaded_artifacts WHERE operation = 'GetUnitInformation'") == [[.integer(8)]])
        #expect(try fixture.store.database.scalar("PRAGMA freelist_count") == .integer(0), "free pages given back")
        #expect(!result.convertedToIncremental, "created with incremental auto-vacuum")
        // The removed nights' lineages went with their rows; every lineage left is one a raw row points at.
        let keyed = try RawLineage.keyedTables(fixture.store.database)
        let pointedAt = keyed.map { "SELECT lineage_id FROM \($0)" }.joined(separator: " UNION ")
        #expect(try fixture.rows("SELECT count(*) FROM raw_lineage WHERE id NOT IN (\(pointedAt))") == [[.integer(0)]])
        #expect(try fixture.rows("SELECT count(*) FROM (\(pointedAt)) WHERE lineage_id NOT IN (SELECT id FROM raw_lineage)")
                == [[.integer(0)]])
        #expect(try fixture.rows("SELECT count(DISTINCT as_of_date) FROM raw_lineage WHERE artifact LIKE '%/units-%'") == [[.integer(8)]],
                "the unit lists of the 8 nights kept")
    }

    /// Yardi's old lease-charge months are compared with the later ones as a list built once per snapshot, found by a
    /// range on the snapshot index, not by a subquery run for every row: that read every statement of the property per
    /// row (32 s of a 40 s nightly prune after 64 nights, and growing each month). The rows it finds are
    /// YardiLedgerTests' (`pruningLeaseChargeMonthsPastTheWindow...`).
    @Test func oldLeaseChargeMonthsAreMatchedAgainstOneListPerSnapshot() throws {
        let fixture = try YardiFixture()
        let rule = RawRetention.SupersededRows.leaseChargeMonths
        guard case .ofSnapshot(let superseded) = rule.superseded else {
            Issue.record("the lease-charge months are no longer found snapshot by snapshot")
            return
        }
        let plan = try fixture.store.database.query("EXPLAIN QUERY PLAN SELECT id FROM \(rule.table) WHERE \(superseded)", [
            ":property": .text("yp"), ":as_of": .text("2024-09-01"),
        ]).compactMap { $0[3].textValue }
        #expect(plan.contains { $0.hasPrefix("LIST SUBQUERY") }, "plan: \(plan)")
        #expect(!plan.contains { $0.hasPrefix("CORRELATED") }, "plan: \(plan)")
        #expect(plan.filter { $0.hasPrefix("SEARCH") }.count == plan.filter { $0.contains("yardi_lease_charges") }.count,
                "every read of the table on an index: \(plan)")
    }

    @Test func theKeptDatesFollowThePolicy() {
        let policy = RawSnapshotPolicy(keepDays: 2, keepMonthly: 2)
        let dates = ["2026-08-31", "2026-09-15", "2026-09-29", "2026-10-01", "2026-10-09", "2026-10-10"].compactMap(LocalDate.init(iso:))
        #expect(policy.kept(dates).map(\.iso).sorted() == ["2026-09-29", "2026-10-09", "2026-10-10"])
    }
}
