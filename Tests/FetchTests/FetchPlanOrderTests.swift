import Fetch
import Foundation
import OwnerDashCore
import SimulatorSupport
import Testing

/// A fetch plan's jobs come property by property, in the selection's order: the ingest loads and syncs a property as
/// soon as its last artifact has ended, so the first properties' artifacts must be asked for first. The properties
/// whose ledger is pulled whole on its refresh night come before the others (their syncs are checked against a full
/// rebuild, whose TEMP twins the others do without: grouped, the sync makes and drops them once a night).
@Suite struct FetchPlanOrderTests {
    let configPath = repositoryRoot.appendingPathComponent("report_definitions.json").path

    func plan(_ keys: [String], ledger: [String: LedgerFetch] = [:]) throws -> FetchPlan {
        let configuration = try Configuration.load(path: configPath)
        let selection = try keys.map { try #require(configuration.property(key: $0)) }
        return try FetchPlan(configuration: configuration, configPath: configPath, properties: selection,
                             reportNames: nil, environment: [
                                 "REALPAGE_TOKEN": freshToken(), "REALPAGE_RPX_LICENSE_KEY": "key",
                                 "YARDI_USERNAME": "u", "YARDI_PASSWORD": "p", "YARDI_SERVER_NAME": "s",
                                 "YARDI_DATABASE": "d", "YARDI_INTERFACE_ENTITY": "e", "YARDI_INTERFACE_LICENSE": "l",
                             ], ledger: ledger)
    }

    /// The properties in the order their jobs come, one run of jobs per property.
    func runs(_ plan: FetchPlan) -> [String] {
        var runs: [String] = []
        for job in plan.jobs where runs.last != job.propertyKey { runs.append(job.propertyKey) }
        return runs
    }

    @Test func jobsComePropertyByPropertyInTheSelectionsOrder() throws {
        let plan = try plan(["nexus_east", "yp_riverwalk", "kalaco"])
        // Runs of the same property: one run per property, in the selection's order.
        #expect(runs(plan) == ["nexus_east", "yp_riverwalk", "kalaco"])
        // Within a RealPage property, its reports before its RPX operations (the order the load reads them in).
        let kinds = plan.jobs.filter { $0.propertyKey == "kalaco" }.map { job -> String in
            switch job { case .report: "report"; case .rpx: "rpx"; case .yardi: "yardi" }
        }
        #expect(kinds.contains("report") && kinds.contains("rpx"))
        #expect(kinds == kinds.sorted(), "reports, then RPX: \(kinds)")
        #expect(plan.jobs.filter { $0.propertyKey == "yp_riverwalk" }.allSatisfy { if case .yardi = $0 { true } else { false } })
    }

    @Test func theLedgersPulledWholeOnTheirRefreshNightComeFirst() throws {
        let window = LedgerWindow(from: try #require(LocalDate(iso: "2026-11-16")), to: try #require(LocalDate(iso: "2026-11-24")))
        let refresh = LedgerFetch.full(reason: "scheduled refresh", reconcile: window, refresh: true)
        let plan = try plan(["nexus_east", "yp_riverwalk", "kalaco", "parkside", "yp_cedar_bluff"], ledger: [
            "nexus_east": .incremental(window), "yp_riverwalk": .incremental(window),
            "kalaco": refresh, "parkside": .full(reason: "first pull", reconcile: nil), "yp_cedar_bluff": refresh,
        ])
        // The refresh nights first, each group in the selection's order; a first pull is no refresh (its sync is
        // not checked against a rebuild).
        #expect(runs(plan) == ["kalaco", "yp_cedar_bluff", "nexus_east", "yp_riverwalk", "parkside"])
    }
}
