import Foundation
import OwnerDashCore
import PostgresKit
import PostgresTestSupport
import SQLiteKit
import SimulatorSupport
import Testing
@testable import Ingest

/// Several `ingest --database-url` hosts, each with its own data directory, sharing one portfolio's night through
/// the server: every property done by exactly one host, a property's later nights on the host holding its raw
/// history, and a host killed mid-run (`kill -9`) losing its properties to another once its claims lapse.
@Suite(.serialized) struct SharedNightTests {
    static let properties = ["kalaco", "nexus_east", "edison_rino", "yp_riverwalk"]

    /// The simulator's registry cut to `properties` (the night shares whatever the configuration lists).
    static let config: String = {
        let source = URL(fileURLWithPath: simulatorConfigPath)
        var object = (try? JSONSerialization.jsonObject(with: Data(contentsOf: source))) as? [String: Any] ?? [:]
        object["properties"] = (object["properties"] as? [[String: Any]] ?? []).filter { properties.contains($0["key"] as? String ?? "") }
        let path = source.deletingLastPathComponent().appendingPathComponent("four-properties.json")
        try? JSONSerialization.data(withJSONObject: object).write(to: path)
        return path.path
    }()

    func night(_ asOf: String, host: String, server: DatabaseURL, parallel: Int = 1, timeout: Int = 300) -> [String] {
        ["ingest", "--as-of", asOf, "--parallel", String(parallel), "--database-url", server.uri, "--host-name", host,
         "--claim-timeout", String(timeout)]
    }

    /// Each property's state and host on a run date.
    func claims(_ postgres: PostgresConnection, _ date: String) throws -> [String: (state: String, host: String, attempts: Int)] {
        var result: [String: (String, String, Int)] = [:]
        for row in try postgres.query("SELECT unified_property_id, state, host, attempts FROM ownerdash_claims WHERE run_date = :d",
                                      ["d": .text(date)]) {
            result[row["unified_property_id"] ?? ""] = (row["state"] ?? "", row["host"] ?? "", Int(row["attempts"] ?? "") ?? 0)
        }
        return result
    }

    @Test func twoHostsShareTheNightEachPropertyOnceAndKeepTheirPropertiesOnLaterNights() throws {
        let simulator = try PMSSimulator.shared.get()
        let server = try TestPostgres.freshDatabase("shared")
        let a = try DataDir(), b = try DataDir()
        let first = "2026-11-16"
        let hostA = try a.start(night(first, host: "host-a", server: server), environment: simulator.environment, config: Self.config)
        let hostB = try b.start(night(first, host: "host-b", server: server), environment: simulator.environment, config: Self.config)
        let resultA = try hostA.wait(), resultB = try hostB.wait()
        #expect(resultA.status == 0, "host-a: \(resultA.stderr.suffix(1500))")
        #expect(resultB.status == 0, "host-b: \(resultB.stderr.suffix(1500))")

        let postgres = try PostgresConnection(url: server)
        let night1 = try claims(postgres, first)
        #expect(Set(night1.keys) == Set(Self.properties), "every property claimed: \(night1.keys.sorted())")
        #expect(night1.values.allSatisfy { $0.state == "done" && $0.attempts == 1 })
        let byA = Set(night1.filter { $0.value.host == "host-a" }.keys), byB = Set(night1.filter { $0.value.host == "host-b" }.keys)
        #expect(!byA.isEmpty && !byB.isEmpty, "the night was spread: host-a \(byA.sorted()), host-b \(byB.sorted())")
        // Each host synced exactly its own properties; the server holds all of them.
        for (directory, mine) in [(a, byA), (b, byB)] {
            let synced = Set(try directory.unified().query("SELECT unified_property_id FROM unified_properties").compactMap { $0[0].textValue })
            #expect(synced == mine)
        }
        #expect(try postgres.scalar("SELECT count(DISTINCT unified_property_id) FROM unified_units") == "4")
        // Each run and each property's publication is recorded under the host's --host-name, not the machine's name
        // (both hosts run on this one machine).
        let runHosts = Set(try postgres.query("SELECT DISTINCT host FROM etl_runs").compactMap { $0["host"] })
        #expect(runHosts == ["host-a", "host-b"], "etl_runs.host: \(runHosts.sorted())")
        for row in try postgres.query("SELECT scope, host FROM ownerdash_publications WHERE scope LIKE 'property:%'") {
            let property = String(row["scope"]?.dropFirst("property:".count) ?? "")
            #expect(row["host"] == night1[property]?.host, "\(property) published by \(row["host"] ?? "-")")
        }

        // The next night each property goes back to the host holding its raw history, whichever host asks first.
        let second = "2026-11-20"
        let againB = try b.start(night(second, host: "host-b", server: server), environment: simulator.environment, config: Self.config)
        let againA = try a.start(night(second, host: "host-a", server: server), environment: simulator.environment, config: Self.config)
        let second1 = try againB.wait(), second2 = try againA.wait()
        #expect(second1.status == 0 && second2.status == 0, "\(second1.stderr.suffix(800)) \(second2.stderr.suffix(800))")
        let night2 = try claims(postgres, second)
        for property in Self.properties {
            #expect(night2[property]?.host == night1[property]?.host, "\(property) moved from \(night1[property]?.host ?? "-") to \(night2[property]?.host ?? "-")")
        }
    }

    @Test func aHostKilledMidRunLosesItsPropertiesToAnotherOnceItsClaimsLapse() throws {
        let simulator = try PMSSimulator.shared.get()
        let server = try TestPostgres.freshDatabase("killed")
        let a = try DataDir(), b = try DataDir()
        let date = "2026-11-20"
        let postgres = try PostgresConnection(url: server)
        // host-a claims all four in one batch, then dies before it can finish them.
        let doomed = try a.start(night(date, host: "host-a", server: server, parallel: 4, timeout: 4),
                                 environment: simulator.environment, config: Self.config)
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            if (try? claims(postgres, date).values.filter({ $0.state == "claimed" && $0.host == "host-a" }).count) == 4 { break }
            usleep(20_000)
        }
        doomed.killHard()
        #expect(try claims(postgres, date).values.filter { $0.host == "host-a" && $0.state == "claimed" }.count == 4)

        let started = Date()
        let rescue = try b.ownerdash(night(date, host: "host-b", server: server, parallel: 4, timeout: 4),
                                     environment: simulator.environment, config: Self.config)
        #expect(rescue.status == 0, "host-b: \(rescue.stderr.suffix(1500))")
        let after = try claims(postgres, date)
        #expect(after.count == 4)
        #expect(after.values.allSatisfy { $0.state == "done" && $0.host == "host-b" && $0.attempts == 2 }, "\(after)")
        // host-b waited for the lapse (the claims were host-a's for 4 s) rather than take them at once.
        #expect(Date().timeIntervalSince(started) >= 3)
        let synced = Set(try b.unified().query("SELECT unified_property_id FROM unified_properties").compactMap { $0[0].textValue })
        #expect(synced == Set(Self.properties))
    }
}
