import Fetch
import Foundation
import OwnerDashCore
import Testing

/// Catalogue reports whose report key (or id) nobody has seen: listed in report_definitions.json with
/// `"report_key": null` and a note, loaded from downloaded files, never requested from the reporting API.
@Suite struct UnknownReportKeyTests {
    static let configPath = repositoryRoot.appendingPathComponent("report_definitions.json").path

    @Test func theRegistryCarriesNoKeyForTheReportsNoOneHasSeenOne() throws {
        let configuration = try Configuration.load(path: Self.configPath)
        let unknown = configuration.realpage.reports.filter { $0.reportKey == nil }
        #expect(Set(unknown.map(\.parser)) == ["transaction_detail", "charge_journal", "cash_basis_gl",
                                               "monthly_income_summary", "collections"])
        #expect(unknown.allSatisfy { $0.reportKeyNote?.isEmpty == false }, "each says why")
        #expect(unknown.first { $0.parser == "transaction_detail" }?.reportID == 4028)
        #expect(unknown.first { $0.parser == "charge_journal" }?.reportID == 4039)
    }

    @Test func namingSuchAReportIsRefusedInOneLineSayingWhatToConfigure() throws {
        let result = try Workspace().ownerdash(["fetch", "--property", "nexus_east", "--reports", "rent_roll,charge_journal"],
                                               environment: ["REALPAGE_TOKEN": freshToken()])
        #expect(result.status == 1)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1)
        #expect(lines.first?.contains("\"Charge and Adjustment Journal\" (charge_journal) cannot be fetched") == true)
        #expect(lines.first?.contains("realpage.reports[\"charge_journal\"].report_key in \(Self.configPath)") == true)
        #expect(result.stdout.isEmpty, "no run started")
    }

    @Test func aDefaultRunLeavesThemOutAndSaysSo() throws {
        let configuration = try Configuration.load(path: Self.configPath)
        let nexus = try #require(configuration.property(key: "nexus_east"))
        let plan = try FetchPlan(configuration: configuration, configPath: Self.configPath, properties: [nexus],
                                 reportNames: nil, environment: ["REALPAGE_TOKEN": freshToken()])
        let fetched = Set(plan.jobs.compactMap { job -> String? in
            if case .report(let report) = job { return report.report.parser } else { return nil }
        })
        #expect(fetched == Set(allReports), "every report with an id and key, nothing else")
        #expect(plan.refused.count == 5)
        #expect(plan.refused.allSatisfy { $0.contains("cannot be fetched") && $0.contains(Self.configPath) })
        #expect(plan.refused.contains { $0.contains("(collections)") && $0.contains("report_id and report_key are unknown") })
    }
}
