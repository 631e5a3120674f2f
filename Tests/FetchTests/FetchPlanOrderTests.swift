import Fetch
import Foundation
import OwnerDashCore
import SimulatorSupport
import Testing

/// A fetch plan's jobs come property by property, in the selection's order: the ingest loads and syncs a property as
/// soon as its last artifact has ended, so the first properties' artifacts must be asked for first.
@Suite struct FetchPlanOrderTests {
    @Test func jobsComePropertyByPropertyInTheSelectionsOrder() throws {
        let configPath = repositoryRoot.appendingPathComponent("report_definitions.json").path
        let configuration = try Configuration.load(path: configPath)
        let selection = try ["nexus_east", "yp_riverwalk", "kalaco"].map { try #require(configuration.property(key: $0)) }
        let plan = try FetchPlan(configuration: configuration, configPath: configPath, properties: selection,
                                 reportNames: nil, environment: [
                                     "REALPAGE_TOKEN": freshToken(), "REALPAGE_RPX_LICENSE_KEY": "key",
                                     "YARDI_USERNAME": "u", "YARDI_PASSWORD": "p", "YARDI_SERVER_NAME": "s",
                                     "YARDI_DATABASE": "d", "YARDI_INTERFACE_ENTITY": "e", "YARDI_INTERFACE_LICENSE": "l",
                                 ])
        // Runs of the same property: one run per property, in the selection's order.
        var runs: [String] = []
        for job in plan.jobs where runs.last != job.propertyKey { runs.append(job.propertyKey) }
        #expect(runs == ["nexus_east", "yp_riverwalk", "kalaco"])
        // Within a RealPage property, its reports before its RPX operations (the order the load reads them in).
        let kinds = plan.jobs.filter { $0.propertyKey == "kalaco" }.map { job -> String in
            switch job { case .report: "report"; case .rpx: "rpx"; case .yardi: "yardi" }
        }
        #expect(kinds.contains("report") && kinds.contains("rpx"))
        #expect(kinds == kinds.sorted(), "reports, then RPX: \(kinds)")
        #expect(plan.jobs.filter { $0.propertyKey == "yp_riverwalk" }.allSatisfy { if case .yardi = $0 { true } else { false } })
    }
}
