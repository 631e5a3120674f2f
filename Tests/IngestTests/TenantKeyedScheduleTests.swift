import Foundation
import SimulatorSupport
import Testing

/// The Yardi property whose lease charges come without a LeaseID (quirk `yardi_lease_charges_without_lease_id`,
/// Yardi's own sample: keyed on the customer), ingested and audited as a user does: the audit finds the exceptions the
/// simulator injected and nothing else. Before each service period took the lease it was posted on, a renewed
/// tenant's earlier period sat on the lease the resident list names now, and the audit flagged every month of it
/// missing (803 lines over six months at yp_juniper_flats after 16 nights). SyncTests' truth test serves six
/// properties, none of them with this quirk.
@Suite struct TenantKeyedScheduleTests {
    @Test func theAuditOfATenantKeyedScheduleFindsWhatWasInjectedAndNothingElse() throws {
        let simulator = try PMSSimulator()
        let property = try #require(try simulator.quirks("yardi_lease_charges_without_lease_id").first)
        let directory = try DataDir()
        let ingest = try directory.ownerdash([
            "ingest", "--as-of", PMSSimulator.defaultAsOf, "--property", property, "--reports",
            "GetUnitInformation,GetResidentsByStatus,GetResidentTransactions_Login,GetResidentLeaseCharges_Login",
        ], environment: simulator.environment())
        #expect(ingest.status == 0, "\(ingest.stderr)")
        #expect(try directory.unified().query("""
            SELECT count(*) FROM unified_recurring_charges WHERE unified_property_id = :p
            """, [":p": .text(property)]).first?.first?.integerValue ?? 0 > 1_000, "the schedule of every month was synced")

        let run = try directory.ownerdash(["audit", "run", "--as-of", PMSSimulator.defaultAsOf, "--months", "6"])
        #expect(run.status == 0, "\(run.stderr)")
        let shown = try directory.ownerdash(["audit", "show", "--format", "json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any])
        let flagged = Set((object["exceptions"] as? [[String: Any]] ?? []).compactMap { $0["key"] as? String })
        let window = Set((6...11).map { String(format: "2026-%02d", $0) })
        let injected = try #require(try simulator.truth(property)["audit_exceptions"] as? [[String: Any]])
        let expected = Set(injected.filter { window.contains($0["month"] as? String ?? "") }.map {
            "\(property):\($0["lease_id"] ?? ""):\($0["charge_code"] ?? ""):\($0["month"] ?? "")"
        })
        #expect(!expected.isEmpty, "the simulator injects exceptions into the last six months")
        #expect(expected.subtracting(flagged).isEmpty, "injected, not found: \(expected.subtracting(flagged).sorted())")
        #expect(flagged.subtracting(expected).isEmpty,
                "flagged beyond the injected (\(flagged.subtracting(expected).count)): \(flagged.subtracting(expected).sorted().prefix(5))")
        let totals = try #require((object["properties"] as? [[String: Any]])?.first)
        #expect(totals["not_audited_lines"] as? Int == 0, "every posted line has its schedule: \(totals)")
    }
}
