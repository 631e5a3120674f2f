import Foundation
import LibCryptoKit
import OwnerDashCore
import SOAP
import SQLiteKit
import Testing
@testable import RawStore

/// RPX's whole-state lists loaded by record (`RecordLoad`): what is stored is always what decoding the whole answer
/// stores, whichever records were copied.
@Suite struct RecordLoadTests {
    let nexus = Property(key: "nexus_east", name: "Nexus East", pms: .realpage, siteID: "5472172")

    func night(_ day: Int) -> LocalDate { LocalDate(year: 2026, month: 11, day: day)! }

    /// getleaseinfo's fixture (three leases) as a later night's answer: `edit` on its list of records.
    func leases(_ fixture: LoaderFixture, night: Int, edit: ([String]) -> [String] = { $0 }) throws -> String {
        try fixture.soapCopy("rpx_getleaseinfo.xml", as: "getleaseinfo-\(night).xml") { text in
            let open = text.range(of: "<Leases>")!.upperBound, close = text.range(of: "</Leases>")!.lowerBound
            let records = text[open..<close].components(separatedBy: "</Lease>").dropLast().map { $0 + "</Lease>" }
            return String(text[..<open]) + edit(records).joined() + String(text[close...])
        }
    }

    /// A loader that finds earlier answers among `files` by their sha256, as the landing zone does.
    func loader(_ fixture: LoaderFixture, run: String, files: [String], build: String = "build-a") throws -> RPXArtifactLoader {
        var bySHA: [String: String] = [:]
        for file in files { bySHA[try SHA256.hexDigest(ofFile: file)] = file }
        let landed = bySHA
        return RPXArtifactLoader(store: fixture.store, runID: RunID(run), landedAnswer: { landed[$0] }, build: build)
    }

    /// The rows a snapshot holds (wherever they are stored), in order, without the row id, the lineage and the date
    /// their record was decoded (`changed_on`, which only a load by record sets: `decodedOn`).
    func snapshot(_ store: RealPageRawStore, _ date: LocalDate, columns: [String]? = nil) throws -> [[SQLValue]] {
        let names = try columns ?? store.database.query("SELECT name FROM pragma_table_info('realpage_leases') ORDER BY cid")
            .compactMap { $0[0].textValue }.filter { !["id", "lineage_id", "changed_on"].contains($0) }
        return try store.database.query("""
            SELECT \(names.map { "r." + $0 }.joined(separator: ", ")) FROM realpage_leases r
            JOIN loaded_artifacts l ON l.report_type = 'getleaseinfo' AND l.property_id = r.property_id
             AND r.as_of_date = coalesce(l.stored_as_of, l.as_of_date)
            WHERE l.as_of_date = :as_of ORDER BY r.source_row
            """, [":as_of": .text(date.iso)])
    }

    /// Each row's `changed_on` of the snapshot of `date`, in order ("-": NULL, decoded by the snapshot's own load).
    func decodedOn(_ store: RealPageRawStore, _ date: LocalDate) throws -> [String] {
        try snapshot(store, date, columns: ["changed_on"]).map { $0[0].textValue ?? "-" }
    }

