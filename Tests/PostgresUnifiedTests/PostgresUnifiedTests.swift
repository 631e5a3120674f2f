import Foundation
import OwnerDashCore
import PostgresKit
import PostgresTestSupport
import SQLiteKit
import SimulatorSupport
import Sync
import Testing
@testable import PostgresUnified

/// A small unified.db written row by row (two properties, awkward values), published to a real PostgreSQL server and
/// mirrored back: the schema generated from the SQLite one, the rows and views identical on both engines, a property's
/// publication alone in its transaction.
final class UnifiedSample {
    let directory: URL
    let data: DataDirectory
    let database: Database
    let propertyKeys: [String]

    init(properties: [String] = ["alder_court", "birch_row"], run: String = "20261120T040000Z-ab12") throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("pgunified-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        data = DataDirectory(root: directory.appendingPathComponent("data").path)
        try data.create()
        database = try Database(path: data.unifiedDatabase)
        propertyKeys = properties
        try database.migrate(UnifiedSchema.migrations)
        for key in properties { try addProperty(key) }
        try insert("etl_runs", ["run_id": .text(run), "trigger": .text("nightly"), "status": .text("succeeded"),
                                "started_at": .text("2026-11-20T04:00:00Z"), "finished_at": .text("2026-11-20T04:05:09Z"),
                                "as_of_date": .text("2026-11-20"), "detail": .null])
        try insert("etl_run_items", ["run_id": .text(run), "property_id": .text(properties[0]),
                                     "stage": .text("sync"), "status": .text("succeeded")])
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    /// One property's rows in the tables readers use most, with the values that trip a copy: tabs, newlines,
    /// backslashes, quotes, NULLs, float noise, booleans, dates and times.
    func addProperty(_ key: String, rent: Double = 1234.56) throws {
        try insert("unified_properties", ["unified_property_id": .text(key), "name": .text("\(key) \"Apartments\"\tPhase\\2"),
                                          "pms_source": .text("realpage"), "as_of_date": .text("2026-11-20"),
                                          "last_synced_at": .text("2026-11-20T04:05:06Z"), "address": .null])
        for (unit, status) in [("101", "occupied"), ("102", "vacant"), ("103", "occupied_notice")] {
            try insert("unified_units", ["unified_property_id": .text(key), "unit_number": .text(unit), "status": .text(status),
                                         "market_rent": .real(rent + 0.1 + 0.2), "actual_rent": status == "vacant" ? .null : .real(rent),
                                         "is_ready": status == "vacant" ? .integer(1) : .null,
                                         "vacant_since": status == "vacant" ? .text("2026-08-01") : .null, "floor": .text("2\nnd")])
        }
        for (resident, balance) in [("r1", 1500.25), ("r2", -80.0), ("r3", 0.1 + 0.2)] {
            try insert("unified_delinquency", ["unified_property_id": .text(key), "as_of_date": .text("2026-11-20"),
                                               "resident_id": .text(resident), "current_balance": .real(balance),
                                               "balance_0_30": .real(max(balance, 0)), "prepaid": .real(max(-balance, 0)),
                                               "name": .text("O'Brien, \(resident)")])
            try insert("unified_charges", ["unified_property_id": .text(key), "charge_id": .text("c-\(resident)"),
                                           "resident_id": .text(resident), "period": .text("2026-11"), "category": .text("RENT"),
                                           "charge_code": .text("RENT"), "amount": .real(rent), "category_known": .integer(1)])
            try insert("unified_payments", ["unified_property_id": .text(key), "payment_id": .text("p-\(resident)"),
                                            "resident_id": .text(resident), "period": .text("2026-11"),
                                            "payment_date": .text("2026-11-03"), "amount": .real(rent / 3)])
        }
        try insert("unified_occupancy_metrics", ["unified_property_id": .text(key), "as_of_date": .text("2026-11-20"),
                                                 "physical_occupancy": .real(66.67), "source": .text("realpage: box score")])
        try insert("unified_activity", ["unified_property_id": .text(key), "event_date": .text("2026-11-02"), "event_type": .text("move_in")])
    }

    /// Inserts a row, every NOT NULL column the values leave out filled with a plain value of its type.
    func insert(_ table: String, _ values: [String: SQLValue]) throws {
        var row = values
        for column in try database.query("SELECT name, type, \"notnull\", pk FROM pragma_table_info(:t)", [":t": .text(table)]) {
            let name = column[0].textValue ?? ""
            guard row[name] == nil, column[2].integerValue == 1 || column[3].integerValue ?? 0 > 0 else { continue }
            if column[1].textValue == "INTEGER", name == "id" || name == "event_id" { continue }
            switch column[1].textValue {
            case "INTEGER": row[name] = .integer(name.hasPrefix("is_") || name.hasSuffix("_known") ? 0 : 3)
            case "REAL": row[name] = .real(12.5)
            default: row[name] = .text(name.hasSuffix("_date") ? "2026-11-20" : name.hasSuffix("_at") ? "2026-11-20T00:00:00Z" : "x")
            }
        }
        let names = row.keys.sorted()
        try database.prepare("INSERT INTO \(table) (\(names.joined(separator: ", "))) VALUES (\(names.map { ":" + $0 }.joined(separator: ", ")))")
            .execute(Dictionary(uniqueKeysWithValues: names.map { (":" + $0, row[$0]!) }))
    }

    /// Every row of `table`, in key order.
    static func rows(_ database: Database, _ table: String) throws -> [[SQLValue]] {
        let count = try database.query("SELECT count(*) FROM pragma_table_info(:t)", [":t": .text(table)])[0][0].integerValue ?? 0
        return try database.query("SELECT * FROM \(table) ORDER BY \((1...max(count, 1)).map(String.init).joined(separator: ", "))")
    }
}

@Suite struct PostgresUnifiedTests {
    @Test func theServersSchemaIsGeneratedWithTheTypesAndDictionaryAPostgreSQLUserExpects() throws {
        let url = try TestPostgres.freshDatabase("schema")
        let server = try PostgresConnection(url: url)
        try PostgresSchema.migrate(server)
        let type = { (table: String, column: String) in
            try server.scalar("SELECT data_type FROM information_schema.columns WHERE table_name = :t AND column_name = :c",
                              ["t": .text(table), "c": .text(column)])
        }
        #expect(try type("unified_units", "market_rent") == "numeric")
        #expect(try type("unified_units", "is_occupied") == "boolean")
        #expect(try type("unified_units", "vacant_since") == "date")
        #expect(try type("unified_delinquency", "as_of_date") == "date")
        #expect(try type("unified_properties", "last_synced_at") == "timestamp with time zone")
        #expect(try type("unified_charges", "category_known") == "boolean")
        #expect(try type("unified_units", "sqft") == "bigint")
        // Every unified table and view is there, and the dictionary's words are the comments.
        for table in UnifiedShape.current.tables {
            #expect(try server.scalar("SELECT to_regclass(:t)::text", ["t": .text(table.name)]) == table.name)
        }
        for view in UnifiedShape.current.views {
            #expect(try server.scalar("SELECT to_regclass(:t)::text", ["t": .text(view.name)]) == view.name)
        }
        let comment = try server.scalar("SELECT obj_description('unified_units'::regclass, 'pg_class')")
        #expect(comment?.isEmpty == false)
        let columnComment = try server.scalar("SELECT col_description('unified_units'::regclass, 5)")
        #expect(columnComment?.isEmpty == false)
        // A row id numbered per host is keyed with its property on the server.
        #expect(UnifiedShape.current.table("unified_activity")?.primaryKey == ["unified_property_id", "id"])
        #expect(try server.scalar("SELECT max(version) FROM ownerdash_schema") == String(UnifiedShape.current.version))
        // Migrating again changes nothing; a server ahead of this ownerdash is refused with both versions named.
        try PostgresSchema.migrate(server)
        #expect(try server.scalar("SELECT count(*) FROM ownerdash_schema") == "1")
        try server.execute("INSERT INTO ownerdash_schema (version) VALUES (9999)")
        do { try PostgresSchema.migrate(server); Issue.record("a newer server was accepted") } catch {
            #expect("\(error)".contains("9999") && "\(error)".contains("upgrade ownerdash"))
        }
    }

