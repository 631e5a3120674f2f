import Foundation
import OwnerDashCore
import SQLiteKit
import SimulatorSupport
import Testing

/// A report the catalogue lists under several ids (`alternates`): an account that offers Lease Expiration only as
/// 3838, the id the system OwnerDash replaces used, answers the shipped catalogue's 4299 with `HTTP 404: Report 4299
/// was not found`. The fetch asks 3838 next, lands it, says so, and asks 3838 first on later runs.
@Suite struct ReportIDFallbackTests {
    static let shippedConfig = repositoryRoot.appendingPathComponent("report_definitions.json").path
    static let offersOnly3838 = Result { try PMSSimulator(flags: ["--withhold-report", "4299", "--no-ledger-truth"]) }

    @Test func theShippedCatalogueListsLeaseExpirationUnder4299Then3838() throws {
        let configuration = try Configuration.load(path: Self.shippedConfig)
        let expirations = try #require(configuration.realpage.reports.first { $0.parser == "lease_expiration" })
        #expect(expirations.identities.map(\.reportID) == [4299, 3838])
        #expect(expirations.identities.last?.reportKey == "89545A3A-C28A-49CC-8791-396AE71AB422")
    }

    @Test func anAccountOfferingOnly3838GetsLeaseExpirationsAndTheNextRunAsks3838First() throws {
        let simulator = try Self.offersOnly3838.get()
        let workspace = try Workspace()
        let arguments = ["ingest", "--property", "kalaco", "--as-of", PMSSimulator.defaultAsOf,
                         "--reports", "lease_expiration"]
        let first = try workspace.ownerdash(arguments, environment: simulator.environment(), config: Self.shippedConfig)
        #expect(first.status == 0, "stderr: \(first.stderr)")
        // Said once, naming the account, the report and the id that answered.
        let said = first.stderr.split(separator: "\n").filter { $0.contains("answered as report 3838") }
        #expect(said.count == 1, "stderr: \(first.stderr)")
        #expect(said.first?.contains("account 4248314@127.0.0.1") == true && said.first?.contains("Lease Expiration") == true,
                "\(said)")
        #expect(said.first?.contains("4299 not found there") == true, "\(said)")
        #expect(!first.stderr.contains("HTTP 404"), "stderr: \(first.stderr)")

        // The leases arrived: the raw table holds the property's expirations.
        let raw = try Database(path: workspace.data.appendingPathComponent("realpage_raw.db").path, mode: .readOnly)
        let leases = try raw.scalar("SELECT count(*) FROM realpage_lease_expirations WHERE property_id = 'kalaco'")
        #expect((leases?.integerValue ?? 0) > 0)

        // Remembered per account in the data directory.
        let memory = try String(contentsOf: workspace.data.appendingPathComponent("realpage_report_ids.json"),
                                encoding: .utf8)
        #expect(memory.contains("\"lease_expiration\" : 3838"), "\(memory)")

        // The next run asks 3838 first: no 404 on the way, one create request for the report's one date.
        let second = try workspace.ownerdash(arguments, environment: simulator.environment(),
                                             config: Self.shippedConfig)
        #expect(second.status == 0, "stderr: \(second.stderr)")
        let secondSaid = second.stderr.split(separator: "\n").filter { $0.contains("answered as report 3838") }
        #expect(secondSaid.count == 1 && secondSaid.first?.contains("not found") == false, "stderr: \(second.stderr)")
        let runID = try #require(second.runID)
        let artifact = try #require(try workspace.manifest(runID).artifacts.first { $0["report"] as? String == "lease_expiration" })
        #expect(artifact["report_id"] as? Int == 3838)
        #expect((artifact["notes"] as? [String] ?? []).isEmpty, "\(artifact)")
    }
}
