import Foundation
import OwnerDashCore
import SOAP
import SQLiteKit
import Testing
@testable import RawStore

/// One Yardi transaction of a hand-made answer.
private struct Txn {
    var id: String
    var kind = "charge"
    var date: String
    var amount: String
    var balance = "0.00"
    var reversal = false
    var tenant = "t1"
}

/// A GetResidentTransactions_Login (or windowed) answer holding `transactions`, all of household t1.
private func yardiAnswer(_ operation: YardiOperation, _ transactions: [Txn]) -> String {
    let details = transactions.map { t -> String in
        if t.kind == "payment" {
            return "<Transactions><Payment Type=\"Other\"><Detail><TransactionID>\(t.id)</TransactionID>"
                + "<TransactionDate>\(t.date)</TransactionDate><CustomerID>\(t.tenant)</CustomerID><Amount>\(t.amount)</Amount>"
                + "<Reversal>\(t.reversal)</Reversal></Detail></Payment></Transactions>"
        }
        return "<Transactions><Charge><Detail><TransactionID>\(t.id)</TransactionID><TransactionDate>\(t.date)</TransactionDate>"
            + "<ChargeCode>rent</ChargeCode><CustomerID>\(t.tenant)</CustomerID><Amount>\(t.amount)</Amount>"
            + "<BalanceDue>\(t.balance)</BalanceDue></Detail></Charge></Transactions>"
    }.joined()
    return """
        <?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/">\
        <soap:Body><\(operation.name)Response xmlns="http://tempuri.org/YSI.Interfaces.WebServices/ItfResidentTransactions20">\
        <\(operation.name)Result><ResidentTransactions xmlns="http://yardi.com/ResidentTransactions20"><Property>\
        <RT_Customer><CustomerID>t1</CustomerID><RT_Unit><UnitID>101</UnitID></RT_Unit><RTServiceTransactions>\(details)\
        </RTServiceTransactions></RT_Customer></Property></ResidentTransactions></\(operation.name)Result>\
        </\(operation.name)Response></soap:Body></soap:Envelope>
        """
}

/// The raw ledger keeps each vendor transaction once, merged by its id, with corrections, reversals and removals
/// logged (yardi_transactions / yardi_transaction_changes; realpage_ledger / realpage_ledger_changes).
@Suite struct LedgerMergeTests {
    private static let night1: [Txn] = [
        Txn(id: "c1", date: "2026-09-01", amount: "1000.00"),
        Txn(id: "c2", date: "2026-10-01", amount: "1000.00"),
        Txn(id: "c3", date: "2026-11-01", amount: "1000.00", balance: "1000.00"),
        Txn(id: "p1", kind: "payment", date: "2026-10-03", amount: "2000.00"),
    ]

