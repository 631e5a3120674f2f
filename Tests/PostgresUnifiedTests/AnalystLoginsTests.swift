import Foundation
import Synchronization
import PostgresKit
import PostgresTestSupport
import Testing
@testable import PostgresUnified

/// Analysts' logins on the server: an owner login reads every row, a manager login only its properties' rows, in every
/// table and view, and neither can write.
@Suite struct AnalystLoginsTests {
    @Test func aManagerLoginSeesOnlyItsPropertiesEverywhereAndNobodyWrites() throws {
        let sample = try UnifiedSample()
        let url = try TestPostgres.freshDatabase("logins")
        let publisher = try UnifiedPublisher(url: url, host: "host-a")
        _ = try publisher.publishAll(from: sample.database)
        let admin = try PostgresConnection(url: url)
        let suffix = UUID().uuidString.prefix(6).lowercased()
        let manager = "mgr_\(suffix)", owner = "own_\(suffix)"
        try AnalystLogins.add(.init(name: manager, role: .manager, properties: ["alder_court"]), password: "pw-m", on: admin)
        try AnalystLogins.add(.init(name: owner, role: .owner, properties: []), password: "pw-o", on: admin)
        #expect(try AnalystLogins.list(on: admin).filter { $0.name.hasSuffix(String(suffix)) }.map(\.name) == [manager, owner])

        func connect(_ login: String) throws -> PostgresConnection {
            try PostgresConnection(url: DatabaseURL(url.uri.replacingOccurrences(of: "postgres@", with: "\(login)@")))
        }
        let asManager = try connect(manager), asOwner = try connect(owner)
        // The server holds a SCRAM hash, never the clear text.
        let stored = try admin.scalar("SELECT rolpassword FROM pg_authid WHERE rolname = :name", ["name": .text(manager)])
        #expect(stored?.hasPrefix("SCRAM-SHA-256$") == true && stored?.contains("pw-m") == false)
        let count = { (connection: PostgresConnection, relation: String) in try connection.scalar("SELECT count(*) FROM \(relation)") }
        for (relation, mine, all) in [("unified_units", "3", "6"), ("unified_charges", "3", "6"), ("v_units", "3", "6"),
                                      ("v_properties", "1", "2"), ("v_delinquency_totals_latest", "1", "2"),
                                      ("v_ledger_monthly", "1", "2"), ("etl_run_items", "1", "1"), ("etl_runs", "0", "1")] {
            #expect(try count(asManager, relation) == mine, "\(relation) as a manager")
            #expect(try count(asOwner, relation) == all, "\(relation) as an owner")
        }
        #expect(try asManager.scalar("SELECT count(*) FROM unified_units WHERE unified_property_id = 'birch_row'") == "0")
        #expect(try count(asManager, "ownerdash_login_properties") == "1")
        do { try asManager.execute("DELETE FROM unified_units"); Issue.record("a manager deleted rows") } catch let error as PostgresError {
            #expect(error.sqlState == "42501")
        }
        do { try asOwner.execute("UPDATE unified_units SET market_rent = 1"); Issue.record("an owner login wrote") } catch let error as PostgresError {
            #expect(error.sqlState == "42501")
        }

        // The views are made again by a migration: the scope holds on the new ones.
        try admin.execute("DELETE FROM ownerdash_schema")
        try PostgresSchema.migrate(admin)
        #expect(try count(try connect(manager), "v_units") == "3")

        // A manager given another property sees it at once; a removed login cannot connect.
        try AnalystLogins.add(.init(name: manager, role: .manager, properties: ["alder_court", "birch_row"]), password: "pw-m", on: admin)
        #expect(try count(asManager, "unified_units") == "6")
        try AnalystLogins.remove(manager, on: admin)
        #expect(throws: PostgresError.self) { try connect(manager) }
    }

    /// Roles are the cluster's: logins added to two databases of one server at the same moment both succeed (their
    /// role set-ups can deadlock, or both create the same group role; the loser tries again).
    @Test func loginsAddedToTwoDatabasesAtOnceBothSucceed() throws {
        let sample = try UnifiedSample()
        let urls = try (0..<2).map { _ in try TestPostgres.freshDatabase("racing") }
        for url in urls { _ = try UnifiedPublisher(url: url, host: "host-a").publishAll(from: sample.database) }
        let suffix = UUID().uuidString.prefix(6).lowercased()
        let failures = Mutex<[String]>([])
        for round in 0..<3 {
            DispatchQueue.concurrentPerform(iterations: urls.count) { index in
                do {
                    let connection = try PostgresConnection(url: urls[index])
                    try AnalystLogins.add(.init(name: "race_\(suffix)_\(round)_\(index)", role: .manager, properties: ["alder_court"]),
                                          password: "pw", on: connection)
                } catch {
                    failures.withLock { $0.append("round \(round), database \(index): \(error)") }
                }
            }
        }
        #expect(failures.withLock { $0 }.isEmpty)
    }

    /// A lost race is tried again, other errors are not, and three lost races in a row give up with the last.
    @Test func onlyLostRacesAreTriedAgain() {
        var attempts = 0
        #expect(throws: Never.self) {
            try AnalystLogins.retryingRaces {
                attempts += 1
                if attempts == 1 { throw PostgresError(sqlState: "40P01", message: "deadlock detected", context: "test") }
            }
        }
        #expect(attempts == 2)
        attempts = 0
        #expect(throws: PostgresError.self) {
            try AnalystLogins.retryingRaces {
                attempts += 1
                throw PostgresError(sqlState: "42501", message: "permission denied", context: "test")
            }
        }
        #expect(attempts == 1)
        attempts = 0
        #expect(throws: PostgresError.self) {
            try AnalystLogins.retryingRaces {
                attempts += 1
                throw PostgresError(sqlState: "40P01", message: "deadlock detected", context: "test")
            }
        }
        #expect(attempts == 3)
    }
}
