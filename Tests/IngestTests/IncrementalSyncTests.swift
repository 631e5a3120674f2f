import Foundation
import OwnerDashCore
import SQLiteKit
import SimulatorSupport
import Testing

/// Churned nights synced by change (only the rows that differ written) against a full sync of the same raw data into a
/// fresh unified.db, row for row; and `sync --full` finding and naming rows that drifted from a full rebuild.
@Suite(.serialized) struct IncrementalSyncTests {
    static let selection = ["--property", "kalaco", "--property", "yp_riverwalk", "--parallel", "4"]
    static let nights = ["2026-11-14", "2026-11-15", "2026-11-16"]
    /// Each property's current state, replaced by each sync (Synchronizer.currentStateTables).
    static let currentState = [
        "unified_units", "unified_residents", "unified_leases", "unified_lease_residents", "unified_activity",
        "unified_sync_warnings", "unified_charges", "unified_payments", "unified_recurring_charges", "unified_work_orders",
        "unified_work_order_lines", "unified_make_ready_periods", "unified_expenses", "unified_income",
        "unified_ledger_balances", "unified_household_balances",
    ]
    /// Written for the property date on each sync; earlier dates are history a fresh directory cannot have.
    static let snapshots = ["unified_occupancy_metrics", "unified_pricing_metrics", "unified_delinquency",
                            "unified_delinquency_metrics"]

    /// Every current-state table, the properties and the property date's snapshots, in a fixed order, every column
    /// but those a sync numbers or stamps (row ids, runs, times, the raw state's fingerprint).
    static func content(_ path: String) throws -> [String: [[SQLValue]]] {
        let database = try Database(path: path, mode: .readOnly)
        var content: [String: [[SQLValue]]] = [:]
        for table in ["unified_properties"] + currentState + snapshots {
            let columns = try database.query("SELECT name FROM pragma_table_info(:t)", [":t": .text(table)])
                .compactMap { $0.first?.textValue }
                .filter { $0 != "id" && !$0.hasSuffix("run_id") && !$0.hasSuffix("_at") && $0 != "sync_fingerprint" }
            let list = columns.map { "t.\($0)" }.joined(separator: ", ")
            let onPropertyDate = snapshots.contains(table) ? """
                WHERE t.as_of_date = (SELECT p.as_of_date FROM unified_properties p WHERE p.unified_property_id = t.unified_property_id)
                """ : ""
            content[table] = try database.query("SELECT \(list) FROM \(table) t \(onPropertyDate) ORDER BY \(list)")
        }
        return content
    }

    /// Rows of `property` in the current-state tables.
    static func currentRows(_ path: String, _ property: String) throws -> Int {
        let database = try Database(path: path, mode: .readOnly)
        return try currentState.reduce(0) { total, table in
            total + Int(try database.scalar("SELECT count(*) FROM \(table) WHERE unified_property_id = :p",
                                            [":p": .text(property)])?.integerValue ?? 0)
        }
    }

