import Foundation
import OwnerDashCore
import SQLiteKit
import SimulatorSupport
import Testing

/// `ownerdash fetch --reports rpx` + `load --run`, end to end against pms_sim's RPX gateway.
@Suite struct RPXFetchTests {
    @Test func rpxOperationsLandBesideTheReportsAndLoadWithTheSimulatorsNumbers() throws {
        let simulator = try PMSSimulator.clean.get()
        let workspace = try Workspace()
        let key = "sim-rpx-license-key"
        let environment = ["OWNERDASH_REALPAGE_RPX_URL": simulator.base + "/realpage/rpx/partner/OwnerDash/OwnerDash.svc",
                           "REALPAGE_RPX_LICENSE_KEY": key]
        let fetch = try workspace.ownerdash(["fetch", "--property", "nexus_east", "--property", "ridian", "--reports", "rpx",
                                             "--as-of", "2026-11-20", "--parallel", "4"], environment: environment)
        // ridian's license is not authorized for the ledger (the simulator's rpx_ledger_denied): skipped, not failed.
        #expect(fetch.status == 0, "stderr: \(fetch.stderr)")
        let runID = try #require(fetch.runID)
        let operations = ["getbuildings", "getleaseinfo", "getrentableitems", "getresidentledger", "getresidentlistinfo",
                          "getscheduledcharges", "getsitelist", "getunitlist", "unitlist"]
        // getunitlist is outside ridian's contract (quirk rpx_getunitlist_not_in_contract, seed 7): ActionNotSupported,
        // skipped like a refusal.
        #expect(try workspace.landedFiles(runID)
                == ["manifest.json"] + operations.map { "realpage/nexus_east/\($0).xml" }
                + operations.filter { !["getresidentledger", "getscheduledcharges", "getunitlist"].contains($0) }
                    .map { "realpage/ridian/\($0).xml" })
        #expect(fetch.stderr.contains("realpage/ridian/getunitlist.xml: warning: not fetched: the partner contract does not include getunitlist"))
        #expect(fetch.stdoutLines.contains("skipped realpage/ridian/getresidentledger.xml"))
        #expect(fetch.stderr.contains("realpage/ridian/getresidentledger.xml: warning: not fetched: the license key is not authorized for getresidentledger at this site"))
        let manifest = try workspace.manifest(runID)
        #expect(!manifest.text.contains(key) && !fetch.stderr.contains(key))

        let load = try workspace.ownerdash(["load", "--run", runID], environment: [:])
        #expect(load.status == 0, "stderr: \(load.stderr)")
        #expect(load.stdoutLines.filter { $0.hasPrefix("loaded  ") }.count == 15)
        let database = try Database(path: workspace.data.appendingPathComponent("realpage_raw.db").path, mode: .readOnly)
        for property in ["nexus_east", "ridian"] {
            let truth = try simulator.truth(property)
            let counts = truth["unit_counts"] as? [String: Any]
            func one(_ sql: String) throws -> SQLValue? { try database.query(sql, [":p": .text(property)]).first?.first }
            // The raw table keeps every unitlist row; the dwelling units (FpReportUnitOccupancy true) are the truth's
            // units, and a property showing the non-dwelling quirk has its two areas besides.
            #expect(try one("SELECT count(*) FROM realpage_units WHERE property_id = :p AND fp_report_unit_occupancy = 1")?.integerValue
                    == Int64(truth["total_units"] as? Int ?? -1), "\(property) units")
            #expect(try one("SELECT sum(vacant) FROM realpage_units WHERE property_id = :p AND fp_report_unit_occupancy = 1")?.integerValue
                    == Int64(counts?["vacant"] as? Int ?? -1), "\(property) vacant units (Vacant = T)")
            let nonDwelling = try simulator.quirks("rpx_non_dwelling_units").contains(property) ? 2 : 0
            #expect(try one("SELECT count(*) FROM realpage_units WHERE property_id = :p AND fp_report_unit_occupancy = 0")?.integerValue
                    == Int64(nonDwelling), "\(property) non-dwelling areas kept as sent")
            let totals = (truth["delinquency"] as? [String: Any])?["totals"] as? [String: Any]
            let net = try #require(totals?["net"] as? Double)
            #expect(try one("SELECT sum(CAST(round(balance * 100) AS INTEGER)) FROM realpage_residents WHERE property_id = :p AND head_of_household = 1")?.integerValue
                    == Int64((net * 100).rounded()), "\(property) net balance of households")
            #expect(try one("SELECT count(*) FROM realpage_sites WHERE property_id = :p AND sys_date = '2026-11-20'")?.integerValue == 1)
            // getunitlist: one unit object with its floor per unit where the contract includes it, none at ridian.
            #expect(try one("SELECT count(*) FROM realpage_unit_objects WHERE property_id = :p AND floor_number IS NOT NULL")?.integerValue
                    == (property == "ridian" ? 0 : Int64(truth["total_units"] as? Int ?? -1)), "\(property) floors")
        }
    }

    @Test func askingForRPXWithoutALicenseKeyIsAConfigurationError() throws {
        let workspace = try Workspace()
        let result = try workspace.ownerdash(["fetch", "--property", "nexus_east", "--reports", "unitlist"], environment: [:])
        #expect(result.status == 1)
        #expect(result.stderr.contains("no RPX license key: set REALPAGE_RPX_LICENSE_KEY"))
    }
}
