import Fetch
import Foundation
import OwnerDashCore
@testable import RunRecords
import SQLiteKit
import Sync
import SimulatorSupport
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

    /// The `ledger_whole_as_of` table of `report lease-status` (JSON): property -> the date of its ledger's last
    /// whole pull, for the ledgers nightly windows have brought past it.
    static func wholeAsOf(_ directory: DataDir) throws -> [String: String] {
        let result = try directory.ownerdash(["report", "lease-status", "--start", "2026-08", "--months", "4", "--format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let rows = object["ledger_whole_as_of"] as? [[String: Any]] ?? []
        return Dictionary(rows.map { ($0["property"] as? String ?? "", $0["whole_as_of"] as? String ?? "") }) { $1 }
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
        let simulator = try PMSSimulator.shared.get()
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
        // Both nightly ledgers were brought forward by windows since their whole pull of the 16th, and the ledger
        // reports name that date (a posting entered since and dated before the windows is not in them); the fresh
        // full pull's ledgers are whole as of their night.
        #expect(try Self.wholeAsOf(nightly) == ["nexus_east": "2026-11-16", "yp_riverwalk": "2026-11-16"])
        #expect(try Self.wholeAsOf(fresh) == [:])
        let nightlyUnified = try nightly.unified()
        #expect(try nightlyUnified.query("""
            SELECT count(*) FROM unified_properties WHERE ledger_whole_as_of IS NOT NULL
            """).first?.first == .integer(2))
        #expect(try fresh.unified().query("""
            SELECT count(*) FROM unified_properties WHERE ledger_source IS NOT NULL AND ledger_whole_as_of IS NULL
            """).first?.first == .integer(2))
        // The night's delinquency totals keep the lag they were summed with (an earlier night is named by it); the
        // simulated Nexus East has no Delinquent and Prepaid report that night, so no totals.
        let lagged = try nightlyUnified.query("""
            SELECT m.unified_property_id, m.ledger_whole_as_of FROM unified_delinquency_metrics m
            JOIN unified_properties p USING (unified_property_id) WHERE m.as_of_date = p.as_of_date ORDER BY 1
            """)
        #expect(lagged == [[.text("yp_riverwalk"), .text("2026-11-16")]], "\(lagged)")

        let rows1 = try Self.ledgerRows(nightly, run: run1), rows2 = try Self.ledgerRows(nightly, run: run2)
        for property in ["nexus_east", "yp_riverwalk"] {
            #expect((rows2[property] ?? 0) * 10 < (rows1[property] ?? 0),
                    "\(property): night 2 wrote \(rows2[property] ?? 0) ledger rows, night 1 \(rows1[property] ?? 0)")
        }
    }
}

/// The weekly whole pull, a week after the first, of both vendors' ledgers as pms_sim answers them: each is read by
/// household (RawStore's LedgerHouseholds), most households held as stored, and what the night leaves equals a fresh
/// full ingest of that day. A cut that stopped fitting the simulator's answers would only be slower, never wrong:
/// this is where that would show.
@Suite struct WeeklyWholePullTests {
    @Test func aWeeklyWholePullHoldsTheHouseholdsThatDidNotChangeAndAnswersAsAFreshFullPull() throws {
        let simulator = try PMSSimulator.shared.get()
        let nightly = try DataDir()
        let night1 = try nightly.ownerdash(["ingest", "--as-of", "2026-11-16"] + IncrementalLedgerTests.selection,
                                           environment: simulator.environment)
        #expect(night1.status == 0, "\(night1.stderr)")
        // A week on, every ledger's whole pull due (a one-day cycle makes it so for both at once).
        let refresh = simulator.environment.merging(["OWNERDASH_LEDGER_FULL_REFRESH_DAYS": "1"]) { $1 }
        let night2 = try nightly.ownerdash(["ingest", "--as-of", "2026-11-23"] + IncrementalLedgerTests.selection,
                                           environment: refresh)
        #expect(night2.status == 0, "\(night2.stderr)")
        for artifact in ["realpage/nexus_east/getresidentledger.xml", "yardi/yp_riverwalk/GetResidentTransactions_Login.xml"] {
            let note = night2.stderr.split(separator: "\n").first { $0.hasPrefix("load: \(artifact): ") }.map(String.init) ?? ""
            let held = note.range(of: #"(\d+) household\(s\) as stored, not decoded"#, options: .regularExpression)
                .flatMap { Int(note[$0].prefix { $0.isNumber }) } ?? 0
            #expect(held > 10, "\(artifact): \(note)")
        }
        let fresh = try DataDir()
        let full = try fresh.ownerdash(["ingest", "--as-of", "2026-11-23"] + IncrementalLedgerTests.selection,
                                       environment: simulator.environment)
        #expect(full.status == 0, "\(full.stderr)")
        let weekly = try IncrementalLedgerTests.answers(nightly), whole = try IncrementalLedgerTests.answers(fresh)
        for (name, rows) in whole {
            #expect(rows.count > 10, "\(name): the simulator's ledger has rows")
            #expect(weekly[name] == rows, "\(name) after the weekly pull read by household equals a fresh full pull")
        }
    }
}

/// A posting dated before every window: the clock of pms_sim credits a four-month-old rent charge at each property
/// every 30th day (2026-11-30 is one). No incremental answer lists it; the Delinquent and Prepaid report, fetched whole,
/// shows it.
@Suite struct BackDatedPostingTests {
    static let selection = ["--property", "nexus_east", "--reports",
                            "getsitelist,unitlist,getresidentlistinfo,getresidentledger,delinquency"]

    /// The property's `ledger_open_balance` check as of `asOf`: its status and its two figures.
    static func ledgerCheck(_ directory: DataDir, asOf: String) throws -> [SQLValue] {
        try directory.unified().query("""
            SELECT status, expected, actual FROM sync_checks
            WHERE unified_property_id = 'nexus_east' AND as_of_date = :as_of AND check_name = 'ledger_open_balance'
            """, [":as_of": .text(asOf)]).first ?? []
    }

    /// The night the credit is posted, the ledger check fails (the ledger's open balance above the report's); the
    /// next night asks for the whole ledger of the one household whose balance is off (RPX `reshid`), not the
    /// property's, finds the credit, and the check passes: the ledger answers as a fresh full pull's; the night after
    /// is incremental again.
    @Test func theNightAfterTheLedgerCheckMissesAPostingTheHouseholdsOffArePulledWholeAndFindIt() throws {
        // nexus_east's weekly night is the 29th, none of this test's (a full pull that night would find the credit).
        let registry = try Configuration.load(path: repositoryRoot.appendingPathComponent("report_definitions.json").path)
        #expect(LedgerPlanner.refreshSlots(registry.properties.map(\.key), every: 7)["nexus_east"]?.night
                == LocalDate(iso: "2026-11-29")!.daysSinceEpoch % 7)
        let simulator = try PMSSimulator()
        #expect(try simulator.advance(days: 5) == "2026-11-25")
        let nightly = try DataDir()
        func night(_ asOf: String) throws -> CommandResult {
            let result = try nightly.ownerdash(["ingest", "--as-of", asOf] + Self.selection, environment: simulator.environment())
            #expect(result.status == 0, "\(asOf): \(result.stderr)")
            return result
        }
        _ = try night("2026-11-25")
        #expect(try simulator.advance(days: 5) == "2026-11-30")
        let posted = try night("2026-11-30")
        #expect(posted.stderr.contains("nexus_east: ledger: incremental 2026-11-18...2026-11-30"), "\(posted.stderr)")
        let missed = try Self.ledgerCheck(nightly, asOf: "2026-11-30")
        #expect(missed.first == .text("failed"), "\(missed)")
        if let ledger = missed.dropFirst().first?.doubleValue, let delinquency = missed.last?.doubleValue {
            #expect(abs(ledger - delinquency - 10) < 0.005, "the credit of 10.00 the window missed: \(missed)")
        }

        #expect(try simulator.advance(days: 1) == "2026-12-01")
        let found = try night("2026-12-01")
        let plan = found.stderr.split(separator: "\n").first { $0.contains("nexus_east: ledger: ") }.map(String.init) ?? ""
        #expect(plan.contains("nexus_east: ledger: incremental 2026-11-23...2026-12-01, and 1 household whole (the ledger check of 2026-11-30 found their open balance off the delinquency"),
                "\(found.stderr)")
        let household = plan.split(separator: " ").last.map { String($0.dropLast()) } ?? ""
        #expect(!household.isEmpty && household.allSatisfy(\.isNumber), "a ReshID: \(plan)")
        #expect(found.stderr.contains("nexus_east: the whole getresidentledger pull of household \(household) differs from the ledger merged by the incremental nights: 1 added"),
                "\(found.stderr)")
        #expect(!found.stderr.contains("realpage/nexus_east/getresidentledger.xml"), "the property's whole ledger was not asked for")
        #expect(try Self.ledgerCheck(nightly, asOf: "2026-12-01").first == .text("passed"))
        // The households pulled whole leave the ledger as a fresh full pull of the day has it.
        let fresh = try DataDir()
        let full = try fresh.ownerdash(["ingest", "--as-of", "2026-12-01"] + Self.selection, environment: simulator.environment())
        #expect(full.status == 0, "\(full.stderr)")
        let mended = try IncrementalLedgerTests.answers(nightly), whole = try IncrementalLedgerTests.answers(fresh)
        for (name, rows) in whole {
            #expect(rows.count > 10, "\(name): the simulator's ledger has rows")
            #expect(mended[name] == rows, "\(name) after the household's pull equals a fresh full pull")
        }
        // The pull mended the raw ledger; the sync went by change (the credit reached unified.db, the check passed),
        // not against a full rebuild, which is the scheduled refresh's.
        #expect(found.stderr.contains("nexus_east") && found.stderr.contains(" changed")
                && !found.stderr.contains("checked against a full rebuild"), "\(found.stderr)")

        #expect(try simulator.advance(days: 1) == "2026-12-02")
        // The check passed: the next night chases nothing. (A household's pull is no full pull: the property's whole
        // ledger, last pulled on the 25th, missed its night of the 29th, and is caught up once more than 7 days old.)
        let after = try night("2026-12-02")
        #expect(after.stderr.contains("nexus_east: ledger: incremental 2026-11-24...2026-12-02"), "\(after.stderr)")
    }
}

/// The same credit at a Yardi property, whose delinquency is its own ledger's (Σ BalanceDue), so the open balance
/// cannot show it: the answer by application date brings the old charge with its BalanceDue lowered, the credit is in
/// no window, and the household's window balance exceeds what is open by it (a `ledger_window` gap).
@Suite struct YardiBackDatedPostingTests {
    static func selection(_ property: String) -> [String] {
        ["--property", property, "--reports", "GetUnitInformation,GetResidentsByStatus,GetResidentTransactions_Login"]
    }

    /// The property's `ledger_window_gaps` check as of `asOf`: its status and its two figures.
    static func gapsCheck(_ directory: DataDir, _ property: String, asOf: String) throws -> [SQLValue] {
        try directory.unified().query("""
            SELECT status, expected, actual FROM sync_checks
            WHERE unified_property_id = :property AND as_of_date = :as_of AND check_name = 'ledger_window_gaps'
            """, [":property": .text(property), ":as_of": .text(asOf)]).first ?? []
    }

    /// The credit of the 30th shows in the answer by application date of the 1st: that night the window gaps grow and
    /// the check fails; the next night pulls the ledger whole (Yardi has no call for one household), finds the credit,
    /// and answers as a fresh full pull, the gap gone; the night after is incremental again.
    @Test func aGapGrownByAPostingNoWindowHoldsPullsTheLedgerWholeTheNextNight() throws {
        // A Yardi property whose weekly night is none of this test's (a full pull would find the credit on its own).
        let registry = try Configuration.load(path: repositoryRoot.appendingPathComponent("report_definitions.json").path)
        let slots = LedgerPlanner.refreshSlots(registry.properties.map(\.key), every: 7)
        let nights = ["2026-12-01", "2026-12-02", "2026-12-03"].map { LocalDate(iso: $0)!.daysSinceEpoch % 7 }
        let property = try #require(registry.properties.first { $0.pms == .yardi && !nights.contains(slots[$0.key]?.night ?? -1) }?.key)
        let simulator = try PMSSimulator()
        #expect(try simulator.advance(days: 6) == "2026-11-26")
        let nightly = try DataDir()
        func night(_ asOf: String) throws -> CommandResult {
            let result = try nightly.ownerdash(["ingest", "--as-of", asOf] + Self.selection(property),
                                               environment: simulator.environment())
            #expect(result.status == 0, "\(asOf): \(result.stderr)")
            return result
        }
        _ = try night("2026-11-26")
        #expect(try Self.gapsCheck(nightly, property, asOf: "2026-11-26").first == .text("skipped"), "the first pull is whole")
        #expect(try simulator.advance(days: 5) == "2026-12-01")
        let posted = try night("2026-12-01")
        #expect(posted.stderr.contains("\(property): ledger: incremental 2026-11-19...2026-12-01"), "\(posted.stderr)")
        let grown = try Self.gapsCheck(nightly, property, asOf: "2026-12-01")
        #expect(grown.first == .text("failed"), "\(grown)")
        if let before = grown.dropFirst().first?.doubleValue, let tonight = grown.last?.doubleValue {
            #expect(abs(tonight - before - 10) < 0.005, "the credit of 10.00 no window holds: \(grown)")
        }
        // An operator's re-sync of the night answers as its first sync did (the gaps are held against the whole
        // ledger's, not the last sync's).
        let resync = try nightly.ownerdash(["sync", "--property", property])
        #expect(resync.status == 0, "\(resync.stderr)")
        #expect(try Self.gapsCheck(nightly, property, asOf: "2026-12-01") == grown)

        #expect(try simulator.advance(days: 1) == "2026-12-02")
        let found = try night("2026-12-02")
        #expect(found.stderr.contains("\(property): ledger: full (the ledger check of 2026-12-01 found households' open charges lowered by payments no window holds (window gaps: "),
                "\(found.stderr)")
        #expect(try Self.gapsCheck(nightly, property, asOf: "2026-12-02").first == .text("skipped"))
        let fresh = try DataDir()
        let full = try fresh.ownerdash(["ingest", "--as-of", "2026-12-02"] + Self.selection(property),
                                       environment: simulator.environment())
        #expect(full.status == 0, "\(full.stderr)")
        let mended = try IncrementalLedgerTests.answers(nightly), whole = try IncrementalLedgerTests.answers(fresh)
        for (name, rows) in whole {
            #expect(rows.count > 10, "\(name): the simulator's ledger has rows")
            #expect(mended[name] == rows, "\(name) after the whole pull equals a fresh full pull")
        }
        let gaps = "SELECT subject FROM unified_sync_warnings WHERE unified_property_id = :property AND check_name = 'ledger_window'"
        #expect(try nightly.unified().query(gaps, [":property": .text(property)])
                == fresh.unified().query(gaps, [":property": .text(property)]), "the gap the credit made is gone")

        #expect(try simulator.advance(days: 1) == "2026-12-03")
        // The whole pull met the check's finding: the next night is incremental again, and the check passes.
        let after = try night("2026-12-03")
        #expect(after.stderr.contains("\(property): ledger: incremental 2026-11-25...2026-12-03"), "\(after.stderr)")
        #expect(try Self.gapsCheck(nightly, property, asOf: "2026-12-03").first == .text("passed"))
    }

    /// Gaps a Yardi export has for good (AmountPaid counting payments before the ledger's reach:
    /// yardi_amount_paid_beyond_window) are in the whole pull too: the incremental nights after it find them as they
    /// were, pass, and chase nothing.
    @Test func gapsTheWholeLedgerHasTooAreNotChased() throws {
        let simulator = try PMSSimulator(flags: ["--quirk", "yardi_amount_paid_beyond_window"])
        let property = try #require(try simulator.quirks("yardi_amount_paid_beyond_window").first)
        let nightly = try DataDir()
        for (offset, asOf) in ["2026-11-20", "2026-11-21", "2026-11-22"].enumerated() {
            if offset > 0 { _ = try simulator.advance(days: 1) }
            let result = try nightly.ownerdash(["ingest", "--as-of", asOf] + Self.selection(property),
                                               environment: simulator.environment())
            #expect(result.status == 0, "\(asOf): \(result.stderr)")
            #expect(result.stderr.contains("\(property): ledger: \(offset == 0 ? "full" : "incremental")"), "\(asOf): \(result.stderr)")
            #expect(try Self.gapsCheck(nightly, property, asOf: asOf).first == .text(offset == 0 ? "skipped" : "passed"), "\(asOf)")
        }
        let gaps = try nightly.unified().query("""
            SELECT count(*) FROM unified_sync_warnings WHERE unified_property_id = :property AND check_name = 'ledger_window'
            """, [":property": .text(property)]).first?.first?.integerValue ?? 0
        #expect(gaps > 0, "the export's gaps are there, warned")
    }
}

/// Where the next window starts, read from etl_runs / etl_run_items: a night whose ledger failed is not a success.
@Suite struct LedgerRunsTests {
    /// Records one run of yp_riverwalk as of `asOf` with its ledger items.
    static func record(_ store: UnifiedStore, _ runID: String, asOf: String, status: RunStatus, items: [RunItem]) throws {
        let journal = try RunJournal(database: store.database, start: RunJournal.Start(
            runID: runID, trigger: "schedule", commandLine: "ownerdash ingest", asOf: LocalDate(iso: asOf), properties: 1,
            holder: LockHolder(command: "ingest", runID: runID)))
        for item in items { try journal.record(item) }
        try journal.finish(status: status, warnings: 0)
    }

    /// A data directory whose unified.db holds Nexus East (RealPage), for its ledger checks and runs.
    static func nexusEast() throws -> (directory: DataDir, store: UnifiedStore) {
        let directory = try DataDir()
        try directory.data.create()
        let store = try UnifiedStore(dataDirectory: directory.data)
        try store.database.execute("""
            INSERT INTO unified_properties (unified_property_id, name, pms_source) VALUES ('nexus_east', 'Nexus East', 'realpage')
            """)
        return (directory, store)
    }

    /// Nexus East's `ledger_open_balance` check as of `asOf`, as a sync records it.
    static func ledgerCheck(_ store: UnifiedStore, _ asOf: String, _ status: String, ledger: Double, delinquency: Double) throws {
        _ = try store.database.query("""
            INSERT INTO sync_checks (unified_property_id, as_of_date, run_id, check_name, measure, expected_source,
                                     expected, actual_source, actual, difference, status, detail)
            VALUES ('nexus_east', :as_of, 'r', 'ledger_open_balance', 'net balance', 'tenant ledger open balance',
                    :ledger, 'unified_delinquency net balance', :delinquency, :delinquency - :ledger, :status, '')
            """, [":as_of": .text(asOf), ":status": .text(status), ":ledger": .real(ledger), ":delinquency": .real(delinquency)])
    }

    @Test func aFailedNightIsNotTheLastSuccessSoTheNextWindowReachesBackOverIt() throws {
        let directory = try DataDir()
        try directory.data.create()
        let store = try UnifiedStore(dataDirectory: directory.data)
        let whole = "yardi/yp_riverwalk/GetResidentTransactions_Login.xml"
        let window = "yardi/yp_riverwalk/GetResidentTransactions_ByChargeDate_Login.2026-11-09_2026-11-17.xml"
        try Self.record(store, "r1", asOf: "2026-11-16", status: .succeeded, items: [
            RunItem(stage: .fetch, property: "yp_riverwalk", artifact: whole, status: .succeeded),
            RunItem(stage: .load, property: "yp_riverwalk", artifact: whole, status: .succeeded, rows: 22_840),
        ])
        // The 17th: the window landed but failed to load.
        try Self.record(store, "r2", asOf: "2026-11-17", status: .partial, items: [
            RunItem(stage: .fetch, property: "yp_riverwalk", artifact: window, status: .succeeded),
            RunItem(stage: .load, property: "yp_riverwalk", artifact: window, status: .failed, error: "bad value"),
        ])
        // The 18th: the call by application date failed; the one by charge date alone is not a success either.
        try Self.record(store, "r3", asOf: "2026-11-18", status: .partial, items: [
            RunItem(stage: .fetch, property: "yp_riverwalk", artifact: "yardi/yp_riverwalk/GetResidentTransactions_ByApplicationDate_Login.xml",
                    status: .failed, error: "HTTP 500"),
            RunItem(stage: .fetch, property: "yp_riverwalk", artifact: window, status: .succeeded),
            RunItem(stage: .load, property: "yp_riverwalk", artifact: window, status: .succeeded, rows: 3),
        ])
        // Another property's success says nothing of this one.
        try Self.record(store, "r4", asOf: "2026-11-18", status: .succeeded, items: [
            RunItem(stage: .load, property: "yp_cedar_bluff", artifact: "yardi/yp_cedar_bluff/GetResidentTransactions_Login.xml",
                    status: .succeeded, rows: 10),
        ])
        let runs = try LedgerRuns.read(store.database, property: "yp_riverwalk", artifacts: .yardi("yp_riverwalk"))
        #expect(runs == LedgerRuns(lastSuccess: LocalDate(iso: "2026-11-16"), lastFull: LocalDate(iso: "2026-11-16")))
        let ingest = IngestRun(dataDirectory: directory.data, configuration: try Configuration.load(
            path: repositoryRoot.appendingPathComponent("report_definitions.json").path), configPath: "report_definitions.json")
        let property = Property(key: "yp_riverwalk", name: "Riverwalk", pms: .yardi, propertyCode: "rvwalk01")
        let plans = try ingest.ledgerPlans(IngestRequest(properties: [property], asOf: LocalDate(iso: "2026-11-19")!,
                                                         commandLine: "test", environment: [:]))
        #expect(plans["yp_riverwalk"]?.window == LedgerWindow(from: LocalDate(iso: "2026-11-09")!, to: LocalDate(iso: "2026-11-19")!),
                "from the 16th less 7 days, over the two failed nights")
    }

    /// A property whose license key is not authorized for the ledger is asked for it whole each night (a license can
    /// change); the plan says the last ask was refused and why, rather than only that no run fetched it.
    @Test func aLedgerTheVendorKeepsRefusingIsAskedAgainAndThePlanSaysWhy() throws {
        let directory = try DataDir()
        try directory.data.create()
        let store = try UnifiedStore(dataDirectory: directory.data)
        let whole = "realpage/ridian/getresidentledger.xml"
        let refused = "the license key is not authorized for getresidentledger at this site (LicenseKey is not authorized)"
        for (run, date) in [("r1", "2026-11-16"), ("r2", "2026-11-17")] {
            try Self.record(store, run, asOf: date, status: .succeeded, items: [
                RunItem(stage: .fetch, property: "ridian", artifact: whole, status: .skipped, error: refused),
                RunItem(stage: .load, property: "ridian", artifact: "realpage/ridian/rent_roll.xlsx", status: .succeeded, rows: 9),
            ])
        }
        let runs = try LedgerRuns.read(store.database, property: "ridian", artifacts: .rpx("ridian"))
        #expect(runs == LedgerRuns(lastSuccess: nil, lastFull: nil,
                                   refusal: .init(asOf: LocalDate(iso: "2026-11-17")!, reason: refused)))
        let ingest = IngestRun(dataDirectory: directory.data, configuration: try Configuration.load(
            path: repositoryRoot.appendingPathComponent("report_definitions.json").path), configPath: "report_definitions.json")
        let property = Property(key: "ridian", name: "Ridian", pms: .realpage, siteID: "4300")
        let plans = try ingest.ledgerPlans(IngestRequest(properties: [property], asOf: LocalDate(iso: "2026-11-18")!,
                                                         commandLine: "test", environment: [:]))
        guard case .full(let reason, nil, _) = plans["ridian"] else {
            Issue.record("a ledger never loaded whole is asked for whole: \(String(describing: plans["ridian"]))")
            return
        }
        #expect(reason == "first pull: no earlier run fetched this ledger whole (asked again: the last ask, as of 2026-11-17, "
                + "was refused: \(refused))")
        // Once a whole pull loads, the refusals before it are history.
        try Self.record(store, "r3", asOf: "2026-11-18", status: .succeeded, items: [
            RunItem(stage: .load, property: "ridian", artifact: whole, status: .succeeded, rows: 300),
        ])
        #expect(try LedgerRuns.read(store.database, property: "ridian", artifacts: .rpx("ridian")).refusal == nil)
    }

    /// RPX names its whole ledger with the parts' prefix (`getresidentledger.xml`, `getresidentledger.<window>.xml`);
    /// the property's other items, and another property's ledger, say nothing of it. The history is read through the
    /// index by property and artifact (a year of nights is ~500,000 run items; by run id alone every night's plan read
    /// all of them).
    @Test func anRPXLedgersHistoryIsReadFromItsOwnItemsThroughTheIndex() throws {
        let directory = try DataDir()
        try directory.data.create()
        let store = try UnifiedStore(dataDirectory: directory.data)
        let prefix = "realpage/nexus_east/getresidentledger"
        try Self.record(store, "r1", asOf: "2026-11-16", status: .succeeded, items: [
            RunItem(stage: .load, property: "nexus_east", artifact: prefix + ".xml", status: .succeeded, rows: 30_000),
        ])
        try Self.record(store, "r2", asOf: "2026-11-17", status: .partial, items: [
            RunItem(stage: .load, property: "nexus_east", artifact: prefix + ".2026-11-09_2026-11-17.xml", status: .succeeded, rows: 40),
            RunItem(stage: .load, property: "nexus_east", artifact: prefix + ".open.xml", status: .skipped),
            RunItem(stage: .fetch, property: "nexus_east", artifact: "realpage/nexus_east/rent_roll.xlsx", status: .failed, error: "HTTP 500"),
        ])
        // A property whose key starts like this one's, and a whole ledger that failed to load later.
        try Self.record(store, "r3", asOf: "2026-11-18", status: .succeeded, items: [
            RunItem(stage: .load, property: "nexus_east2", artifact: "realpage/nexus_east2/getresidentledger.xml", status: .succeeded, rows: 9),
        ])
        try Self.record(store, "r4", asOf: "2026-11-19", status: .partial, items: [
            RunItem(stage: .load, property: "nexus_east", artifact: prefix + ".xml", status: .failed, error: "bad value"),
        ])
        let runs = try LedgerRuns.read(store.database, property: "nexus_east", artifacts: .rpx("nexus_east"))
        #expect(runs == LedgerRuns(lastSuccess: LocalDate(iso: "2026-11-17"), lastFull: LocalDate(iso: "2026-11-16")),
                "the window night is the last success (its rent roll's failure is not the ledger's); the 19th failed")
        let explain = try store.database.prepare("EXPLAIN QUERY PLAN " + LedgerRuns.query)
        let plan = try explain.query([
            ":property": .text("nexus_east"), ":whole": .text(prefix + ".xml"), ":parts": .text("x%"),
            ":parts_from": .text(prefix + "."), ":parts_to": .text(prefix + ".\u{10FFFF}"),
        ]).compactMap { $0.last?.textValue }
        let reads = plan.filter { $0.contains("etl_run_items") }
        #expect(reads.count == 2 && reads.allSatisfy { $0.contains("USING INDEX etl_run_items_property (property_id=? AND artifact") },
                "\(plan)")
    }

    /// The last sync's failed ledger check is chased by one full pull, not every night: once the check failed on the
    /// night of a full pull too, the whole ledger did not mend it and the weekly refresh takes it up.
    @Test func aFailedLedgerCheckIsReportedUntilAFullPullMetIt() throws {
        let (_, store) = try Self.nexusEast()
        let prefix = "realpage/nexus_east/getresidentledger"
        func check(_ asOf: String, _ status: String, ledger: Double, delinquency: Double) throws {
            try Self.ledgerCheck(store, asOf, status, ledger: ledger, delinquency: delinquency)
        }
        try Self.record(store, "r1", asOf: "2026-11-25", status: .succeeded, items: [
            RunItem(stage: .load, property: "nexus_east", artifact: prefix + ".xml", status: .succeeded, rows: 30_000),
        ])
        try Self.record(store, "r2", asOf: "2026-11-30", status: .succeeded, items: [
            RunItem(stage: .load, property: "nexus_east", artifact: prefix + ".2026-11-18_2026-11-30.xml", status: .succeeded, rows: 40),
        ])
        try check("2026-11-25", "passed", ledger: 100, delinquency: 100)
        try check("2026-11-30", "failed", ledger: 110, delinquency: 100)
        let missed = try LedgerRuns.read(store.database, property: "nexus_east", artifacts: .rpx("nexus_east"))
        #expect(missed.openBalanceMiss == LedgerRuns.OpenBalanceMiss(asOf: LocalDate(iso: "2026-11-30")!, ledger: 110, delinquency: 100))
        let plan = LedgerPlanner.plan(history: LedgerHistory(lastSuccess: missed.lastSuccess, lastFull: missed.lastFull,
                                                             disagreement: missed.openBalanceMiss.map(IngestRun.disagreement)),
                                      asOf: LocalDate(iso: "2026-12-01")!, schedule: .standard)
        #expect(plan == .full(reason: "the ledger check of 2026-11-30 found the ledger's open balance off the delinquency (ledger 110.00, delinquency 100.00): a posting dated before the window is looked for in the whole ledger",
                              reconcile: LedgerWindow(from: LocalDate(iso: "2026-11-23")!, to: LocalDate(iso: "2026-12-01")!)))
        #expect(!plan.isRefresh, "the pull mends the raw ledger: the night's sync goes by change, not against a full rebuild")

        // The full pull of the 1st did not mend it: the 2nd is not pulled whole again.
        try Self.record(store, "r3", asOf: "2026-12-01", status: .succeeded, items: [
            RunItem(stage: .load, property: "nexus_east", artifact: prefix + ".xml", status: .succeeded, rows: 30_000),
        ])
        try check("2026-12-01", "failed", ledger: 110, delinquency: 100)
        #expect(try LedgerRuns.read(store.database, property: "nexus_east", artifacts: .rpx("nexus_east")).openBalanceMiss == nil)
        try Self.record(store, "r4", asOf: "2026-12-02", status: .succeeded, items: [
            RunItem(stage: .load, property: "nexus_east", artifact: prefix + ".2026-11-24_2026-12-02.xml", status: .succeeded, rows: 40),
        ])
        try check("2026-12-02", "failed", ledger: 110, delinquency: 100)
        #expect(try LedgerRuns.read(store.database, property: "nexus_east", artifacts: .rpx("nexus_east")).openBalanceMiss == nil)

        // It mended on the next weekly pull; a new disagreement later is chased again.
        try Self.record(store, "r5", asOf: "2026-12-08", status: .succeeded, items: [
            RunItem(stage: .load, property: "nexus_east", artifact: prefix + ".xml", status: .succeeded, rows: 30_000),
        ])
        try check("2026-12-08", "passed", ledger: 100, delinquency: 100)
        #expect(try LedgerRuns.read(store.database, property: "nexus_east", artifacts: .rpx("nexus_east")).openBalanceMiss == nil)
        try check("2026-12-09", "failed", ledger: 95, delinquency: 100)
        #expect(try LedgerRuns.read(store.database, property: "nexus_east", artifacts: .rpx("nexus_east")).openBalanceMiss?.asOf
                == LocalDate(iso: "2026-12-09"))
    }

    /// Yardi's check, whose figures are window gaps: a failed one is chased with the whole ledger (no call answers for
    /// one household), the reason naming the gaps the last whole ledger had and tonight's; a passing one since ends it.
    @Test func aFailedYardiWindowGapsCheckPullsTheWholeLedgerNamingTheGaps() throws {
        let directory = try DataDir()
        try directory.data.create()
        let store = try UnifiedStore(dataDirectory: directory.data)
        try store.database.execute("""
            INSERT INTO unified_properties (unified_property_id, name, pms_source) VALUES ('yp_riverwalk', 'Riverwalk', 'yardi')
            """)
        try Self.record(store, "r1", asOf: "2026-11-25", status: .succeeded, items: [
            RunItem(stage: .load, property: "yp_riverwalk", artifact: "yardi/yp_riverwalk/GetResidentTransactions_Login.xml",
                    status: .succeeded, rows: 20_000),
        ])
        try Self.record(store, "r2", asOf: "2026-12-01", status: .succeeded, items: [
            RunItem(stage: .load, property: "yp_riverwalk",
                    artifact: "yardi/yp_riverwalk/GetResidentTransactions_ByChargeDate_Login.2026-11-18_2026-12-01.xml",
                    status: .succeeded, rows: 40),
        ])
        func check(_ asOf: String, _ status: String, whole: Double, tonight: Double) throws {
            _ = try store.database.query("""
                INSERT INTO sync_checks (unified_property_id, as_of_date, run_id, check_name, measure, expected_source,
                                         expected, actual_source, actual, difference, status, detail)
                VALUES ('yp_riverwalk', :as_of, 'r', 'ledger_window_gaps', 'window gaps', 'window gaps the last whole ledger had',
                        :whole, 'window gaps tonight', :tonight, :tonight - :whole, :status, '')
                """, [":as_of": .text(asOf), ":status": .text(status), ":whole": .real(whole), ":tonight": .real(tonight)])
        }
        try check("2026-12-01", "failed", whole: 12.5, tonight: 22.5)
        let runs = try LedgerRuns.read(store.database, property: "yp_riverwalk", artifacts: .yardi("yp_riverwalk"))
        #expect(runs.openBalanceMiss == LedgerRuns.OpenBalanceMiss(asOf: LocalDate(iso: "2026-12-01")!,
                                                                   check: LedgerRuns.windowGapsCheck, ledger: 12.5,
                                                                   delinquency: 22.5))
        let plan = LedgerPlanner.plan(history: LedgerHistory(lastSuccess: runs.lastSuccess, lastFull: runs.lastFull,
                                                             disagreement: runs.openBalanceMiss.map(IngestRun.disagreement)),
                                      asOf: LocalDate(iso: "2026-12-02")!, schedule: .standard)
        #expect(plan == .full(reason: "the ledger check of 2026-12-01 found households' open charges lowered by payments no window holds (window gaps: 12.50 of them in the last whole ledger, 22.50 tonight): a posting dated before the window is looked for in the whole ledger",
                              reconcile: LedgerWindow(from: LocalDate(iso: "2026-11-24")!, to: LocalDate(iso: "2026-12-02")!)))
        try check("2026-12-02", "passed", whole: 22.5, tonight: 22.5)
        #expect(try LedgerRuns.read(store.database, property: "yp_riverwalk", artifacts: .yardi("yp_riverwalk")).openBalanceMiss == nil)
    }

    /// RPX answers for one household (`reshid`): a failed check asks first for the whole ledgers of the households
    /// whose balance is off their delinquency, and only when that did not mend it (the check failed again on the night
    /// of their pull), or when too many are off, for the property's whole ledger. Yardi has no such call.
    @Test func aFailedLedgerCheckAsksForTheHouseholdsOffFirstThenTheWholeLedger() throws {
        let (_, store) = try Self.nexusEast()
        let prefix = "realpage/nexus_east/getresidentledger"
        try store.database.execute("""
            INSERT INTO unified_household_balances (unified_property_id, resident_id, charges, payments, balance)
            VALUES ('nexus_east', '101', 50, 0, 50), ('nexus_east', '102', 60, 0, 60), ('nexus_east', '104', 0, 0, 0);
            """)
        func delinquency(_ asOf: String, _ rows: [(String, Double)]) throws {
            for (resident, balance) in rows {
                _ = try store.database.query("""
                    INSERT INTO unified_delinquency (unified_property_id, as_of_date, resident_id, current_balance, balance_0_30,
                                                     balance_31_60, balance_61_90, balance_over_90, prepaid, source)
                    VALUES ('nexus_east', :as_of, :resident, :balance, :balance, 0, 0, 0, 0, 'delinquency')
                    """, [":as_of": .text(asOf), ":resident": .text(resident), ":balance": .real(balance)])
            }
        }
        func check(_ asOf: String, _ status: String) throws {
            try Self.ledgerCheck(store, asOf, status, ledger: 110, delinquency: 100)
        }
        func plan(_ asOf: String, artifacts: LedgerRuns.Artifacts = .rpx("nexus_east")) throws -> LedgerFetch {
            let runs = try LedgerRuns.read(store.database, property: "nexus_east", artifacts: artifacts)
            return LedgerPlanner.plan(history: LedgerHistory(lastSuccess: runs.lastSuccess, lastFull: runs.lastFull,
                                                             disagreement: runs.openBalanceMiss.map(IngestRun.disagreement)),
                                      asOf: LocalDate(iso: asOf)!, schedule: .standard)
        }
        try Self.record(store, "r1", asOf: "2026-11-25", status: .succeeded, items: [
            RunItem(stage: .load, property: "nexus_east", artifact: prefix + ".xml", status: .succeeded, rows: 30_000),
        ])
        try Self.record(store, "r2", asOf: "2026-11-30", status: .succeeded, items: [
            RunItem(stage: .load, property: "nexus_east", artifact: prefix + ".2026-11-18_2026-11-30.xml", status: .succeeded, rows: 40),
        ])
        // 102 is 10.00 off; 101 agrees; 103 is in neither at a balance; a report row without a ReshID names no household.
        try delinquency("2026-11-30", [("101", 50), ("102", 50), ("103", 0), ("2310/row 9", 7)])
        try check("2026-11-30", "failed")
        let window = LedgerWindow(from: LocalDate(iso: "2026-11-23")!, to: LocalDate(iso: "2026-12-01")!)
        let households = try plan("2026-12-01")
        #expect(households.wholeHouseholds == ["102"] && households.window == window && !households.isFull, "\(households)")
        #expect(households.summary.hasPrefix("incremental 2026-11-23...2026-12-01, and 1 household whole (the ledger check of 2026-11-30 found their open balance off the delinquency (ledger 110.00, delinquency 100.00)"),
                "\(households.summary)")
        let jobs = RPXJob.jobs(property: Property(key: "nexus_east", name: "Nexus East", pms: .realpage, siteID: "1"),
                               operations: [.getresidentledger], ledger: households)
        #expect(jobs.map(\.ledger?.part) == [.dated, .openItems, .household])
        #expect(jobs.last?.ledger == LedgerScope(part: .household, from: "2025-01-01", to: "2026-12-01", household: "102"))
        // Yardi's ledger is asked for whole, as before.
        #expect(try plan("2026-12-01", artifacts: .yardi("nexus_east")).isFull)

        // A gateway that refused `reshid` failed the night's ledger (and the check failed again): the night after
        // pulls the whole ledger, not the households again.
        try Self.record(store, "r3", asOf: "2026-12-01", status: .partial, items: [
            RunItem(stage: .load, property: "nexus_east", artifact: prefix + ".2026-11-23_2026-12-01.xml", status: .succeeded, rows: 40),
            RunItem(stage: .fetch, property: "nexus_east", artifact: prefix + ".resh-102.xml", status: .failed, error: "inv_Param"),
        ])
        try delinquency("2026-12-01", [("101", 50), ("102", 50)])
        try check("2026-12-01", "failed")
        let whole = try plan("2026-12-02")
        #expect(whole.isFull && whole.wholeHouseholds.isEmpty, "\(whole)")
        #expect(whole.summary.hasPrefix("full (the ledger check of 2026-12-01 found the ledger's open balance off"), "\(whole.summary)")

        // A later disagreement is asked for by household again; when their pull did not mend it (the check failed on
        // its night), the next night pulls the whole ledger.
        try check("2026-12-05", "failed")
        try delinquency("2026-12-05", [("101", 50), ("102", 50)])
        #expect(try plan("2026-12-06").wholeHouseholds == ["102"])
        try Self.record(store, "r4", asOf: "2026-12-06", status: .succeeded, items: [
            RunItem(stage: .load, property: "nexus_east", artifact: prefix + ".2026-11-29_2026-12-06.xml", status: .succeeded, rows: 40),
            RunItem(stage: .load, property: "nexus_east", artifact: prefix + ".resh-102.xml", status: .succeeded, rows: 30),
        ])
        try delinquency("2026-12-06", [("101", 50), ("102", 50)])
        try check("2026-12-06", "failed")
        #expect(try plan("2026-12-07").isFull)

        // More households off than a night asks for one by one: the whole ledger.
        let many = (0...LedgerPlanner.householdLimit).map { String(200 + $0) }
        try store.database.execute("DELETE FROM unified_household_balances")
        for resident in many {
            _ = try store.database.query("""
                INSERT INTO unified_household_balances (unified_property_id, resident_id, charges, payments, balance)
                VALUES ('nexus_east', :resident, 1, 0, 1)
                """, [":resident": .text(resident)])
        }
        try delinquency("2026-12-08", [])
        try check("2026-12-08", "failed")
        #expect(try plan("2026-12-09").isFull)
    }
}
