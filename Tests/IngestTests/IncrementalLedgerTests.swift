import Foundation
import OwnerDashCore
import SQLiteKit
import Testing
@testable import Ingest

/// Two nightly ingests against pms_sim: the first pulls each tenant ledger whole, the second only the window since
/// the first less the overlap; what the second night's sync answers equals what a fresh full ingest of that day gives.
@Suite struct IncrementalLedgerTests {
    static let selection = ["--property", "nexus_east", "--property", "yp_riverwalk", "--reports",
                            "getsitelist,unitlist,getresidentlistinfo,getresidentledger,GetUnitInformation,GetResidentsByStatus,"
                            + "GetResidentTransactions_Login",
                            "--parallel", "4"]

    /// The tenant-ledger answers of unified.db, every business column, in a fixed order.
    static func answers(_ directory: DataDir) throws -> [String: [[SQLValue]]] {
        let unified = try directory.unified()
        return [
            "charges": try unified.query("""
                SELECT unified_property_id, charge_id, resident_id, lease_id, unit_number, charge_code, category, period,
                       charge_date, due_date, amount, amount_paid, balance
                FROM unified_charges ORDER BY unified_property_id, charge_id
                """),
            "payments": try unified.query("""
                SELECT unified_property_id, payment_id, resident_id, lease_id, unit_number, payment_date, period, amount,
                       reference, payment_type
                FROM unified_payments ORDER BY unified_property_id, payment_id
                """),
            "balances": try unified.query("""
                SELECT unified_property_id, resident_id, charges, payments, balance
                FROM unified_household_balances ORDER BY unified_property_id, resident_id
                """),
            "residents": try unified.query("""
                SELECT unified_property_id, resident_id, balance FROM unified_residents ORDER BY unified_property_id, resident_id
                """),
        ]
    }

    /// Rows each run's ledger load items wrote, per property.
    static func ledgerRows(_ directory: DataDir, run: String) throws -> [String: Int] {
        var rows: [String: Int] = [:]
        for item in try directory.items(run) where item.text("stage") == "load" {
            let artifact = item.text("artifact") ?? ""
            guard artifact.contains("getresidentledger") || artifact.contains("GetResidentTransactions") else { continue }
            rows[item.text("property_id") ?? "", default: 0] += item.int("rows") ?? 0
        }
        return rows
    }

    @Test func theSecondNightFetchesOnlyTheWindowAndAnswersAsAFreshFullPull() throws {
        let simulator = try Simulator.shared.get()
        let nightly = try DataDir()
        let night1 = try nightly.ownerdash(["ingest", "--as-of", "2026-11-16"] + Self.selection, environment: simulator.environment)
        #expect(night1.status == 0, "\(night1.stderr)")
        #expect(night1.stderr.contains("nexus_east: ledger: full (first pull"), "\(night1.stderr)")
        let run1 = try #require(night1.runID)

        let night2 = try nightly.ownerdash(["ingest", "--as-of", "2026-11-20"] + Self.selection, environment: simulator.environment)
        #expect(night2.status == 0, "\(night2.stderr)")
        #expect(night2.stderr.contains("yp_riverwalk: ledger: incremental 2026-11-09...2026-11-20"), "\(night2.stderr)")
        let run2 = try #require(night2.runID)
        let fetched = try nightly.items(run2).filter { $0.text("stage") == "fetch" }.compactMap { $0.text("artifact") }
        #expect(fetched.contains("realpage/nexus_east/getresidentledger.2026-11-09_2026-11-20.xml"))
        #expect(fetched.contains("realpage/nexus_east/getresidentledger.open.xml"))
        #expect(fetched.contains("yardi/yp_riverwalk/GetResidentTransactions_ByChargeDate_Login.2026-11-09_2026-11-20.xml"))
        #expect(fetched.contains("yardi/yp_riverwalk/GetResidentTransactions_ByApplicationDate_Login.2026-11-09_2026-11-20.xml"))
        #expect(!fetched.contains { $0.hasSuffix("/getresidentledger.xml") || $0.hasSuffix("/GetResidentTransactions_Login.xml") },
                "no whole ledger on the second night")

        // The history the third night would be planned from.
        let history = try LedgerRuns.read(try nightly.unified(), property: "yp_riverwalk", artifacts: .yardi("yp_riverwalk"))
        #expect(history == LedgerRuns(lastSuccess: LocalDate(iso: "2026-11-20"), lastFull: LocalDate(iso: "2026-11-16")))

        let fresh = try DataDir()
        let full = try fresh.ownerdash(["ingest", "--as-of", "2026-11-20"] + Self.selection, environment: simulator.environment)
        #expect(full.status == 0, "\(full.stderr)")
        let incremental = try Self.answers(nightly), whole = try Self.answers(fresh)
        for (name, rows) in whole {
            #expect(rows.count > 10, "\(name): the simulator's ledger has rows")
            #expect(incremental[name] == rows, "\(name) after an incremental night equals a fresh full pull")
        }
        // One raw row per vendor transaction, however many nights merged it.
        for (database, table) in [(nightly.data.yardiRawDatabase, "yardi_transactions"),
                                  (nightly.data.realpageRawDatabase, "realpage_ledger")] {
            let raw = try Database(path: database, mode: .readOnly)
            let freshRaw = try Database(path: database.replacingOccurrences(of: nightly.data.root, with: fresh.data.root), mode: .readOnly)
            let count = "SELECT count(*) FROM \(table)"
            #expect(try raw.scalar(count) == freshRaw.scalar(count), "\(table)")
        }
        let rows1 = try Self.ledgerRows(nightly, run: run1), rows2 = try Self.ledgerRows(nightly, run: run2)
        for property in ["nexus_east", "yp_riverwalk"] {
            #expect((rows2[property] ?? 0) * 10 < (rows1[property] ?? 0),
                    "\(property): night 2 wrote \(rows2[property] ?? 0) ledger rows, night 1 \(rows1[property] ?? 0)")
        }
    }
}