    @Test func aReaderNeverChangesTheServersSchemaAndSaysWhyItCannotRead() throws {
        let url = try TestPostgres.freshDatabase("reader")
        do { _ = try UnifiedMirror(url: url, dataDirectory: try UnifiedSample.readerDirectory()); Issue.record("read an empty server") } catch {
            #expect("\(error)".contains("no OwnerDash data on the server yet"))
        }
        let server = try PostgresConnection(url: url)
        #expect(try server.scalar("SELECT to_regclass('unified_units')::text") == nil, "a reader created tables")
        try PostgresSchema.migrate(server)
        try server.execute("UPDATE ownerdash_schema SET version = version - 1")
        do { _ = try UnifiedMirror(url: url, dataDirectory: try UnifiedSample.readerDirectory()); Issue.record("read an older schema") } catch {
            #expect("\(error)".contains("a sync, ingest or publish of this version migrates it"))
        }
    }

    @Test func aColumnAMigrationDroppedIsDroppedOnTheServerAsItMovesPastThatLevel() throws {
        let url = try TestPostgres.freshDatabase("retired")
        let server = try PostgresConnection(url: url)
        try PostgresSchema.migrate(server)
        // A server an ownerdash of level 49 set up: household balances still had their date, NOT NULL.
        try server.execute("ALTER TABLE unified_household_balances ADD COLUMN as_of_date date NOT NULL")
        try server.execute("UPDATE ownerdash_schema SET version = 49")
        try PostgresSchema.migrate(server)
        #expect(try server.scalar("""
            SELECT count(*) FROM information_schema.columns WHERE table_name = 'unified_household_balances' AND column_name = 'as_of_date'
            """) == "0")
        #expect(try server.scalar("SELECT max(version) FROM ownerdash_schema") == String(UnifiedShape.current.version))
        // Rows written without the column are taken (its NOT NULL would have refused them).
        let sample = try UnifiedSample()
        try sample.database.execute("""
            INSERT INTO unified_household_balances (unified_property_id, resident_id, charges, payments, balance)
            SELECT unified_property_id, 'h1', 100, 40, 60 FROM unified_properties ORDER BY 1 LIMIT 1
            """)
        _ = try UnifiedPublisher(url: url, host: "host-a").publishAll(from: sample.database)
        #expect(try server.scalar("SELECT (sum(balance) = 60)::text FROM unified_household_balances") == "true")
        // A column of the analysts' own, which no migration dropped, is left alone.
        try server.execute("ALTER TABLE unified_household_balances ADD COLUMN analyst_note text")
        try server.execute("UPDATE ownerdash_schema SET version = 49")
        try PostgresSchema.migrate(server)
        #expect(try server.scalar("""
            SELECT count(*) FROM information_schema.columns WHERE table_name = 'unified_household_balances' AND column_name = 'analyst_note'
            """) == "1")
    }

    @Test func aColumnWhoseTypeDiffersOnTheServerIsAnErrorNamingIt() throws {
        let url = try TestPostgres.freshDatabase("drift")
        let server = try PostgresConnection(url: url)
        try server.execute("CREATE TABLE unified_units (unified_property_id text, unit_number text, market_rent text)")
        do { try PostgresSchema.migrate(server); Issue.record("accepted a text market_rent") } catch {
            #expect("\(error)".contains("unified_units.market_rent is text on the server, expected numeric"))
        }
    }

    @Test func publishedRowsComeBackToTheMirrorExactlyAndTheViewsAgree() throws {
        let sample = try UnifiedSample()
        let url = try TestPostgres.freshDatabase("roundtrip")
        let publisher = try UnifiedPublisher(url: url, host: "host-a")
        let published = try publisher.publishAll(from: sample.database)
        #expect(published.properties == 2 && published.runs == 1)

        let reader = try UnifiedSample.readerDirectory()
        let mirror = try UnifiedMirror(url: url, dataDirectory: reader)
        let refresh = try mirror.refresh()
        #expect(refresh.propertiesCopied == ["alder_court", "birch_row"] && refresh.runsCopied)
        let copy = try Database(path: UnifiedMirror.path(in: reader), mode: .readOnly)
        for table in UnifiedShape.current.tables where !table.name.hasPrefix("audit_") && table.name != "notices_sent" {
            #expect(try UnifiedSample.rows(copy, table.name) == UnifiedSample.rows(sample.database, table.name), "\(table.name) differs")
        }
        #expect(try UnifiedSample.rows(copy, "unified_units").count == 6)
        // Nothing changed: the next refresh copies nothing.
        #expect(try mirror.refresh().changed == false)

        // Every view answers the same rows on the server as on SQLite (numbers compared as numbers).
        let server = try PostgresConnection(url: url)
        for view in UnifiedShape.current.views {
            let local = try sample.database.query("SELECT * FROM \(view.name) ORDER BY 1, 2, 3")
            let remote = try server.query("SELECT * FROM \(view.name) ORDER BY 1, 2, 3")
            #expect(remote.count == local.count, "\(view.name): \(remote.count) rows on the server, \(local.count) in SQLite")
            for (row, serverRow) in zip(local, remote.values) {
                for (value, text) in zip(row, serverRow) {
                    #expect(Self.same(value, text), "\(view.name): \(value) in SQLite, \(text ?? "NULL") on the server")
                }
            }
        }
    }

    @Test func republishingOnePropertyTouchesOnlyItsRowsAndTheMirrorCopiesOnlyIt() throws {
        let sample = try UnifiedSample()
        let url = try TestPostgres.freshDatabase("resync")
        let publisher = try UnifiedPublisher(url: url, host: "host-a")
        _ = try publisher.publishAll(from: sample.database)
        let mirror = try UnifiedMirror(url: url, dataDirectory: try UnifiedSample.readerDirectory())
        try mirror.refresh()
        let server = try PostgresConnection(url: url)
        let versionsOfBirch = { try server.query("SELECT xmin::text AS x FROM unified_charges WHERE unified_property_id = 'birch_row' ORDER BY charge_id").values }
        let before = try versionsOfBirch()

        try sample.database.execute("UPDATE unified_units SET market_rent = 1999.99 WHERE unified_property_id = 'alder_court' AND unit_number = '101'")
        try publisher.publishProperty("alder_court", from: sample.database)
        #expect(try versionsOfBirch() == before, "birch_row's rows were rewritten")
        #expect(try server.scalar("SELECT market_rent FROM unified_units WHERE unified_property_id = 'alder_court' AND unit_number = '101'") == "1999.99")
        let refresh = try mirror.refresh()
        #expect(refresh.propertiesCopied == ["alder_court"] && !refresh.runsCopied)
        let copy = try Database(path: mirror.path, mode: .readOnly)
        #expect(try copy.scalar("SELECT market_rent FROM unified_units WHERE unified_property_id = 'alder_court' AND unit_number = '101'")?.doubleValue == 1999.99)
        #expect(try server.scalar("SELECT host FROM ownerdash_publications WHERE scope = 'property:alder_court'") == "host-a")
    }

    @Test func aMirrorHoldsTwoHostsRowsWhoseHostNumberedIDsCollide() throws {
        // Each host's SQLite numbers unified_activity and etl_run_items from 1: the server keys them by property or
        // run, and the mirror, one SQLite file again, must keep both hosts' rows.
        let hostA = try UnifiedSample(properties: ["alder_court"], run: "20261120T040000Z-aaaa")
        let hostB = try UnifiedSample(properties: ["birch_row"], run: "20261120T040000Z-bbbb")
        for sample in [hostA, hostB] {
            try sample.insert("unified_activity", ["unified_property_id": .text(sample.propertyKeys[0]), "event_date": .text("2026-11-05"),
                                                   "event_type": .text("move_out")])
        }
        #expect(try hostA.database.scalar("SELECT max(id) FROM unified_activity") == hostB.database.scalar("SELECT max(id) FROM unified_activity"))
        let url = try TestPostgres.freshDatabase("collide")
        _ = try UnifiedPublisher(url: url, host: "host-a").publishAll(from: hostA.database)
        _ = try UnifiedPublisher(url: url, host: "host-b").publishAll(from: hostB.database)

        let mirror = try UnifiedMirror(url: url, dataDirectory: try UnifiedSample.readerDirectory())
        try mirror.refresh()
        let copy = try Database(path: mirror.path, mode: .readOnly)
        let events = try copy.query("SELECT unified_property_id, event_type FROM unified_activity ORDER BY id").map { "\($0[0].textValue ?? "") \($0[1].textValue ?? "")" }
        #expect(events == ["alder_court move_in", "alder_court move_out", "birch_row move_in", "birch_row move_out"], "\(events)")
        #expect(try copy.scalar("SELECT count(*) FROM etl_run_items")?.integerValue == 2)
    }

    @Test func twoHostsPublishingDifferentPropertiesNeverWaitAndReadersNeverSeeHalfAProperty() throws {
        let sample = try UnifiedSample()
        let url = try TestPostgres.freshDatabase("hosts")
        let hostA = try UnifiedPublisher(url: url, host: "host-a")
        _ = try hostA.publishAll(from: sample.database)
        let mirror = try UnifiedMirror(url: url, dataDirectory: try UnifiedSample.readerDirectory())
        try mirror.refresh()

        // Host A is half-way through publishing alder_court: its lock taken, its old rows deleted, not committed.
        let inFlight = try PostgresConnection(url: url)
        try inFlight.execute("BEGIN")
        try inFlight.execute("SELECT pg_advisory_xact_lock(hashtext('ownerdash:property:' || 'alder_court'))")
        try inFlight.execute("DELETE FROM unified_units WHERE unified_property_id = 'alder_court'")
        try inFlight.execute("UPDATE ownerdash_publications SET generation = nextval('ownerdash_generation') WHERE scope = 'property:alder_court'")

        // Host B publishes birch_row meanwhile without waiting (a lock wait would fail at once here).
        let hostB = try UnifiedPublisher(url: url, host: "host-b")
        try hostB.connection.execute("SET lock_timeout = '1s'")
        try hostB.publishProperty("birch_row", from: sample.database)
        #expect(try hostB.connection.scalar("SELECT host FROM ownerdash_publications WHERE scope = 'property:birch_row'") == "host-b")
        // ... but the same property waits for host A's transaction.
        do { try hostB.publishProperty("alder_court", from: sample.database); Issue.record("published a property another host holds") } catch let error as PostgresError {
            #expect(error.sqlState == "55P03")
        }
        // A reader sees alder_court whole, as it was before host A began.
        try mirror.refresh()
        let copy = try Database(path: mirror.path, mode: .readOnly)
        #expect(try copy.scalar("SELECT count(*) FROM unified_units WHERE unified_property_id = 'alder_court'")?.integerValue == 3)
        try inFlight.execute("ROLLBACK")
    }

    @Test func aPortfolioScopeTravelsWholeAndItsWritersTakeTurns() throws {
        let sample = try UnifiedSample()
        try sample.insert("notices_sent", ["debtor_key": .text("email:a@example.com"), "properties": .text("alder_court"),
                                           "resident_ids": .text("r1"), "total": .real(1500.25), "content_hash": .text("h1"),
                                           "channel": .text("webhook"), "destination": .text("https://hooks.example/x"),
                                           "sent_at": .text("2026-11-20T05:00:00Z"), "attempts": .integer(1)])
        let url = try TestPostgres.freshDatabase("scopes")
        let first = try ScopeWriter(url: url, scope: "notices", host: "host-a")
        // A second writer of the scope waits for the first to publish and let go.
        let secondHasLock = Locked(false)
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let second = try? ScopeWriter(url: url, scope: "notices", host: "host-a")
            secondHasLock.withLock { $0 = second != nil }
            done.signal()
        }
        Thread.sleep(forTimeInterval: 0.5)
        #expect(secondHasLock.withLock { $0 } == false, "the second writer did not wait")
        try first.publish(from: sample.data.unifiedDatabase)
        _ = consume first
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(secondHasLock.withLock { $0 })

        let mirror = try UnifiedMirror(url: url, dataDirectory: try UnifiedSample.readerDirectory())
        let refresh = try mirror.refresh()
        #expect(refresh.scopesCopied == ["notices"])
        let copy = try Database(path: mirror.path, mode: .readOnly)
        #expect(try UnifiedSample.rows(copy, "notices_sent") == UnifiedSample.rows(sample.database, "notices_sent"))
        #expect(try UnifiedSample.rows(copy, "notices_sent").count == 1)
    }

    /// The forecast's models are a portfolio scope: a server that an earlier ownerdash of this schema level set up
    /// without `forecast_models` gains it from the next writer, and the model's bytes (any bytes, not only UTF-8) reach
    /// the server as `bytea` and every reader's mirror exactly.
    @Test func theForecastModelsTravelByteForByteAndJoinAServerOfThisLevel() throws {
        let sample = try UnifiedSample()
        let bytes: [UInt8] = [0x7B, 0x00, 0x5C, 0x09, 0x0A, 0x0D, 0xFF, 0xC3, 0x28, 0x7D]
        try sample.insert("forecast_models", ["model_id": .integer(4), "model_json": .blob(bytes), "backtest_passes": .integer(1)])
        let url = try TestPostgres.freshDatabase("models")
        let server = try PostgresConnection(url: url)
        try PostgresSchema.migrate(server)
        try server.execute("DROP TABLE forecast_models")
        try ScopeWriter(url: url, scope: "forecast", host: "host-a").publish(from: sample.data.unifiedDatabase)
        #expect(try server.scalar("SELECT data_type FROM information_schema.columns WHERE table_name = 'forecast_models' AND column_name = 'model_json'") == "bytea")
        #expect(try server.scalar("SELECT encode(model_json, 'hex') FROM forecast_models WHERE model_id = 4") == "7b005c090a0dffc3287d")

        let mirror = try UnifiedMirror(url: url, dataDirectory: try UnifiedSample.readerDirectory())
        #expect(try mirror.refresh().scopesCopied == ["forecast"])
        let copy = try Database(path: mirror.path, mode: .readOnly)
        #expect(try copy.scalar("SELECT model_json FROM forecast_models WHERE model_id = 4") == .blob(bytes))
        #expect(try UnifiedSample.rows(copy, "forecast_models") == UnifiedSample.rows(sample.database, "forecast_models"))
    }

    /// A SQLite value and the server's text for it are the same value (numbers compared as numbers, 0/1 as booleans).
    static func same(_ value: SQLValue, _ text: String?) -> Bool {
        switch value {
        case .null: return text == nil
        case .integer(let number):
            if text == "t" || text == "f" { return (number != 0) == (text == "t") }
            return text.flatMap(Double.init) == Double(number)
        case .real(let number): return text.flatMap(Double.init).map { abs($0 - number) < 1e-9 } ?? false
        case .text(let string):
            // A time is the same instant in PostgreSQL's output style (`2026-11-20 04:05:06+00`).
            if string.count == 20, string.hasSuffix("Z"), string.dropFirst(10).first == "T" {
                return text == string.replacingOccurrences(of: "T", with: " ").replacingOccurrences(of: "Z", with: "+00")
            }
            return text == string
        case .blob: return false
        }
    }
}

extension UnifiedSample {
    /// An empty data directory for a reader's mirror, removed at exit.
    static func readerDirectory() throws -> DataDirectory {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pgreader-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        ScratchDirectory.removeAtExit(directory)
        return DataDirectory(root: directory.path)
    }
}

/// The mirror reads a bigint from the bytes the server sent, without a String: the same answer as Swift's own reading
/// of the text, at the edges too.
@Suite struct MirroredIntegerTests {
    @Test(arguments: ["0", "-0", "7", "-42", "999999999999999999", "-999999999999999999", "9223372036854775807",
                      "-9223372036854775808", "9223372036854775808", "", "-", "+5", "1.0", "12a", " 3", "00012"])
    func readsWhatInt64ReadsFromTheText(text: String) {
        let read = Array(text.utf8).withUnsafeBytes { PublishedValue.integer($0) }
        #expect(read == Int64(text), "\(text)")
    }
}
