import Foundation
import Ledger
import OwnerDashCore
import SQLiteKit
@testable import Sync
import Testing

/// The lease-charge audit on the synced simulated portfolio, held against the exceptions the simulator injected
/// (truth.json `audit_exceptions`), and audit history surviving a re-sync. (Here rather than in LedgerTests because
/// the simulated portfolio is this target's fixture.)
@Suite struct ChargeAuditTruthTests {
    @Test func everyInjectedExceptionIsFoundWithItsAmountsAndNothingElseIsFlagged() throws {
        let portfolio = try SimulatedPortfolio.shared.get()
        let data = try portfolio.copyOfLoadedData()
        defer { try? FileManager.default.removeItem(atPath: data.root) }
        let store = try UnifiedStore(dataDirectory: data)
        let yardi = portfolio.properties.filter { $0.pms == .yardi }
        _ = Synchronizer(store: store, runID: "audit").sync(portfolio.properties, log: Diagnostics(sink: { _ in }))
        let database = store.database
        // The whole ledger window (24 months): the simulator injects its exceptions into the last six.
        let run = try ChargeAudit.run(database: database, properties: portfolio.properties.map(\.key),
                                      asOf: LocalDate(iso: SimulatedPortfolio.asOf), months: 24, now: { "2026-11-21T00:00:00Z" })
        let report = try AuditReport.load(database: database, runID: run.runID)
        var injected = 0, unauditable: [String] = [], yardiInjected = 0
        // Every property with a ledger (Yardi today; RealPage once its ledger is synced) is held to the truth.
        // A partial ledger (ridian: a schedule, no posted charges) is recorded as not audited, never flagged line by line.
        #expect(report.partialLedger == [LedgerTruthTests.deniedSite])
        #expect(!report.exceptions.contains { $0.key.property == LedgerTruthTests.deniedSite })
        let audited = portfolio.properties.filter { !report.noLedger.contains($0.key) && !report.partialLedger.contains($0.key) }
        #expect(Set(yardi.map(\.key)).isSubset(of: Set(audited.map(\.key))))
        for property in audited {
            let truth = try #require(try portfolio.truth(property.key)["audit_exceptions"] as? [[String: Any]])
            let found = Dictionary(uniqueKeysWithValues: report.exceptions.filter { $0.key.property == property.key }
                .map { ($0.key.description, $0) })
            var expectedKeys = Set<String>()
            for exception in truth {
                let lease = "\(exception["lease_id"] ?? "")"
                let key = "\(property.key):\(lease):\(exception["charge_code"] ?? ""):\(exception["month"] ?? "")"
                injected += 1
                // Yardi: GetResidentLeaseCharges_Login is fetched for every month of the window, so every lease in
                // effect in it (renewed ones too) has its schedule and every injected exception must be found.
                // RealPage: getscheduledcharges sends current leases only, so an earlier lease has no schedule:
                // its months are not audited (counted as such), and that must be the only reason one is missed.
                let scheduled = try database.scalar("""
                    SELECT count(*) FROM unified_recurring_charges WHERE unified_property_id = :p AND lease_id = :lease
                    """, [":p": .text(property.key), ":lease": .text(lease)])?.integerValue ?? 0
                if property.pms == .yardi { yardiInjected += 1 }
                guard scheduled > 0 || property.pms == .yardi else {
                    let status = try database.scalar("""
                        SELECT status FROM unified_leases WHERE unified_property_id = :p AND lease_id = :lease
                        """, [":p": .text(property.key), ":lease": .text(lease)])?.textValue
                    #expect(status != "current", "\(key): a current RealPage lease must have its schedule")
                    unauditable.append(key)
                    continue
                }
                expectedKeys.insert(key)
                let e = try #require(found[key], "\(key): injected by the simulator, not found")
                let expected = try #require(Money(dollars: (exception["expected"] as? NSNumber)?.doubleValue ?? -1))
                let posted = try #require(Money(dollars: (exception["posted"] as? NSNumber)?.doubleValue ?? -1))
                #expect(e.expected == expected && e.posted == posted, "\(key): \(e.expected) / \(e.posted)")
                let kind = exception["kind"] as? String
                #expect(kind == "missing" ? e.kind == "missing" : (e.kind == "undercharge" || e.kind == "overcharge"), "\(key)")
                #expect(e.kind != "overcharge" || posted > expected)
                // The truth names the household by its Yardi tenant code and by its resident id (RPX's).
                let household = [exception["tenant_code"] as? String, (exception["resident_id"] as? NSNumber)?.stringValue]
                #expect(e.unit == exception["unit"] as? String && household.contains(e.residentID), "\(key): \(e.residentID ?? "-")")
            }
            #expect(Set(found.keys) == expectedKeys, "\(property.key): flagged beyond the injected exceptions")
            let totals = try #require(run.properties.first { $0.property == property.key })
            #expect(totals.matched > 1_000 && totals.leases > 50, "\(property.key): the audit must cover the ledger")
            let missed = unauditable.filter { $0.hasPrefix(property.key + ":") }.count
            #expect(totals.notAudited >= missed, "\(property.key): the months of leases without a schedule are counted")
        }
        #expect(injected >= 5, "the simulator must inject enough exceptions to prove anything")
        #expect(yardiInjected >= 2, "the Yardi properties must have injected exceptions to find")
        #expect(unauditable.count * 3 < injected, "most injected exceptions must be auditable: \(unauditable)")
        // The RealPage site whose RPX license refuses the ledger: its partial ledger is named, not audited, not zeros.
        #expect(report.noLedger.isEmpty)
        #expect(try database.scalar("""
            SELECT not_audited_reason FROM audit_run_properties WHERE run_id = :run AND unified_property_id = 'ridian'
            """, [":run": .integer(run.runID)])?.textValue == "schedule only, no posted charges")
    }

    @Test func aReSyncKeepsEveryAuditRunAndResolution() throws {
        let portfolio = try SimulatedPortfolio.shared.get()
        let data = try portfolio.copyOfLoadedData()
        defer { try? FileManager.default.removeItem(atPath: data.root) }
        let store = try UnifiedStore(dataDirectory: data)
        let yardi = portfolio.properties.filter { $0.pms == .yardi }
        let log = Diagnostics(sink: { _ in })
        _ = Synchronizer(store: store, runID: "first").sync(yardi, log: log)
        let database = store.database
        let asOf = LocalDate(iso: SimulatedPortfolio.asOf)
        let run1 = try ChargeAudit.run(database: database, properties: yardi.map(\.key), asOf: asOf, months: 12,
                                       now: { "2026-11-21T00:00:00Z" })
        let exception = try #require(try AuditReport.load(database: database, runID: run1.runID).exceptions.first)
        try AuditResolutions.resolve(database: database, key: exception.key, fix: "credited", action: .credit, by: "dana",
                                     note: nil, at: "2026-11-21T01:00:00Z")
        let tables = ["audit_runs", "audit_run_properties", "audit_lease_charges", "audit_results", "audit_resolutions"]
        func counts() throws -> [Int64] {
            try tables.map { try database.scalar("SELECT count(*) FROM \($0)")?.integerValue ?? -1 }
        }
        let before = try counts()
        #expect(before.allSatisfy { $0 > 0 })

        let outcomes = Synchronizer(store: store, runID: "second").sync(yardi, log: log)
        #expect(outcomes.allSatisfy { $0.error == nil })
        #expect(try counts() == before, "a re-sync deleted audit history")

        let run2 = try ChargeAudit.run(database: database, properties: yardi.map(\.key), asOf: asOf, months: 12,
                                       now: { "2026-11-22T00:00:00Z" })
        let seen = try AuditReport.load(database: database, runID: run2.runID).exceptions.filter { $0.key == exception.key }
        #expect(seen.count == 1 && seen.first?.status == .resolved && seen.first?.historical == true)
        #expect(seen.first?.by == "dana" && seen.first?.at == "2026-11-21T01:00:00Z")
    }
}