    @Test func aListLoadedByRecordHoldsWhatAWholeDecodeHolds() throws {
        let byRecord = try LoaderFixture(), whole = try LoaderFixture()
        var files: [String] = []
        files.append(try leases(byRecord, night: 20))
        // Night 21: the second lease's rent moves and a fourth lease (the first one's bytes under another id) is added.
        files.append(try leases(byRecord, night: 21) { records in
            [records[0], records[1].replacingOccurrences(of: "<Rent>2245.00</Rent>", with: "<Rent>2295.00</Rent>"), records[2],
             records[0].replacingOccurrences(of: "<LeaseID>9400001</LeaseID>", with: "<LeaseID>9400099</LeaseID>")]
        })
        // Night 22: the first lease is gone; every other record is night 21's, one place earlier.
        files.append(try leases(byRecord, night: 22) { records in
            [records[1].replacingOccurrences(of: "<Rent>2245.00</Rent>", with: "<Rent>2295.00</Rent>"), records[2],
             records[0].replacingOccurrences(of: "<LeaseID>9400001</LeaseID>", with: "<LeaseID>9400099</LeaseID>")]
        })
        // Night 23: night 22's records, the envelope around them sent with a line break more.
        let night22 = try String(contentsOfFile: files[2], encoding: .utf8)
        let night23 = byRecord.directory.appendingPathComponent("getleaseinfo-23.xml").path
        try Data(night22.replacingOccurrences(of: "</s:Body>", with: "\n</s:Body>").utf8).write(to: URL(fileURLWithPath: night23))
        files.append(night23)

        // A note of more than a month ago, which the next load by record lets go.
        try byRecord.store.database.execute("""
            INSERT INTO list_rows_dropped (list, property_id, as_of_date, household_id, lease_id)
            VALUES ('realpage_leases', 'nexus_east', '2026-10-01', '9200001', '9400000')
            """)
        var notes: [String?] = [], unchangedSince: [String?] = []
        for (offset, file) in files.enumerated() {
            let outcome = try loader(byRecord, run: "run-\(offset)", files: files)
                .load(path: file, operation: .getleaseinfo, property: nexus, asOf: night(20 + offset))
            notes.append(outcome.note)
            unchangedSince.append(outcome.unchangedSinceRun)
            _ = try RPXArtifactLoader(store: whole.store, runID: RunID("run-\(offset)"))
                .load(path: file, operation: .getleaseinfo, property: nexus, asOf: night(20 + offset))
        }
        #expect(notes == [nil, "by record: 2 of 4 records decoded, the rest copied from the snapshot of 2026-11-20",
                          "by record: 0 of 3 records decoded, the rest copied from the snapshot of 2026-11-21", nil])
        #expect(unchangedSince == [nil, nil, nil, "run-2"])
        for day in 20...23 {
            let rows = try snapshot(byRecord.store, night(day))
            #expect(rows == (try snapshot(whole.store, night(day))), "night \(day)")
            #expect(rows.count == (day == 20 ? 3 : day == 21 ? 4 : 3))
        }
        #expect(try byRecord.store.database.scalar(
            "SELECT rent FROM realpage_leases WHERE as_of_date = '2026-11-22' AND source_row = 1") == .real(2295))
        // Each copied row keeps the date of the snapshot that decoded its record: what the sync's households by change
        // read (RealPageEventHouseholds); a whole decode dates none.
        #expect(try decodedOn(byRecord.store, night(20)) == ["-", "-", "-"])
        #expect(try decodedOn(byRecord.store, night(21)) == ["2026-11-20", "-", "2026-11-20", "-"])
        #expect(try decodedOn(byRecord.store, night(22)) == ["2026-11-21", "2026-11-20", "2026-11-21"])
        #expect(try decodedOn(byRecord.store, night(23)) == ["2026-11-21", "2026-11-20", "2026-11-21"])
        #expect(try decodedOn(whole.store, night(22)) == ["-", "-", "-"])
        // The night before's rows not copied, each under the snapshot that dropped it: night 21 replaced the second
        // lease's record, night 22 left the first out; each snapshot counts them (NULL: decoded whole, or unchanged).
        #expect(try byRecord.store.database.query("""
            SELECT as_of_date, lease_id, household_id FROM list_rows_dropped WHERE list = 'realpage_leases' ORDER BY 1
            """).map { $0.map { $0.textValue ?? "-" } }
            == [["2026-11-21", "9400002", "9200001"], ["2026-11-22", "9400001", "9200001"]])
        #expect(try byRecord.store.database.query("""
            SELECT as_of_date, rows_dropped FROM loaded_artifacts ORDER BY 1
            """).map { "\($0[0].textValue ?? "") \($0[1].integerValue.map(String.init) ?? "-")" }
            == ["2026-11-20 -", "2026-11-21 1", "2026-11-22 1", "2026-11-23 -"])
        #expect(try byRecord.store.database.query("SELECT DISTINCT decoded_by FROM loaded_artifacts") == [[.text("build-a")]])
    }

    /// Records copied in another order than the night before's (the list re-sorted) are dated as decoded tonight but
    /// the first: the sync breaks ties by a row's place, so their households count as moved.
    @Test func aRecordCopiedOutOfItsOrderIsDatedTonight() throws {
        let fixture = try LoaderFixture()
        let files = [try leases(fixture, night: 20), try leases(fixture, night: 21) { $0.reversed() }]
        let notes = try files.enumerated().map { offset, file in
            try loader(fixture, run: "run-\(offset)", files: files)
                .load(path: file, operation: .getleaseinfo, property: nexus, asOf: night(20 + offset)).note
        }
        #expect(notes == [nil, "by record: 0 of 3 records decoded, the rest copied from the snapshot of 2026-11-20"])
        // The same rows, in the reversed order (each numbered by its new place, under the new date).
        #expect(try snapshot(fixture.store, night(21)) == (try snapshot(fixture.store, night(20))).reversed().enumerated().map {
            var row = $0.element
            row[1] = .text(night(21).iso)
            row[2] = .integer(Int64($0.offset + 1))
            return row
        })
        #expect(try decodedOn(fixture.store, night(21)) == ["2026-11-20", "-", "-"])
    }

    @Test func rowsAreCopiedOnlyFromASnapshotThisBuildDecoded() throws {
        let fixture = try LoaderFixture()
        let first = try leases(fixture, night: 20)
        let second = try leases(fixture, night: 21) { [$0[0], $0[1].replacingOccurrences(of: "<Rent>2245.00</Rent>", with: "<Rent>2250.00</Rent>"), $0[2]] }
        let third = try leases(fixture, night: 22) { [$0[0], $0[1].replacingOccurrences(of: "<Rent>2245.00</Rent>", with: "<Rent>2260.00</Rent>"), $0[2]] }
        let files = [first, second, third]
        _ = try loader(fixture, run: "run-0", files: files, build: "old-build")
            .load(path: first, operation: .getleaseinfo, property: nexus, asOf: night(20))
        let upgraded = try loader(fixture, run: "run-1", files: files, build: "new-build")
            .load(path: second, operation: .getleaseinfo, property: nexus, asOf: night(21))
        #expect(upgraded.note == nil && upgraded.rows == 3)
        let after = try loader(fixture, run: "run-2", files: files, build: "new-build")
            .load(path: third, operation: .getleaseinfo, property: nexus, asOf: night(22))
        #expect(after.note == "by record: 1 of 3 records decoded, the rest copied from the snapshot of 2026-11-21")
        // The night before's answer gone from the landing zone: the digests its load kept of its records still serve.
        let kept = try RPXArtifactLoader(store: fixture.store, runID: RunID("run-3"), landedAnswer: { _ in nil }, build: "new-build")
            .load(path: try leases(fixture, night: 23), operation: .getleaseinfo, property: nexus, asOf: night(23))
        #expect(kept.note == "by record: 1 of 3 records decoded, the rest copied from the snapshot of 2026-11-22")
        // Neither the digests (another list's answer remembered last) nor the answer: nothing to compare with, decoded whole.
        try fixture.store.database.execute("UPDATE record_digests SET artifact_sha256 = 'another'")
        let gone = try RPXArtifactLoader(store: fixture.store, runID: RunID("run-4"), landedAnswer: { _ in nil }, build: "new-build")
            .load(path: try leases(fixture, night: 24) { [$0[0], $0[1].replacingOccurrences(of: "<Rent>2245.00</Rent>", with: "<Rent>2270.00</Rent>"), $0[2]] },
                  operation: .getleaseinfo, property: nexus, asOf: night(24))
        #expect(gone.note == nil && gone.rows == 3)
    }

    @Test func anAnswerTheScanCannotCutIsDecodedWhole() throws {
        let fixture = try LoaderFixture()
        let first = try leases(fixture, night: 20)
        let commented = try leases(fixture, night: 21) { [$0[0], "<!-- <Lease> -->", $0[1], $0[2]] }
        let files = [first, commented]
        _ = try loader(fixture, run: "run-0", files: files).load(path: first, operation: .getleaseinfo, property: nexus, asOf: night(20))
        let outcome = try loader(fixture, run: "run-1", files: files)
            .load(path: commented, operation: .getleaseinfo, property: nexus, asOf: night(21))
        #expect(outcome.note == nil && outcome.rows == 3 && outcome.unchangedSinceRun == "run-0")
    }

    @Test func recordsAreComparedOnlyUnderTheSameDeclaredEncoding() throws {
        let fixture = try LoaderFixture()
        let first = try leases(fixture, night: 20)
        let declared = try fixture.soapCopy("rpx_getleaseinfo.xml", as: "getleaseinfo-21.xml") {
            "<?xml version=\"1.0\" encoding=\"utf-8\"?>" + $0.replacingOccurrences(of: "<Rent>2245.00</Rent>", with: "<Rent>2250.00</Rent>")
        }
        let files = [first, declared]
        _ = try loader(fixture, run: "run-0", files: files).load(path: first, operation: .getleaseinfo, property: nexus, asOf: night(20))
        let outcome = try loader(fixture, run: "run-1", files: files)
            .load(path: declared, operation: .getleaseinfo, property: nexus, asOf: night(21))
        #expect(outcome.note == nil && outcome.rows == 3)
        #expect(RecordSplit(Array("<?xml version=\"1.0\"?><L><Lease>1</Lease></L>".utf8), record: "Lease")?.declaration
                == ArraySlice("<?xml version=\"1.0\"?>".utf8))
    }

    @Test func aChangedRecordThatFailsIsNamedByItsPlaceInTheAnswer() throws {
        let fixture = try LoaderFixture()
        let first = try leases(fixture, night: 20)
        let bad = try leases(fixture, night: 21) { [$0[0], $0[1], $0[2].replacingOccurrences(of: "<Rent>", with: "<Rent>x")] }
        let files = [first, bad]
        _ = try loader(fixture, run: "run-0", files: files).load(path: first, operation: .getleaseinfo, property: nexus, asOf: night(20))
        let before = try fixture.store.database.query("SELECT * FROM realpage_leases ORDER BY id")
        #expect {
            try loader(fixture, run: "run-1", files: files).load(path: bad, operation: .getleaseinfo, property: nexus, asOf: night(21))
        } throws: { "\($0)".contains("getleaseinfo for nexus_east: Lease 3: Rent") }
        #expect(try fixture.store.database.query("SELECT * FROM realpage_leases ORDER BY id") == before)
    }
}

/// The scan that cuts an answer into its records, and the answers it refuses to cut.
@Suite struct RecordSplitTests {
    func split(_ list: String) -> RecordSplit? {
        RecordSplit(Array("<?xml version=\"1.0\"?><E><B><L>\(list)</L></B></E>".utf8), record: "Lease")
    }

    func records(_ list: String) -> [String]? {
        split(list).map { split in split.records.map { String(decoding: split.bytes[$0], as: UTF8.self) } }
    }

    @Test func recordsAreCutWhereTheyStandSideBySide() {
        #expect(records("<Lease><LeaseID>1</LeaseID></Lease>\n  <Lease a=\"x\"><LeaseID>2</LeaseID></Lease>")
                == ["<Lease><LeaseID>1</LeaseID></Lease>", "<Lease a=\"x\"><LeaseID>2</LeaseID></Lease>"])
        let both = split("<Lease><LeaseID>1</LeaseID></Lease><Lease><LeaseID>2</LeaseID></Lease>")!
        #expect(String(decoding: both.keeping([1]), as: UTF8.self)
                == "<?xml version=\"1.0\"?><E><B><L><Lease><LeaseID>2</LeaseID></Lease></L></B></E>")
        #expect(String(decoding: both.keeping([]), as: UTF8.self) == "<?xml version=\"1.0\"?><E><B><L></L></B></E>")
    }

    @Test func eachRecordIsFoundNearItsPlaceInTheNightBefore() {
        let before = split(["A", "B", "C", "D", "E"].map { "<Lease><LeaseID>\($0)</LeaseID></Lease>" }.joined())!
        // One added in front, one changed, one removed, one added at the end.
        let now = split(["X", "A", "B2", "D", "E", "F"].map { "<Lease><LeaseID>\($0)</LeaseID></Lease>" }.joined())!
        #expect(RecordLoad.match(now.digests, in: before.digests) == [nil, 1, nil, 4, 5, nil])
        // Further away than the window looks: decoded, not copied.
        #expect(RecordLoad.match(now.digests, in: before.digests, window: 0) == [nil, nil, nil, 4, 5, nil])
    }

    @Test func anythingThatCouldHideOrShowARecordRefusesTheCut() {
        #expect(split("") == nil, "no record")
        #expect(split("<Lease><Lease>1</Lease></Lease>") == nil, "nested")
        #expect(split("<Lease/><Lease><LeaseID>1</LeaseID></Lease>") == nil, "empty")
        #expect(split("<Lease><LeaseID>1</LeaseID></Lease>x<Lease><LeaseID>2</LeaseID></Lease>") == nil, "text between")
        #expect(split("<Lease><LeaseID>1</LeaseID></Lease><Other/><Lease><LeaseID>2</LeaseID></Lease>") == nil, "an element between")
        #expect(split("<Lease><!-- c --><LeaseID>1</LeaseID></Lease>") == nil, "a comment")
        #expect(split("<Lease><LeaseID><![CDATA[1]]></LeaseID></Lease>") == nil, "CDATA")
        #expect(split("<Lease><?pi x?><LeaseID>1</LeaseID></Lease>") == nil, "a processing instruction")
        #expect(split("<Lease><LeaseID>1</LeaseID>") == nil, "left open")
        #expect(split("</Lease>") == nil, "closed, never opened")
    }
}