    private func write(_ fixture: YardiFixture, _ name: String, _ operation: YardiOperation, _ transactions: [Txn]) throws -> String {
        let path = fixture.directory.appendingPathComponent(name).path
        try Data(yardiAnswer(operation, transactions).utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    private func ledger(_ fixture: YardiFixture) throws -> [[SQLValue]] {
        try fixture.rows("SELECT transaction_id, amount, balance_due, reversal, first_run_id, run_id FROM v_yardi_transactions ORDER BY transaction_id")
    }

    @Test func aWindowMergesByTransactionIdAndLogsCorrectionsReversalsAndRemovals() throws {
        let fixture = try YardiFixture()
        let day1 = LocalDate(iso: "2026-11-10")!, day2 = LocalDate(iso: "2026-11-20")!
        let full = try fixture.loader(run: "night-1").load(
            path: try write(fixture, "full.xml", .getResidentTransactions, Self.night1), operation: .getResidentTransactions,
            property: fixture.property, asOf: day1)
        #expect(full.rows == 4 && full.warnings.isEmpty, "a first full pull into an empty ledger reports nothing")

        // Night 2's window (Nov 1-20): c3 is corrected to 950, a new charge c4, the payment p2 and its reversal r2;
        // c2 (dated Oct 1, outside the window) is not in the answer and stays.
        let window: [Txn] = [
            Txn(id: "c3", date: "2026-11-01", amount: "950.00", balance: "950.00"),
            Txn(id: "c4", date: "2026-11-15", amount: "25.00", balance: "25.00"),
            Txn(id: "p2", kind: "payment", date: "2026-11-16", amount: "100.00"),
            Txn(id: "r2", kind: "payment", date: "2026-11-17", amount: "-100.00", reversal: true),
        ]
        let night2 = try fixture.loader(run: "night-2").load(
            path: try write(fixture, "window.xml", .getResidentTransactionsByChargeDate, window),
            operation: .getResidentTransactionsByChargeDate, property: fixture.property, asOf: day2,
            answer: .dated(from: "2026-11-01", to: "2026-11-20"))
        #expect(night2.rows == 4, "c3 updated; c4, p2, r2 new: \(night2.note ?? "")")
        #expect(night2.note == "3 new, 1 updated, 0 removed, 0 unchanged, 2 change(s) logged")
        #expect(try ledger(fixture) == [
            [.text("c1"), .real(1000), .real(0), .null, .text("night-1"), .text("night-1")],
            [.text("c2"), .real(1000), .real(0), .null, .text("night-1"), .text("night-1")],
            [.text("c3"), .real(950), .real(950), .null, .text("night-1"), .text("night-2")],
            [.text("c4"), .real(25), .real(25), .null, .text("night-2"), .text("night-2")],
            [.text("p1"), .real(2000), .null, .integer(0), .text("night-1"), .text("night-1")],
            [.text("p2"), .real(100), .null, .integer(0), .text("night-2"), .text("night-2")],
            [.text("r2"), .real(-100), .null, .integer(1), .text("night-2"), .text("night-2")],
        ])
        #expect(try fixture.rows("""
            SELECT transaction_id, change, found_by, run_id, old_amount, new_amount, detail FROM v_yardi_transaction_changes ORDER BY id
            """) == [
            [.text("c3"), .text("corrected"), .text("window"), .text("night-2"), .real(1000), .real(950),
             .text("amount 1000.00 -> 950.00; balance_due 1000.00 -> 950.00")],
            [.text("r2"), .text("reversed"), .text("window"), .text("night-2"), .null, .real(-100), .text("posted as a reversal")],
        ])

        // The same window again: nothing to write. An older answer (night 1's full pull replayed) rolls nothing back.
        let again = try fixture.loader(run: "night-2b").load(
            path: try write(fixture, "window-again.xml", .getResidentTransactionsByChargeDate, window + []),
            operation: .getResidentTransactionsByChargeDate, property: fixture.property, asOf: day2,
            answer: .dated(from: "2026-11-01", to: "2026-11-20"))
        #expect(again.alreadyLoaded && again.rows == 4)
        let replay = try YardiArtifactLoader(store: fixture.store, runID: RunID("replay"), reload: true).load(
            path: try write(fixture, "full.xml", .getResidentTransactions, Self.night1), operation: .getResidentTransactions,
            property: fixture.property, asOf: day1)
        let afterReplay = try ledger(fixture)
        #expect(replay.rows == 0 && afterReplay[2][1] == .real(950), "\(replay.note ?? "")")

        // Night 3's window no longer holds c4 (voided at the vendor): removed and logged.
        let night3 = try fixture.loader(run: "night-3").load(
            path: try write(fixture, "window3.xml", .getResidentTransactionsByChargeDate, [window[0], window[2], window[3]]),
            operation: .getResidentTransactionsByChargeDate, property: fixture.property, asOf: LocalDate(iso: "2026-11-21")!,
            answer: .dated(from: "2026-11-02", to: "2026-11-21"))
        #expect(night3.note == "0 new, 0 updated, 1 removed, 3 unchanged, 1 change(s) logged")
        #expect(try fixture.rows("SELECT count(*) FROM yardi_transactions WHERE transaction_id = 'c4'") == [[.integer(0)]])
        #expect(try fixture.rows("SELECT change, old_amount, run_id FROM v_yardi_transaction_changes WHERE transaction_id = 'c4'")
                == [[.text("removed"), .real(25), .text("night-3")]])
        #expect(try fixture.rows("SELECT count(*), count(DISTINCT transaction_id) FROM yardi_transactions") == [[.integer(6), .integer(6)]],
                "one row per transaction after three nights")
        // The removal is counted for the property (LedgerRemovals), which tells a sync by change to look for it.
        #expect(try fixture.rows("SELECT property_id, removed FROM ledger_removals") == [[.text(fixture.property.key), .integer(1)]])
        // And logged with what names its charge (LedgerRemovals.logMigration): a sync reads the removals since its mark.
        #expect(try fixture.rows("SELECT property_id, removal, kind, transaction_id FROM ledger_removed_rows")
                == [[.text(fixture.property.key), .integer(1), .text("charge"), .text("c4")]])
    }

    /// The removals' log keeps each property's latest `LedgerRemovals.loggedRemovals`, numbered as the count numbers
    /// them: it does not grow with the years.
    @Test func theRemovalsLogKeepsTheLatestOnly() throws {
        let fixture = try YardiFixture()
        let database = fixture.store.database
        let removals = LedgerRemovals.loggedRemovals + 2
        try database.prepare("""
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < :removals)
            INSERT INTO yardi_transactions (lineage_id, property_id, as_of_date, source_row, kind, transaction_id, amount)
            SELECT 1, 'p1', '2026-11-20', i, 'payment', 'x' || i, 1 FROM n
            """).execute([":removals": .integer(Int64(removals))])
        try database.execute("DELETE FROM yardi_transactions WHERE property_id = 'p1'")
        #expect(try fixture.rows("SELECT removed FROM ledger_removals WHERE property_id = 'p1'") == [[.integer(Int64(removals))]])
        #expect(try fixture.rows("SELECT count(*), min(removal), max(removal) FROM ledger_removed_rows WHERE property_id = 'p1'")
                == [[.integer(Int64(LedgerRemovals.loggedRemovals)), .integer(3), .integer(Int64(removals))]])
    }

    @Test func anApplicationDateAnswerUpdatesOldChargesButRemovesNothing() throws {
        let fixture = try YardiFixture()
        _ = try fixture.loader(run: "night-1").load(
            path: try write(fixture, "full.xml", .getResidentTransactions, Self.night1), operation: .getResidentTransactions,
            property: fixture.property, asOf: LocalDate(iso: "2026-11-10")!)
        // A payment on Nov 12 pays the Nov 1 charge: the answer by application date holds the two of them only.
        let applied = try fixture.loader(run: "night-2").load(
            path: try write(fixture, "applied.xml", .getResidentTransactionsByApplicationDate, [
                Txn(id: "c3", date: "2026-11-01", amount: "1000.00", balance: "0.00"),
                Txn(id: "p3", kind: "payment", date: "2026-11-12", amount: "1000.00"),
            ]), operation: .getResidentTransactionsByApplicationDate, property: fixture.property,
            asOf: LocalDate(iso: "2026-11-20")!, answer: .applied)
        #expect(applied.note == "1 new, 1 updated, 0 removed, 0 unchanged")
        #expect(try fixture.rows("SELECT count(*) FROM yardi_transaction_changes") == [[.integer(0)]],
                "a payment applied is not a correction")
        #expect(try fixture.rows("SELECT balance_due FROM yardi_transactions WHERE transaction_id = 'c3'") == [[.real(0)]])
        #expect(try fixture.rows("SELECT count(*) FROM yardi_transactions") == [[.integer(5)]])
    }

    @Test func aFullRefreshReportsWhatTheWindowsMissed() throws {
        let fixture = try YardiFixture()
        _ = try fixture.loader(run: "night-1").load(
            path: try write(fixture, "full.xml", .getResidentTransactions, Self.night1), operation: .getResidentTransactions,
            property: fixture.property, asOf: LocalDate(iso: "2026-11-10")!)
        // A week later the vendor's whole ledger differs: c1 (September, outside every window) was corrected to 990,
        // and c2 is gone.
        var refreshed = Self.night1
        refreshed[0].amount = "990.00"
        refreshed.remove(at: 1)
        let refresh = try fixture.loader(run: "night-8").load(
            path: try write(fixture, "refresh.xml", .getResidentTransactions, refreshed), operation: .getResidentTransactions,
            property: fixture.property, asOf: LocalDate(iso: "2026-11-17")!)
        #expect(refresh.warnings == ["yp_riverwalk: the full GetResidentTransactions_Login pull differs from the ledger merged "
                                     + "by the incremental nights: 1 corrected, 1 removed (listed in yardi_transaction_changes, "
                                     + "found_by = 'full_refresh')"])
        #expect(try fixture.rows("SELECT transaction_id, change, found_by FROM yardi_transaction_changes ORDER BY id")
                == [[.text("c1"), .text("corrected"), .text("full_refresh")], [.text("c2"), .text("removed"), .text("full_refresh")]])
        #expect(try fixture.rows("SELECT transaction_id, amount FROM yardi_transactions ORDER BY transaction_id")
                == [[.text("c1"), .real(990)], [.text("c3"), .real(1000)], [.text("p1"), .real(2000)]])
    }

    @Test func aDatabaseOfNightlySnapshotsKeepsEachPropertysLatestOnly() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ledger-migrate-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let yardiPath = directory.appendingPathComponent("yardi_raw.db").path
        let realpagePath = directory.appendingPathComponent("realpage_raw.db").path
        do {
            let yardi = try Database(path: yardiPath)
            try yardi.migrate(YardiRawSchema.migrations.filter { $0.version < 4 })
            for (day, amount) in [("2026-11-19", 1000.0), ("2026-11-20", 990.0)] {
                try yardi.prepare("""
                    INSERT INTO yardi_transactions (run_id, property_id, as_of_date, artifact, artifact_sha256, source_row, kind,
                                                    transaction_id, tenant_code, transaction_date, amount)
                    VALUES (:run, 'yp_riverwalk', :day, 'a.xml', 'x', 1, 'charge', 'c1', 't1', '2026-11-01', :amount)
                    """).execute([":run": .text("run-\(day)"), ":day": .text(day), ":amount": .real(amount)])
            }
            let realpage = try Database(path: realpagePath)
            try realpage.migrate(RealPageRawSchema.migrations.filter { $0.version < 30 })
            for day in ["2026-11-19", "2026-11-20"] {
                try realpage.prepare("""
                    INSERT INTO realpage_ledger (run_id, property_id, as_of_date, artifact, artifact_sha256, source_row, resh_id,
                                                 household_balance, transaction_id, transaction_type, transaction_date, amount)
                    VALUES (:run, 'nexus_east', :day, 'a.xml', 'x', 1, '900', 25, 'T1', 'Charge', '2026-11-01', 25)
                    """).execute([":run": .text("run-\(day)"), ":day": .text(day)])
            }
        }
        let yardi = try YardiRawStore(path: yardiPath)
        #expect(try yardi.database.query("SELECT as_of_date, amount, first_run_id FROM yardi_transactions")
                == [[.text("2026-11-20"), .real(990), .text("run-2026-11-20")]])
        let realpage = try RealPageRawStore(path: realpagePath)
        #expect(try realpage.database.query("SELECT as_of_date, transaction_id FROM realpage_ledger")
                == [[.text("2026-11-20"), .text("T1")]])
        #expect(try realpage.database.query("SELECT resh_id, balance, as_of_date FROM realpage_ledger_households")
                == [[.text("900"), .real(25), .text("2026-11-20")]])
    }

    /// A getresidentledger answer: household 900 (balance `balance`) with `transactions` (id, date MM/DD/YYYY, amount,
    /// open amount; a negative amount is a payment).
    private func rpxAnswer(_ fixture: LoaderFixture, _ name: String, balance: String,
                           _ transactions: [(String, String, String, String)]) throws -> String {
        try rpxAnswer(fixture, name, households: [("900", balance, transactions)])
    }

    /// A getresidentledger answer of several households (ReshID, balance, transactions as above).
    private func rpxAnswer(_ fixture: LoaderFixture, _ name: String,
                           households: [(String, String, [(String, String, String, String)])]) throws -> String {
        let residents = households.map { household in
            let rows = household.2.map { t in
                "<Transaction><TransactionID>\(t.0)</TransactionID><TransactionType>\(t.2.hasPrefix("-") ? "Payment" : "Charge")"
                    + "</TransactionType><TransactionDate>\(t.1)</TransactionDate><TransactionCode>RENT</TransactionCode>"
                    + "<Amount>\(t.2)</Amount><OpenAmount>\(t.3)</OpenAmount></Transaction>"
            }.joined()
            return "<Resident><ReshID>\(household.0)</ReshID><UnitNumber>101</UnitNumber><Balance>\(household.1)</Balance>"
                + "<Prepaid>0.00</Prepaid><Transactions>\(rows)</Transactions></Resident>"
        }.joined()
        let text = """
            <s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body><getresidentledgerResponse \
            xmlns="http://tempuri.org/"><getresidentledgerResult><ResidentLedger xmlns="">\(residents)\
            </ResidentLedger></getresidentledgerResult></getresidentledgerResponse></s:Body></s:Envelope>
            """
        let path = fixture.directory.appendingPathComponent(name).path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// One household's whole ledger (`reshid`, asked for when the ledger check finds its balance off) speaks for that
    /// household alone: what it adds and what it no longer lists of the household are merged and reported as a full
    /// pull's differences are; every other household's transactions stand.
    @Test func aHouseholdsWholeLedgerMendsThatHouseholdAlone() throws {
        let fixture = try LoaderFixture()
        let property = Property(key: "nexus_east", name: "Nexus East", pms: .realpage, siteID: "5472172")
        _ = try RPXArtifactLoader(store: fixture.store, runID: RunID("night-1")).load(
            path: try rpxAnswer(fixture, "full.xml", households: [
                ("900", "1100.00", [("T1", "10/01/2026", "1000.00", "100.00"), ("T2", "11/01/2026", "1000.00", "1000.00")]),
                ("901", "500.00", [("U1", "11/01/2026", "500.00", "500.00")]),
            ]), operation: .getresidentledger, property: property, asOf: LocalDate(iso: "2026-11-13")!)
        // 900 as RPX has it on the 20th: a credit dated back in July that no window listed, T2 gone.
        let mended = try RPXArtifactLoader(store: fixture.store, runID: RunID("night-2")).load(
            path: try rpxAnswer(fixture, "resh-900.xml", households: [
                ("900", "90.00", [("C1", "07/15/2026", "-10.00", "0.00"), ("T1", "10/01/2026", "1000.00", "100.00")]),
            ]), operation: .getresidentledger, property: property, asOf: LocalDate(iso: "2026-11-20")!,
            answer: .household("900", from: "2024-12-01", to: "2026-11-20"))
        #expect(mended.note == "1 new, 0 updated, 1 removed, 1 unchanged, 2 change(s) logged, 1 household balance(s) written",
                "\(mended.note ?? "")")
        #expect(mended.warnings == ["nexus_east: the whole getresidentledger pull of household 900 differs from the ledger merged by "
                                    + "the incremental nights: 1 added, 1 removed (listed in realpage_ledger_changes, found_by = 'full_refresh')"],
                "\(mended.warnings)")
        #expect(try fixture.store.database.query("SELECT resh_id, transaction_id FROM realpage_ledger ORDER BY transaction_id")
                == [[.text("900"), .text("C1")], [.text("900"), .text("T1")], [.text("901"), .text("U1")]])
        #expect(try fixture.store.database.query("SELECT resh_id, balance FROM realpage_ledger_households ORDER BY resh_id")
                == [[.text("900"), .real(90)], [.text("901"), .real(500)]])
        #expect(try fixture.store.database.scalar(
            "SELECT count(*) FROM loaded_artifacts WHERE report_type = 'getresidentledger.household.900'") == .integer(1))

        // A gateway that ignores `reshid` answers every household: merged as current, and said, since every household
        // asked for then costs a whole ledger.
        let everyone = try RPXArtifactLoader(store: fixture.store, runID: RunID("night-3")).load(
            path: try rpxAnswer(fixture, "resh-901.xml", households: [
                ("900", "90.00", [("C1", "07/15/2026", "-10.00", "0.00"), ("T1", "10/01/2026", "1000.00", "100.00")]),
                ("901", "0.00", [("U1", "11/01/2026", "500.00", "0.00"), ("V1", "11/20/2026", "-500.00", "0.00")]),
            ]), operation: .getresidentledger, property: property, asOf: LocalDate(iso: "2026-11-21")!,
            answer: .household("901", from: "2024-12-01", to: "2026-11-21"))
        #expect(everyone.warnings.last == "nexus_east: asked for household 901's ledger (reshid), RPX answered 2 households: this "
                + "gateway seems to ignore reshid, and each household asked for costs a whole ledger", "\(everyone.warnings)")
        #expect(try fixture.store.database.query("SELECT transaction_id, open_amount FROM realpage_ledger ORDER BY transaction_id")
                == [[.text("C1"), .real(0)], [.text("T1"), .real(100)], [.text("U1"), .real(0)], [.text("V1"), .real(0)]])
    }

    @Test func anRPXNightSettlesOpenChargesTheOpenItemsNoLongerListAndKeepsTheHouseholdBalance() throws {
        let fixture = try LoaderFixture()
        let property = Property(key: "nexus_east", name: "Nexus East", pms: .realpage, siteID: "5472172")
        let day1 = LocalDate(iso: "2026-11-13")!, day2 = LocalDate(iso: "2026-11-20")!
        _ = try RPXArtifactLoader(store: fixture.store, runID: RunID("night-1")).load(
            path: try rpxAnswer(fixture, "full.xml", balance: "1100.00", [("T1", "10/01/2026", "1000.00", "100.00"),
                                                                         ("T2", "11/01/2026", "1000.00", "1000.00")]),
            operation: .getresidentledger, property: property, asOf: day1)
        // Night 2: a payment of 1,100 on Nov 15 (dated in the window) pays both; the open items list is empty.
        let loader = RPXArtifactLoader(store: fixture.store, runID: RunID("night-2"))
        let window = try loader.load(
            path: try rpxAnswer(fixture, "window.xml", balance: "0.00", [("P1", "11/15/2026", "-1100.00", "0.00")]),
            operation: .getresidentledger, property: property, asOf: day2, answer: .dated(from: "2026-11-06", to: "2026-11-20"))
        #expect(window.note == "1 new, 0 updated, 0 removed, 0 unchanged, 1 household balance(s) written")
        let open = try loader.load(path: try rpxAnswer(fixture, "open.xml", balance: "0.00", []), operation: .getresidentledger,
                                   property: property, asOf: day2, answer: .openItems)
        #expect(open.note == "0 new, 2 updated, 0 removed, 0 unchanged", "T1 and T2 settled")
        #expect(try fixture.store.database.query("""
            SELECT transaction_id, amount, amount_paid, open_amount FROM realpage_ledger ORDER BY transaction_id
            """) == [[.text("P1"), .real(-1100), .null, .real(0)], [.text("T1"), .real(1000), .real(1000), .real(0)],
                     [.text("T2"), .real(1000), .real(1000), .real(0)]])
        #expect(try fixture.store.database.query("SELECT resh_id, balance, run_id, artifact FROM v_realpage_ledger_households")
                == [[.text("900"), .real(0), .text("night-2"), .text(fixture.directory.appendingPathComponent("window.xml").path)]])
        #expect(try fixture.store.database.query("""
            SELECT report_type, as_of_date FROM loaded_artifacts WHERE report_type LIKE 'getresidentledger%' ORDER BY report_type
            """) == [[.text("getresidentledger"), .text("2026-11-13")], [.text("getresidentledger.dated"), .text("2026-11-20")],
                     [.text("getresidentledger.open"), .text("2026-11-20")]])
    }

    /// RPX's open items list every charge still open, those dated before the ledger's 24-month window too, which no
    /// whole answer holds: left out, and a stored one the window has passed ages out, so the merged ledger holds one
    /// window whichever answer wrote it last (merged, they came back each night and aged out at each whole pull).
    @Test func theOpenItemsLeaveChargesDatedBeforeTheWindowToTheBalanceForward() throws {
        let fixture = try LoaderFixture()
        let property = Property(key: "nexus_east", name: "Nexus East", pms: .realpage, siteID: "5472172")
        // As of 2026-11-13 the window starts 2024-12-01: T0, of 2024-12-05, is in it.
        _ = try RPXArtifactLoader(store: fixture.store, runID: RunID("night-1")).load(
            path: try rpxAnswer(fixture, "full.xml", balance: "1300.00", [("T0", "12/05/2024", "300.00", "300.00"),
                                                                         ("T1", "11/01/2026", "1000.00", "1000.00")]),
            operation: .getresidentledger, property: property, asOf: LocalDate(iso: "2026-11-13")!)
        // As of 2027-01-02 it starts 2025-02-01: T0, still open, is listed by the open items but lies before it.
        let open = try RPXArtifactLoader(store: fixture.store, runID: RunID("night-2")).load(
            path: try rpxAnswer(fixture, "open.xml", balance: "1300.00", [("T0", "12/05/2024", "300.00", "300.00"),
                                                                         ("T1", "11/01/2026", "1000.00", "1000.00")]),
            operation: .getresidentledger, property: property, asOf: LocalDate(iso: "2027-01-02")!, answer: .openItems)
        #expect(open.note == "0 new, 0 updated, 1 removed, 1 unchanged, 1 open charge(s) dated before the window left to the balance forward")
        #expect(try fixture.store.database.query("SELECT transaction_id, open_amount FROM realpage_ledger")
                == [[.text("T1"), .real(1000)]])
        #expect(try fixture.store.database.query("SELECT resh_id, balance FROM realpage_ledger_households")
                == [[.text("900"), .real(1300)]], "the Balance still counts T0")
    }

    /// The nightly open-items answer settles what it no longer lists by reading the property's open charges, not
    /// every charge of its ledger (a scan that grew with the ledger every night of a year).
    @Test func theOpenItemsSettleReadsOnlyTheOpenCharges() throws {
        let fixture = try LoaderFixture()
        let database = fixture.store.database
        try database.execute("CREATE TEMP TABLE IF NOT EXISTS ledger_seen (row_id INTEGER PRIMARY KEY)")
        let settle = LedgerMerger.openChargesSettled(
            RPXArtifactLoader.ledger, unseen: LedgerMerger.unseen(notHeld: "id NOT IN (SELECT row_id FROM temp.ledger_seen)"))
        let plan = try database.query("EXPLAIN QUERY PLAN " + settle, [
            ":property": .text("kalaco"), ":as_of": .text("2026-11-20"), ":lineage_id": .integer(1),
        ]).compactMap { $0[3].textValue }
        #expect(plan.contains { $0.contains("realpage_ledger_open_charges") }, "plan: \(plan)")
    }

    /// The weekly full pull matches tens of thousands of stored transactions by key in one pass: what it must still
    /// tell apart, transaction by transaction, as a lookup did.
    @Test func aFullPullMatchedInOnePassReconcilesEachTransaction() throws {
        let fixture = try LoaderFixture()
        let property = Property(key: "nexus_east", name: "Nexus East", pms: .realpage, siteID: "5472172")
        func load(_ run: String, _ name: String, _ asOf: String, balance: String = "0.00", answer: LedgerAnswer? = nil,
                  _ transactions: [(String, String, String, String)]) throws -> String {
            try RPXArtifactLoader(store: fixture.store, runID: RunID(run)).load(
                path: try rpxAnswer(fixture, name, balance: balance, transactions), operation: .getresidentledger,
                property: property, asOf: LocalDate(iso: asOf)!, answer: answer).note ?? ""
        }
        let t1 = ("T1", "10/01/2026", "1000.00", "0.00"), p1 = ("P1", "10/03/2026", "-1000.00", "0.00")
        _ = try load("night-1", "full-1.xml", "2026-11-01", [t1, ("T2", "11/01/2026", "1000.00", "1000.00"),
                                                             ("T3", "09/01/2026", "500.00", "0.00"), p1])
        // A window of Nov 10 applies a payment to T2.
        _ = try load("night-2", "window.xml", "2026-11-10", answer: .dated(from: "2026-11-03", to: "2026-11-10"),
                     [("P2", "11/05/2026", "-600.00", "0.00"), ("T2", "11/01/2026", "1000.00", "400.00")])
        // A full pull of Nov 8, loaded late: T2 and P2 were written by the later window and stay as it left them; T3
        // was corrected; T4 is new.
        let late = try load("night-3", "full-3.xml", "2026-11-08", [t1, ("T2", "11/01/2026", "1000.00", "1000.00"),
                                                                     ("T3", "09/01/2026", "450.00", "0.00"), p1,
                                                                     ("T4", "11/07/2026", "75.00", "75.00")])
        #expect(late == "1 new, 1 updated, 0 removed, 3 unchanged, 2 change(s) logged")
        // Nov 20: T2 paid, T4 gone, T5 new and listed twice (the second time settled).
        let week = try load("night-4", "full-4.xml", "2026-11-20", [t1, ("T2", "11/01/2026", "1000.00", "0.00"),
                                                                     ("T3", "09/01/2026", "450.00", "0.00"), p1,
                                                                     ("P2", "11/05/2026", "-600.00", "0.00"),
                                                                     ("T5", "11/15/2026", "80.00", "80.00"),
                                                                     ("T5", "11/15/2026", "80.00", "0.00")])
        #expect(week == "1 new, 2 updated, 1 removed, 4 unchanged, 4 change(s) logged")
        #expect(try fixture.store.database.query("SELECT property_id, removed FROM ledger_removals")
                == [[.text("nexus_east"), .integer(1)]], "T4's removal counted, no update counted as one")
        #expect(try fixture.store.database.query("SELECT removal, transaction_type, transaction_id FROM ledger_removed_rows")
                == [[.integer(1), .text("Charge"), .text("T4")]], "and logged")
        #expect(try fixture.store.database.query("""
            SELECT c.transaction_id, c.change, l.run_id FROM realpage_ledger_changes c JOIN raw_lineage l ON l.id = c.lineage_id
            WHERE c.found_by = 'full_refresh' ORDER BY c.id
            """) == [[.text("T3"), .text("corrected"), .text("night-3")], [.text("T4"), .text("added"), .text("night-3")],
                     [.text("T2"), .text("applied"), .text("night-4")], [.text("T5"), .text("added"), .text("night-4")],
                     [.text("T5"), .text("applied"), .text("night-4")], [.text("T4"), .text("removed"), .text("night-4")]])
        #expect(try fixture.store.database.query("""
            SELECT transaction_id, amount, open_amount, as_of_date FROM realpage_ledger ORDER BY transaction_id
            """) == [[.text("P1"), .real(-1000), .real(0), .text("2026-11-01")],
                     [.text("P2"), .real(-600), .real(0), .text("2026-11-10")],
                     [.text("T1"), .real(1000), .real(0), .text("2026-11-01")],
                     [.text("T2"), .real(1000), .real(0), .text("2026-11-20")],
                     [.text("T3"), .real(450), .real(0), .text("2026-11-08")],
                     [.text("T5"), .real(80), .real(0), .text("2026-11-20")]])
    }

    /// The one-pass match's encoding says "unchanged" only where the merge's own comparison does, column by column.
    @Test func comparedValuesAreEqualOnlyWhereTheMergeSaysSame() throws {
        let values: [SQLValue] = [.null, .integer(1), .real(1.0), .real(1.004), .real(0.996), .real(1.01), .integer(0),
                                  .real(-0.0), .text(""), .text("1"), .text("ab"), .text("a"), .text("b"), .blob([]), .blob([1])]
        for a in values {
            for b in values {
                var left = ComparedValues(), right = ComparedValues()
                left.append(a)
                right.append(b)
                // And the other way round (texts equal as Swift strings but spelled otherwise are compared again).
                #expect((left == right) == LedgerMerger.same(a, b), "\(a) against \(b)")
            }
        }
        // Column boundaries count: ("a", "b") is not ("ab", "").
        var split = ComparedValues(), joined = ComparedValues()
        for value in [SQLValue.text("a"), .text("b")] { split.append(value) }
        for value in [SQLValue.text("ab"), .text("")] { joined.append(value) }
        #expect(split != joined)
        // Read from SQLite where the values lie, the stored side encodes as the decoded one does.
        let database = try Database(path: ":memory:")
        let statement = try database.prepare("SELECT NULL, 1, 1.0, 1.004, 'ab', x'01'")
        #expect(try statement.step())
        var stored = ComparedValues(), decoded = ComparedValues()
        for column in 0..<6 { stored.append(column, of: statement) }
        for value in [SQLValue.null, .integer(1), .real(1.0), .real(1.004), .text("ab"), .blob([1])] { decoded.append(value) }
        #expect(stored == decoded)
    }
}