    /// "N rows changed" of the ingest's sync line for `property`.
    static func rowsChanged(_ stderr: String, _ property: String) -> Int? {
        let line = stderr.split(separator: "\n").first { $0.contains(" \(property) ") && $0.contains("rows changed") }
        guard let line, let range = line.range(of: #"\d+ rows? changed"#, options: .regularExpression) else { return nil }
        return Int(line[range].prefix { $0.isNumber })
    }

    /// "-D +I" of `table` in the ingest's verbose "rows written" line for `property`.
    static func rowsWritten(_ stderr: String, _ property: String, _ table: String) -> RowsWritten? {
        let line = stderr.split(separator: "\n").first { $0.contains("\(property): sync: rows written") }
        guard let line, let range = line.range(of: "\(table) -\\d+ \\+\\d+", options: .regularExpression) else { return nil }
        let numbers = line[range].dropFirst(table.count).split(separator: " ").compactMap { Int($0.dropFirst()) }
        return numbers.count == 2 ? RowsWritten(deleted: numbers[0], inserted: numbers[1]) : nil
    }

    struct RowsWritten: Equatable { var deleted: Int, inserted: Int }

    /// Each household's (charges, payments, balance) of `property`.
    static func balances(_ path: String, _ property: String) throws -> [String: [SQLValue]] {
        let rows = try Database(path: path, mode: .readOnly).query("""
            SELECT resident_id, charges, payments, balance FROM unified_household_balances WHERE unified_property_id = :p
            """, [":p": .text(property)])
        return Dictionary(uniqueKeysWithValues: rows.map { ($0[0].textValue ?? "", Array($0.dropFirst())) })
    }

    /// A fresh data directory holding copies of `nightly`'s raw databases, synced whole into a new unified.db.
    static func freshFullSync(of nightly: DataDir) throws -> DataDir {
        let fresh = try nightly.rawCopy()
        let sync = try fresh.ownerdash(["sync"] + selection.prefix(4))
        #expect(sync.status == 0, "\(sync.stderr)")
        return fresh
    }

    @Test func churnedNightsWriteOnlyWhatChangedAndEqualAFullSyncRowForRow() throws {
        let simulator = try PMSSimulator.shared.get()
        let nightly = try DataDir()
        for (index, night) in Self.nights.enumerated() {
            let before = try index == 0 ? 0 : Self.currentRows(nightly.data.unifiedDatabase, "kalaco")
            let balancesBefore = try index == 0 ? [:] : Self.balances(nightly.data.unifiedDatabase, "kalaco")
            let run = try nightly.ownerdash(["ingest", "--verbose", "--as-of", night] + Self.selection, environment: simulator.environment)
            #expect(run.status == 0, "\(night): \(run.stderr.suffix(1500))")
            let changed = try #require(Self.rowsChanged(run.stderr, "kalaco"), "\(night): no sync line for kalaco")
            if index == 0 {
                #expect(changed == (try Self.currentRows(nightly.data.unifiedDatabase, "kalaco")), "the first night writes every row")
            } else {
                // A day of churn touches a few households, units and events, not the property's 24 months of ledger.
                #expect(changed > 0 && changed * 10 < before, "\(night): \(changed) rows written of \(before): \(run.stderr.split(separator: "\n").filter { $0.contains("rows written") })")
                // The household balances written are those that moved, not every household because the date did.
                let balancesAfter = try Self.balances(nightly.data.unifiedDatabase, "kalaco")
                let moved = balancesBefore.filter { balancesAfter[$0.key] != nil && balancesAfter[$0.key] != $0.value }.count
                let gone = balancesBefore.keys.filter { balancesAfter[$0] == nil }.count
                let new = balancesAfter.keys.filter { balancesBefore[$0] == nil }.count
                let written = Self.rowsWritten(run.stderr, "kalaco", "unified_household_balances") ?? RowsWritten(deleted: 0, inserted: 0)
                #expect(written == RowsWritten(deleted: moved + gone, inserted: moved + new),
                        "\(night): \(written) household balances written; \(moved) moved, \(gone) gone, \(new) new of \(balancesAfter.count)")
                #expect(moved + gone + new < balancesAfter.count / 4, "\(night): \(moved + gone + new) of \(balancesAfter.count) balances moved")
                // The report events went by day, the people by household (RealPageEventHouseholds), the closed turns and
                // the expense and income months by the snapshots loaded that night (RealPageClosedTurns,
                // RealPageExpenseMonths), main keeping the rest.
                let rowsLine = run.stderr.split(separator: "\n").first { $0.contains("kalaco: sync: rows written") } ?? ""
                #expect(rowsLine.hasSuffix("; computed in part: unified_activity, unified_expenses, unified_income, unified_lease_residents, unified_leases, unified_residents, unified_work_order_lines, unified_work_orders"),
                        "\(night): \(rowsLine)")
            }
        }
        // RPX's whole lists were loaded so that the next night can load them by record against these answers in the
        // landing zone (RecordLoad): each snapshot names the build that decoded it.
        let raw = try Database(path: nightly.data.realpageRawDatabase, mode: .readOnly)
        #expect(try raw.query("""
            SELECT report_type, count(*) FROM loaded_artifacts
            WHERE property_id = 'kalaco' AND decoded_by LIKE 'build-id:%' GROUP BY report_type ORDER BY 1
            """) == ["getleaseinfo", "getresidentlistinfo", "getscheduledcharges", "getunitlist", "unitlist"].map {
                [.text($0), .integer(Int64(Self.nights.count))] })
        // Both ledgers were written by change after the first night (LedgerDelta), each from its own merged ledger.
        let marks = try nightly.unified().query("SELECT unified_property_id, ledger FROM ledger_sync_marks ORDER BY 1")
            .map { "\($0[0].textValue ?? "") \($0[1].textValue ?? "")" }
        #expect(marks == ["kalaco realpage_ledger", "yp_riverwalk yardi_transactions"])
        let fresh = try Self.freshFullSync(of: nightly)
        let incremental = try Self.content(nightly.data.unifiedDatabase), whole = try Self.content(fresh.data.unifiedDatabase)
        for (table, rows) in whole.sorted(by: { $0.key < $1.key }) {
            #expect(incremental[table] == rows, "\(table): \(incremental[table]?.count ?? 0) rows after the nights, \(rows.count) from a full sync")
        }
        #expect((whole["unified_charges"] ?? []).count > 1_000 && !(whole["unified_activity"] ?? []).isEmpty)
    }

    @Test func syncFullNamesEachRowThatDriftedFromAFullRebuildAndRewritesIt() throws {
        let simulator = try PMSSimulator.shared.get()
        let nightly = try DataDir()
        for night in Self.nights.prefix(2) {
            let run = try nightly.ownerdash(["ingest", "--as-of", night] + Self.selection, environment: simulator.environment)
            #expect(run.status == 0, "\(night): \(run.stderr.suffix(1500))")
        }
        let expected = try Self.content(nightly.data.unifiedDatabase)

        // Rows changed behind the sync's back: what an incremental write that went wrong would leave.
        let database = try Database(path: nightly.data.unifiedDatabase)
        let charge = try #require(try database.scalar("""
            SELECT charge_id FROM unified_charges WHERE unified_property_id = 'kalaco' AND amount > 0 ORDER BY charge_id LIMIT 1
            """)?.textValue)
        try database.execute("UPDATE unified_charges SET amount = amount + 1 WHERE unified_property_id = 'kalaco' AND charge_id = '\(charge)'")
        let unit = try #require(try database.scalar("""
            SELECT unit_number FROM unified_units WHERE unified_property_id = 'kalaco' ORDER BY unit_number LIMIT 1
            """)?.textValue)
        try database.execute("DELETE FROM unified_units WHERE unified_property_id = 'kalaco' AND unit_number = '\(unit)'")

        let full = try nightly.ownerdash(["sync", "--full", "--property", "kalaco"])
        #expect(full.status == 0, "\(full.stderr)")
        #expect(full.stderr.contains("unified_charges charge_id='\(charge)' differed from a full rebuild: amount"), "\(full.stderr)")
        #expect(full.stderr.contains("unified_units unit_number='\(unit)' differed from a full rebuild: missing"), "\(full.stderr)")
        let stored = try database.query("""
            SELECT subject FROM unified_sync_warnings WHERE unified_property_id = 'kalaco' AND check_name = 'sync_drift' ORDER BY subject
            """).compactMap { $0[0].textValue }
        #expect(stored == ["unified_charges charge_id='\(charge)'", "unified_units unit_number='\(unit)'"], "\(full.stderr)")
        // Rewritten: but for the drift warnings it left, the property is as a full rebuild has it.
        var repaired = try Self.content(nightly.data.unifiedDatabase)
        repaired["unified_sync_warnings"] = repaired["unified_sync_warnings"]?.filter { !$0.contains(.text("sync_drift")) }
        for (table, rows) in expected.sorted(by: { $0.key < $1.key }) {
            #expect(repaired[table] == rows, "\(table) after sync --full")
        }
        // With nothing drifted, --full finds nothing.
        let again = try nightly.ownerdash(["sync", "--full", "--property", "kalaco"])
        #expect(again.status == 0 && !again.stderr.contains("differed from a full rebuild"), "\(again.stderr)")
    }

    /// The RPX ledger is written by change (LedgerDelta): after a night, each RealPage property's mark names the newest
    /// ledger row's load; a charge changed behind the sync's back stays as it is on the next incremental sync (its
    /// ledger row did not change, so it is not projected again: what `sync --full` is for), while new charge
    /// categories in the registry project every charge again, the same night, without --full.
    @Test func theLedgerIsWrittenByChangeAndWholeAgainWhenItsCategoriesChange() throws {
        let simulator = try PMSSimulator.shared.get()
        let nightly = try DataDir()
        let kalaco = ["--property", "kalaco"]
        for night in Self.nights.prefix(2) {
            let run = try nightly.ownerdash(["ingest", "--as-of", night] + kalaco, environment: simulator.environment)
            #expect(run.status == 0, "\(night): \(run.stderr.suffix(1500))")
        }
        let database = try Database(path: nightly.data.unifiedDatabase)
        try database.attach(path: nightly.data.realpageRawDatabase, as: "realpage_raw")
        let mark = try database.scalar("SELECT lineage_id FROM ledger_sync_marks WHERE unified_property_id = 'kalaco'")?.integerValue
        let newest = try database.scalar("SELECT max(lineage_id) FROM realpage_raw.realpage_ledger WHERE property_id = 'kalaco'")?.integerValue
        #expect(mark != nil && mark == newest, "the mark \(mark.map(String.init) ?? "none"), the newest ledger load \(newest.map(String.init) ?? "none")")
        let removals = {
            try database.query("""
                SELECT m.removals, coalesce((SELECT removed FROM realpage_raw.ledger_removals WHERE property_id = 'kalaco'), 0)
                FROM ledger_sync_marks m WHERE m.unified_property_id = 'kalaco'
                """).first ?? []
        }
        let marked = try removals()
        #expect(marked.count == 2 && marked[0] == marked[1], "the mark notes the ledger's removals: \(marked)")

        let charge = try #require(try database.scalar("""
            SELECT charge_id FROM unified_charges WHERE unified_property_id = 'kalaco' AND charge_code = 'RENT' AND amount > 0
            ORDER BY charge_id LIMIT 1
            """)?.textValue)
        try database.execute("UPDATE unified_charges SET amount = amount + 1 WHERE unified_property_id = 'kalaco' AND charge_id = '\(charge)'")
        let amount = { try database.scalar("SELECT amount FROM unified_charges WHERE unified_property_id = 'kalaco' AND charge_id = '\(charge)'")?.doubleValue }
        let tampered = try amount()
        // Nothing loaded since: `sync` leaves the property as its last sync did (only --full compares).
        let again = try nightly.ownerdash(["sync"] + kalaco)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdoutLines.contains { $0.hasPrefix("kalaco") && $0.hasSuffix("unchanged") }, "\(again.stdout)")
        #expect(try amount() == tampered)

        // A charge and a payment gone from the merged ledger (aged out of its window, or the vendor said so): gone from
        // unified.db on the next incremental sync, though no ledger row was written.
        let raw = try Database(path: nightly.data.realpageRawDatabase)
        let gone = try #require(try raw.query("""
            SELECT (SELECT transaction_id FROM realpage_ledger WHERE property_id = 'kalaco' AND transaction_type = 'Charge'
                    AND transaction_id <> :tampered ORDER BY transaction_date, transaction_id LIMIT 1),
                   (SELECT transaction_id FROM realpage_ledger WHERE property_id = 'kalaco' AND transaction_type = 'Payment'
                    ORDER BY transaction_date, transaction_id LIMIT 1)
            """, [":tampered": .text(charge)]).first)
        let (goneCharge, gonePayment) = (try #require(gone[0].textValue), try #require(gone[1].textValue))
        try raw.execute("DELETE FROM realpage_ledger WHERE property_id = 'kalaco' AND transaction_id IN ('\(goneCharge)', '\(gonePayment)')")
        let counted = try removals()
        #expect(counted.count == 2 && counted[1].integerValue == (marked[1].integerValue ?? 0) + 2,
                "each deletion counted, however it was made: \(counted)")
        let afterRemoval = try nightly.ownerdash(["sync"] + kalaco)
        #expect(afterRemoval.status == 0, "\(afterRemoval.stderr)")
        #expect(try database.scalar("SELECT count(*) FROM unified_charges WHERE unified_property_id = 'kalaco' AND charge_id = '\(goneCharge)'")?.integerValue == 0)
        #expect(try database.scalar("SELECT count(*) FROM unified_payments WHERE unified_property_id = 'kalaco' AND payment_id = '\(gonePayment)'")?.integerValue == 0)
        #expect(try amount() == tampered, "an incremental sync projects only the ledger rows loaded since the last: the rest as stored")
        let remarked = try removals()
        #expect(remarked.count == 2 && remarked[0] == remarked[1], "the new mark notes them: \(remarked)")

        // RENT counted as a fee from now on: every rent charge moves, though no ledger row changed.
        let registry = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: simulatorConfigPath))) as! [String: Any]
        var changed = registry
        changed["charge_categories"] = ["FEES": ["RENT"]]
        let config = nightly.root.appendingPathComponent("categories.json")
        try JSONSerialization.data(withJSONObject: changed).write(to: config)
        let recategorized = try nightly.ownerdash(["sync"] + kalaco, config: config.path)
        #expect(recategorized.status == 0, "\(recategorized.stderr)")
        let categories = try database.query("""
            SELECT DISTINCT category FROM unified_charges WHERE unified_property_id = 'kalaco' AND upper(charge_code) = 'RENT'
            """).compactMap { $0[0].textValue }
        #expect(categories == ["FEES"])
        #expect(try amount() != tampered, "projected whole again: the charge is the ledger's again")
    }
}
