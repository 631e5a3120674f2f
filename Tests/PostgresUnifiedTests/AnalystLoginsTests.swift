import Foundation
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
}
