import Foundation
import OwnerDashCore
import SQLiteKit
import SimulatorSupport
import Testing

extension PMSSimulator {
    /// The opt-in quirks of a real Voyager ledger and a marketing partner's units (scripts/pms_sim/quirks.py): one
    /// property's ledger lacks payments its charges' AmountPaid counts (yardi_amount_paid_beyond_window), one
    /// property's units come only from the AvailableUnits_Login feed, which declares 3 fewer than it lists
    /// (yardi_units_from_ils_feed).
    static let yardiVoyagerLedgerAndILSUnits = Result {
        try PMSSimulator(flags: ["--quirk", "yardi_amount_paid_beyond_window", "--quirk", "yardi_units_from_ils_feed"])
    }

    /// The interface entity holds no ItfServiceRequests license: every GetServiceRequest_Search answers 200 with
    /// Messages "Interface Entity or license error (-3)".
    static let yardiWithoutServiceRequests = Result {
        try PMSSimulator(flags: ["--yardi-unlicensed-interface", "ItfServiceRequests"])
    }

    /// The interface entity holds no ItfVendorInvoicing license: every GetInvoiceRegister answers 200 with Messages
    /// "Interface Entity or license error (-3)".
    static let yardiWithoutVendorInvoicing = Result {
        try PMSSimulator(flags: ["--yardi-unlicensed-interface", "ItfVendorInvoicing"])
    }

    /// Every per-property Yardi call for yp_harbor_point answers HTTP 500 `soap:Server`, and half of the
    /// 200 answers come back garbled (cut XML ending in `<broken &`).
    static let yardiFailing = Result {
        try PMSSimulator(flags: ["--fail-property", "yp_harbor_point", "--fault-malformed-rate", "0.5"])
    }

    /// The opt-in quirks on (scripts/pms_sim/quirks.py): some (property, operation) calls answer an error shape
    /// (yardi_error_answers, drawn from the seed and listed in truth.json `quirk_details`), and one property's
    /// GetUnitInformation lists no unit (yardi_no_unit_information).
    static let yardiOptInQuirks = Result {
        try PMSSimulator(flags: ["--quirk", "yardi_error_answers", "--quirk", "yardi_no_unit_information"])
    }

    /// The simulator's Yardi credentials (its README), with the password given.
    func yardiEnvironment(password: String = "simpass") -> [String: String] {
        ["OWNERDASH_YARDI_URL": yardiURL, "YARDI_USERNAME": "simuser", "YARDI_PASSWORD": password,
         "YARDI_SERVER_NAME": "sim_sql", "YARDI_DATABASE": "sim_voyager", "YARDI_INTERFACE_ENTITY": "OwnerDash",
         "YARDI_INTERFACE_LICENSE": "sim-yardi-license"]
    }
}

let yardiOperations = ["GetPropertyConfigurations", "GetUnitInformation", "GetResidentsByStatus", "GetResidentLeaseCharges_Login",
                       "GetResidentTransactions_Login", "AvailableUnits_Login", "GetYardiGuestActivity_Login",
                       "GetServiceRequest_Search", "GetInvoiceRegister"]

/// `ownerdash fetch` + `load --run` for Yardi properties, end to end against pms_sim.
@Suite struct YardiFetchTests {
    @Test func twoYardiPropertiesLandAndLoadWithTheSimulatorsNumbers() throws {
        let simulator = try PMSSimulator.clean.get()
        let workspace = try Workspace()
        let fetch = try workspace.ownerdash(["fetch", "--pms", "yardi", "--property", "yp_cedar_bluff", "--property", "yp_harbor_point",
                                             "--as-of", "2026-11-20", "--parallel", "4"],
                                            environment: simulator.yardiEnvironment())
        #expect(fetch.status == 0, "stderr: \(fetch.stderr)")
        let runID = try #require(fetch.runID)
        let run = workspace.runDirectory(runID)
        var expected = ["manifest.json"]
        // GetResidentLeaseCharges_Login once more for each of the 23 months before November: its PostMonth.
        let firstIndex = 2024 * 12 + 11, lastIndex = 2026 * 12 + 9
        let earlierMonths: [String] = (firstIndex...lastIndex).map { (index: Int) -> String in
            String(format: "%04d-%02d", index / 12, index % 12 + 1)
        }
        #expect(earlierMonths.count == 23 && earlierMonths.first == "2024-12")
        for property in ["yp_cedar_bluff", "yp_harbor_point"] {
            for operation in yardiOperations { expected.append("yardi/\(property)/\(operation).xml") }
            for month in earlierMonths { expected.append("yardi/\(property)/GetResidentLeaseCharges_Login.\(month).xml") }
        }
        #expect(try workspace.landedFiles(runID) == expected.sorted())
        let manifest = try workspace.manifest(runID)
        #expect(manifest.artifacts.count == 2 * (yardiOperations.count + earlierMonths.count))
        for artifact in manifest.artifacts {
            let (path, _) = try workspace.landedBytes(of: artifact, in: run)
            #expect(artifact["http_status"] as? Int == 200 && artifact["error"] is NSNull)
            let name = (path as NSString).lastPathComponent.replacingOccurrences(of: ".xml", with: "")
            #expect(artifact["operation"] as? String == String(name.prefix { $0 != "." }))
            if let month = name.split(separator: ".").dropFirst().first {
                #expect(artifact["as_of"] as? String == "\(month)-01", "an earlier month is the snapshot of its first day")
            }
            #expect((artifact["url"] as? String)?.hasPrefix(simulator.yardiURL + "/Itf") == true)
        }
        #expect(!manifest.text.contains("simpass") && !fetch.stderr.contains("simpass") && !fetch.stdout.contains("simpass"))

        let load = try workspace.ownerdash(["load", "--run", runID], environment: [:])
        #expect(load.status == 0, "stderr: \(load.stderr)")
        #expect(load.stdoutLines.filter { $0.hasPrefix("loaded  ") }.count == 2 * (yardiOperations.count + earlierMonths.count))

        let database = try Database(path: workspace.data.appendingPathComponent("yardi_raw.db").path, mode: .readOnly)
        for property in ["yp_cedar_bluff", "yp_harbor_point"] {
            let truth = try simulator.truth(property)
            let counts = truth["unit_counts"] as? [String: Any]
            func one(_ sql: String) throws -> SQLValue? { try database.query(sql, [":p": .text(property)]).first?.first }
            #expect(try one("SELECT count(*) FROM yardi_units WHERE property_id = :p")?.integerValue
                    == Int64(truth["total_units"] as? Int ?? -1), "\(property) units")
            #expect(try one("SELECT count(*) FROM yardi_units WHERE property_id = :p AND economic_status_description = 'Occupied No Notice'")?.integerValue
                    == Int64(counts?["occupied_no_notice"] as? Int ?? -1), "\(property) occupied without notice")
            // Open charges after FIFO payment allocation = the truth's delinquent total, to the cent.
            let totals = (truth["delinquency"] as? [String: Any])?["totals"] as? [String: Any]
            let delinquent = try #require(totals?["delinquent"] as? Double)
            #expect(try one("SELECT sum(CAST(round(balance_due * 100) AS INTEGER)) FROM yardi_transactions WHERE property_id = :p")?.integerValue
                    == Int64((delinquent * 100).rounded()), "\(property) open balance")
            #expect(try one("""
                SELECT count(*) FROM (SELECT tenant_code FROM yardi_transactions WHERE property_id = :p
                                      GROUP BY tenant_code HAVING sum(balance_due) > 0)
                """)?.integerValue == Int64(totals?["residents_delinquent"] as? Int ?? -1), "\(property) households owing")
            #expect(try one("SELECT count(DISTINCT run_id) || '/' || min(as_of_date) FROM v_yardi_residents WHERE property_id = :p")?.textValue
                    == "1/2026-11-20")
            // Every service request of the simulator's history, open and closed, in one call (OpenOrClosed=All).
            let workOrders = truth["work_orders"] as? [String: Any]
            let requests = (workOrders?["open"] as? Int ?? -1) + (workOrders?["closed"] as? Int ?? -1)
            #expect(try one("SELECT count(*) FROM yardi_service_requests WHERE property_id = :p")?.integerValue
                    == Int64(requests), "\(property) service requests")
            // A year of invoice lines in one call: the post months and the money of the simulator's expenses.
            let expenses = try #require(truth["expenses"] as? [String: [String: Double]])
            let spent = expenses.values.flatMap(\.values).map { Int64(($0 * 100).rounded()) }.reduce(0, +)
            #expect(expenses.count == 12, "\(property): the simulator's invoices cover 12 post months")
            #expect(try one("SELECT count(DISTINCT post_month) FROM yardi_invoice_lines WHERE property_id = :p")?.integerValue
                    == Int64(expenses.count), "\(property) post months")
            #expect(try one("SELECT sum(CAST(round(amount * 100) AS INTEGER)) FROM yardi_invoice_lines WHERE property_id = :p")?
                        .integerValue == spent, "\(property) invoice lines")
        }
        let again = try workspace.ownerdash(["load", "--run", runID], environment: [:])
        #expect(again.status == 0 && again.stdoutLines.filter { $0.hasPrefix("already loaded  ") }.count == 2 * (yardiOperations.count + earlierMonths.count))
    }

    @Test func anEntityWithoutTheServiceRequestsLicenseSkipsThatCallAndTheRunSucceeds() throws {
        let simulator = try PMSSimulator.yardiWithoutServiceRequests.get()
        let workspace = try Workspace()
        let fetch = try workspace.ownerdash(["fetch", "--property", "yp_cedar_bluff",
                                             "--reports", "GetUnitInformation,GetServiceRequest_Search", "--as-of", "2026-11-20"],
                                            environment: simulator.yardiEnvironment())
        #expect(fetch.status == 0, "a license the entity does not hold is no failure: \(fetch.stderr)")
        #expect(fetch.stdoutLines.contains("skipped yardi/yp_cedar_bluff/GetServiceRequest_Search.xml"))
        #expect(fetch.stderr.contains("yardi/yp_cedar_bluff/GetServiceRequest_Search.xml: warning: not fetched: the Yardi interface entity holds no license for GetServiceRequest_Search"))
        let runID = try #require(fetch.runID)
        #expect(try workspace.landedFiles(runID) == ["manifest.json", "yardi/yp_cedar_bluff/GetUnitInformation.xml"])
    }

    @Test func anEntityWithoutTheVendorInvoicingLicenseSkipsTheRegisterAndHasNoExpenseSource() throws {
        let simulator = try PMSSimulator.yardiWithoutVendorInvoicing.get()
        let workspace = try Workspace()
        let fetch = try workspace.ownerdash(["fetch", "--property", "yp_cedar_bluff",
                                             "--reports", "GetUnitInformation,GetInvoiceRegister", "--as-of", "2026-11-20"],
                                            environment: simulator.yardiEnvironment())
        #expect(fetch.status == 0, "a license the entity does not hold is no failure: \(fetch.stderr)")
        #expect(fetch.stdoutLines.contains("skipped yardi/yp_cedar_bluff/GetInvoiceRegister.xml"))
        #expect(fetch.stderr.contains("yardi/yp_cedar_bluff/GetInvoiceRegister.xml: warning: not fetched: the Yardi interface entity holds no license for GetInvoiceRegister"))
        let runID = try #require(fetch.runID)
        #expect(try workspace.landedFiles(runID) == ["manifest.json", "yardi/yp_cedar_bluff/GetUnitInformation.xml"])
        let skipped = try workspace.manifest(runID).artifacts.filter { $0["operation"] as? String == "GetInvoiceRegister" }
        #expect(skipped.count == 1 && skipped.allSatisfy { $0["error"] is NSNull && $0["skipped"] is String })

        // Loaded and synced, the property has no expense source: the report names it instead of printing zeros.
        let load = try workspace.ownerdash(["load", "--run", runID], environment: [:])
        #expect(load.status == 0, "stderr: \(load.stderr)")
        let sync = try workspace.ownerdash(["sync", "--property", "yp_cedar_bluff"], environment: [:])
        #expect(sync.status == 0, "stderr: \(sync.stderr)")
        let report = try workspace.ownerdash(["report", "expenses", "--property", "yp_cedar_bluff", "--format", "csv"],
                                             environment: [:])
        #expect(report.status == 0, "stderr: \(report.stderr)")
        #expect(report.stderr.contains("yp_cedar_bluff: no expense source synced for this property (left out, not shown as zeros)"))
    }

    @Test func aFailingPropertyIsNamedAndTheOthersStillLand() throws {
        let simulator = try PMSSimulator.yardiFailing.get()
        let workspace = try Workspace()
        let fetch = try workspace.ownerdash(["fetch", "--property", "yp_cedar_bluff", "--property", "yp_harbor_point",
                                             "--reports", "GetUnitInformation,GetResidentsByStatus", "--as-of", "2026-11-20",
                                             "--parallel", "4"], environment: simulator.yardiEnvironment())
        #expect(fetch.status == 2, "stderr: \(fetch.stderr)")
        #expect(fetch.stderr.contains("yardi/yp_harbor_point/GetUnitInformation.xml: error: SOAP Fault soap:Server: Server was unable to process request."))
        #expect(fetch.stderr.contains("yardi/yp_harbor_point/GetResidentsByStatus.xml: error:"))
        let runID = try #require(fetch.runID)
        #expect(try workspace.landedFiles(runID) == [
            "manifest.json", "yardi/yp_cedar_bluff/GetResidentsByStatus.xml", "yardi/yp_cedar_bluff/GetUnitInformation.xml"])
        let artifacts = try workspace.manifest(runID).artifacts
        let failed = artifacts.filter { !($0["error"] is NSNull) }
        #expect(failed.map { $0["property"] as? String } == ["yp_harbor_point", "yp_harbor_point"])
        #expect(failed.allSatisfy { $0["path"] is NSNull && $0["http_status"] as? Int == 500 })
        // Garbled 200s were asked for again rather than landed or given up on.
        let retried = artifacts.flatMap { $0["notes"] as? [String] ?? [] }.filter { $0.hasPrefix("a 200 answer was not XML") }
        #expect(!retried.isEmpty, "the simulator garbled no answer: the fault rate or seed changed")

        let load = try workspace.ownerdash(["load", "--run", runID], environment: [:])
        #expect(load.status == 0, "the failed calls are reported, not loaded: \(load.stderr)")
        #expect(load.stdoutLines.filter { $0.hasPrefix("loaded  ") }.count == 2)
    }

    /// Yardi's error shapes other than Faults and Messages, each answering one (property, operation) call: a 200 whose
    /// body is the plain text `Login failed.`, a bare result code `-3`, an empty Result, a Result without its payload
    /// root. Each is one line naming the property and the operation; every other call lands; after load and sync,
    /// the figures the failed call feeds are said to be missing, never zeros, and the other property's are there.
    @Test func errorAnswersAreNamedOnOneLineEachAndTheRestOfTheRunLands() throws {
        let simulator = try PMSSimulator.yardiOptInQuirks.get()
        let combos = try simulator.errorAnswers()
        #expect(Set(combos.map(\.shape)) == ["login_failed_text", "result_code", "empty_result", "missing_root"])
        let properties = Array(Set(combos.map(\.property))).sorted()
        #expect(properties.count == 2)
        let roots = ["GetUnitInformation": "UnitInformation", "GetResidentsByStatus": "MITS-ResidentData",
                     "GetResidentTransactions_Login": "ResidentTransactions", "AvailableUnits_Login": "PhysicalProperty",
                     "GetYardiGuestActivity_Login": "LeadManagement"]
        let operations = roots.keys.sorted()
        let workspace = try Workspace()
        let fetch = try workspace.ownerdash(["fetch", "--property", properties[0], "--property", properties[1],
                                             "--reports", operations.joined(separator: ","), "--as-of", "2026-11-20",
                                             "--parallel", "4"], environment: simulator.yardiEnvironment())
        #expect(fetch.status == 2, "some calls failed, the others landed: \(fetch.stderr)")
        for combo in combos {
            let subject = "yardi/\(combo.property)/\(combo.operation).xml: error: "
            let root = roots[combo.operation] ?? "?"
            let reason = switch combo.shape {
            case "login_failed_text": "login failed (check YARDI_USERNAME, YARDI_PASSWORD, YARDI_SERVER_NAME, YARDI_DATABASE): Login failed."
            case "result_code": "the server answered with result code -3 (interface entity or license error)"
            case "empty_result": "the response has no <\(root)> element (an empty result)"
            default: "the response has no <\(root)> element (found <Messages>)"
            }
            let lines = fetch.stderrLines.filter { $0.contains(subject) }
            #expect(lines.count == 1 && lines.first?.hasSuffix(subject + reason) == true, "\(combo): \(lines)")
        }
        let runID = try #require(fetch.runID)
        var expected = ["manifest.json"]
        for property in properties {
            for operation in operations where !combos.contains(where: { $0.property == property && $0.operation == operation }) {
                expected.append("yardi/\(property)/\(operation).xml")
            }
        }
        #expect(try workspace.landedFiles(runID) == expected.sorted())

        let load = try workspace.ownerdash(["load", "--run", runID], environment: [:])
        #expect(load.status == 0, "stderr: \(load.stderr)")
        let sync = try workspace.ownerdash(["sync", "--property", properties[0], "--property", properties[1]], environment: [:])
        #expect(sync.status == 0, "stderr: \(sync.stderr)")
        let unified = try Database(path: workspace.data.appendingPathComponent("unified.db").path, mode: .readOnly)
        for combo in combos {
            // What the sync recorded for the failed call: the operation has no snapshot (the units: units_missing).
            let check = combo.operation == "GetUnitInformation" ? "units_missing" : "snapshot"
            let recorded = try unified.query("""
                SELECT count(*) FROM unified_sync_warnings
                WHERE unified_property_id = :p AND check_name = :check AND subject = :operation AND actual = 'none'
                """, [":p": .text(combo.property), ":check": .text(check), ":operation": .text(combo.operation)])
            #expect(recorded.first?.first?.integerValue == 1, "\(combo)")
            // The figure a user reads from it: missing, not zero.
            let metric = ["GetUnitInformation": "occupancy", "GetResidentTransactions_Login": "delinquency",
                          "GetYardiGuestActivity_Login": "funnel"][combo.operation]
            guard let metric else { continue }
            let query = try workspace.ownerdash(["query", metric, "--property", combo.property, "--format", "json"],
                                                environment: [:])
            #expect(query.status != 0 && query.stdout.isEmpty, "\(combo): \(query.stdout)")
            // A property without units or a ledger has no night at all: every metric of it says that first. With its
            // ledger it has its night (its delinquency's), and the funnel names its own missing source.
            let unitsFailed = combos.contains { $0.property == combo.property && $0.operation == "GetUnitInformation" }
            let ledgerFailed = combos.contains { $0.property == combo.property && $0.operation == "GetResidentTransactions_Login" }
            let why = unitsFailed && (metric == "occupancy" || ledgerFailed)
                ? "no GetUnitInformation snapshot loaded (the call failed or was not fetched)"
                : "no \(combo.operation) snapshot synced (the call failed or was not fetched): \(metric) is missing, not zero"
            #expect(query.stderr.contains("\(combo.property): \(why)"), "\(combo): \(query.stderr)")
            // Over the portfolio, the failed property is named as left out; a property with the units and this source
            // answers (when none has both, the query answers nothing and says why). Delinquency needs the ledger
            // only: a property whose units failed answers it from its ledger.
            let portfolio = try workspace.ownerdash(["query", metric, "--format", "json"], environment: [:])
            #expect(portfolio.stderr.contains("\(combo.property): no "), "\(combo): the property left out is named: \(portfolio.stderr)")
            let answerable = properties.filter { property in
                !combos.contains { $0.property == property && ($0.operation == combo.operation
                    || ($0.operation == "GetUnitInformation" && metric != "delinquency")) }
            }
            if answerable.isEmpty {
                #expect(portfolio.status != 0 && portfolio.stdout.isEmpty, "\(combo): \(portfolio.stdout)")
            } else {
                #expect(portfolio.status == 0, "\(combo): \(portfolio.stderr)")
                let answered = try JSONSerialization.jsonObject(with: Data(portfolio.stdout.utf8)) as? [String: Any]
                let rows = (answered?["rows"] as? [[String: Any]] ?? []).compactMap { $0["property"] as? String }
                #expect(rows.filter { $0 != "portfolio" } == answerable, "\(combo): \(rows)")
            }
        }
        // The summary and the dashboard read the same figures: blank and explained where their call failed, never 0.
        let figures = ["GetResidentTransactions_Login": ("delinquency", ["delinquent", "net_delinquent"]),
                       "GetYardiGuestActivity_Login": ("funnel", ["leads_30d", "leases_30d"]),
                       "GetResidentsByStatus": ("activity", ["move_ins_mtd", "move_outs_mtd"])]
        let summary = try workspace.ownerdash(["query", "summary", "--format", "json"], environment: [:])
        #expect(summary.status == 0, "stderr: \(summary.stderr)")
        let summaryRows = (try JSONSerialization.jsonObject(with: Data(summary.stdout.utf8)) as? [String: Any])?["rows"]
            as? [[String: Any]] ?? []
        let dashboardPath = workspace.data.appendingPathComponent("dashboard.html").path
        let dashboard = try workspace.ownerdash(["dashboard", "--out", dashboardPath], environment: [:])
        #expect(dashboard.status == 0, "stderr: \(dashboard.stderr)")
        let page = try String(contentsOfFile: dashboardPath, encoding: .utf8)
        var blanked = 0
        for combo in combos {
            guard let (metric, columns) = figures[combo.operation],
                  !combos.contains(where: { $0.property == combo.property && $0.operation == "GetUnitInformation" })
            else { continue }
            let row = try #require(summaryRows.first { $0["property"] as? String == combo.property }, "\(combo)")
            for column in columns { #expect(row[column] is NSNull, "\(combo): \(column) = \(row[column] ?? "absent")") }
            let why = "no \(combo.operation) snapshot synced (the call failed or was not fetched): \(metric) is missing, not zero"
            #expect(summary.stderr.contains("\(combo.property): \(columns.joined(separator: " and ")) left empty: \(why)"),
                    "\(combo): \(summary.stderr)")
            if metric != "activity" { #expect(page.contains("Missing, not zero: \(why)."), "\(combo): the dashboard says why") }
            blanked += 1
        }
        #expect(blanked > 0, "the seed draws a failed ledger, guest or resident call at a property with units")
    }

    /// The simulator serving a real Voyager's shapes: at the yardi_units_from_ils_feed property GetUnitInformation lists
    /// no unit and the marketing feed lists every unit (3 more than it declares); at the yardi_amount_paid_beyond_window
    /// property some households' ledgers lack a payment their charges' AmountPaid counts; at the
    /// yardi_voyager_charge_codes properties the codes are Voyager's (`.rent`, `park`, `fees`, `damages`). Fetched,
    /// loaded and synced, occupancy and delinquency are the simulator's truth, each gap is one warning naming its
    /// household, the unit source and the count difference are said, and no charge code is unknown.
    @Test func unitsFromTheILSFeedAndAmountPaidBeyondTheWindowGiveTheTruthsAnswers() throws {
        let simulator = try PMSSimulator.yardiVoyagerLedgerAndILSUnits.get()
        let ils = try #require(try simulator.quirks("yardi_units_from_ils_feed").first)
        let beyond = try #require(try simulator.quirks("yardi_amount_paid_beyond_window").first)
        let voyager = try simulator.quirks("yardi_voyager_charge_codes")
        #expect(voyager.count == 2)
        let properties = Set([ils, beyond] + voyager).sorted()
        let workspace = try Workspace()
        let fetch = try workspace.ownerdash(["fetch"] + properties.flatMap { ["--property", $0] } + [
            "--reports", "GetUnitInformation,AvailableUnits_Login,GetResidentsByStatus,GetResidentTransactions_Login",
            "--as-of", "2026-11-20"], environment: simulator.yardiEnvironment())
        #expect(fetch.status == 0, "stderr: \(fetch.stderr)")
        let runID = try #require(fetch.runID)
        let load = try workspace.ownerdash(["load", "--run", runID], environment: [:])
        #expect(load.status == 0, "stderr: \(load.stderr)")
        let sync = try workspace.ownerdash(["sync"] + properties.flatMap { ["--property", $0] }, environment: [:])
        #expect(sync.status == 0, "stderr: \(sync.stderr)")
        let unified = try Database(path: workspace.data.appendingPathComponent("unified.db").path, mode: .readOnly)
        func warnings(_ property: String, _ check: String) throws -> [[SQLValue]] {
            try unified.query("""
                SELECT subject, expected, actual, message FROM unified_sync_warnings
                WHERE unified_property_id = :p AND check_name = :check ORDER BY subject
                """, [":p": .text(property), ":check": .text(check)])
        }

        // Units from the marketing feed: occupancy is the truth's, the source is said, the declared count reconciled.
        let truth = try simulator.truth(ils)
        let counts = try #require(truth["unit_counts"] as? [String: Any])
        let total = try #require(truth["total_units"] as? Int)
        let occupancy = try workspace.ownerdash(["query", "occupancy", "--property", ils, "--format", "json"], environment: [:])
        #expect(occupancy.status == 0, "stderr: \(occupancy.stderr)")
        let row = try #require(((try JSONSerialization.jsonObject(with: Data(occupancy.stdout.utf8)) as? [String: Any])?["rows"]
            as? [[String: Any]])?.first)
        #expect(row["units"] as? Int == total)
        for (column, truthKey) in [("occupied", "occupied"), ("vacant_leased", "vacant_leased"), ("on_notice", "on_notice"),
                                   ("notice_leased", "notice_leased"), ("model", "model"), ("down", "down"),
                                   ("vacant_ready", "vacant_ready"), ("vacant_not_ready", "vacant_not_ready"),
                                   ("aged_vacant_90", "aged_vacant_90")] {
            #expect(row[column] as? Int == counts[truthKey] as? Int, "\(ils) \(column): \(row[column] ?? "none")")
        }
        #expect(try warnings(ils, "unit_source").count == 1)
        #expect(sync.stderr.contains("\(ils): warning: GetUnitInformation lists no unit; the \(total) units are taken from the "
                                     + "AvailableUnits_Login marketing feed"), "\(sync.stderr)")
        #expect(try warnings(ils, "units_missing").isEmpty)
        let declared = try warnings(ils, "ils_unit_count")
        #expect(declared.map { [$0[1], $0[2]] } == [[.text("\(total - 3)"), .text("\(total)")]])
        #expect(try unified.query("""
            SELECT status, expected, actual FROM sync_checks WHERE unified_property_id = :p AND check_name = 'ils_unit_count'
            """, [":p": .text(ils)]) == [[.text("failed"), .real(Double(total - 3)), .real(Double(total))]])
        #expect(try unified.query("SELECT source FROM unified_occupancy_metrics WHERE unified_property_id = :p",
                                  [":p": .text(ils)]).first?.first?.textValue?.contains("AvailableUnits_Login ILS feed") == true)

        // AmountPaid beyond the window: delinquency is the truth's (Voyager's BalanceDue), each gap warned by household.
        let totals = try #require((try simulator.truth(beyond)["delinquency"] as? [String: Any])?["totals"] as? [String: Any])
        let delinquency = try workspace.ownerdash(["query", "delinquency", "--property", beyond, "--format", "json"], environment: [:])
        #expect(delinquency.status == 0, "stderr: \(delinquency.stderr)")
        let owed = try #require(((try JSONSerialization.jsonObject(with: Data(delinquency.stdout.utf8)) as? [String: Any])?["rows"]
            as? [[String: Any]])?.first)
        for column in ["delinquent", "prepaid", "net", "balance_0_30", "balance_over_90"] {
            let mine = (owed[column] as? NSNumber)?.doubleValue ?? .nan, theirs = (totals[column] as? NSNumber)?.doubleValue ?? -1
            #expect(abs(mine - theirs) < 0.005, "\(beyond) \(column): \(mine) vs truth \(theirs)")
        }
        let gaps = try warnings(beyond, "ledger_window")
        #expect(!gaps.isEmpty)
        let residents = try #require((try simulator.truth(beyond)["delinquency"] as? [String: Any])?["residents"] as? [[String: Any]])
        let owing = Set(residents.compactMap { $0["tenant_code"] as? String })
        for gap in gaps {
            let household = gap[0].textValue ?? ""
            #expect(owing.contains(household), "\(household) owes in the truth")
            #expect(gap[3].textValue?.hasPrefix("household \(household): the ledger window's charges") == true)
            // The sync's own output names the property, the household and the gap.
            #expect(sync.stderr.contains("\(beyond): warning: household \(household): the ledger window's charges"), "\(household)")
        }
        #expect(try unified.query("""
            SELECT count(*) FROM unified_delinquency WHERE unified_property_id = :p
              AND round(balance_0_30 + balance_31_60 + balance_61_90 + balance_over_90 - prepaid - current_balance, 2) <> 0
            """, [":p": .text(beyond)]).first?.first?.integerValue == 0)
        // Each gap is carried as one balance-forward credit, so every household's ledger (charges − payments, what
        // the debtors report and the statement sum) is its delinquency balance.
        #expect(try unified.query("""
            SELECT resident_id FROM unified_charges WHERE unified_property_id = :p AND charge_id LIKE 'balance-forward:%'
            ORDER BY resident_id
            """, [":p": .text(beyond)]).compactMap(\.first?.textValue) == gaps.compactMap(\.first?.textValue).sorted())
        #expect(try unified.query("""
            SELECT count(*) FROM unified_delinquency d
            LEFT JOIN unified_household_balances b
              ON b.unified_property_id = d.unified_property_id AND b.resident_id = d.resident_id
            WHERE d.unified_property_id = :p AND round(coalesce(b.balance, 0) - d.current_balance, 2) <> 0
            """, [":p": .text(beyond)]).first?.first?.integerValue == 0)

        // Voyager's charge codes: rent is rent, no code unknown.
        for property in voyager {
            let codes = try unified.query("""
                SELECT charge_code, category, min(category_known) FROM unified_charges WHERE unified_property_id = :p
                GROUP BY charge_code, category ORDER BY charge_code
                """, [":p": .text(property)])
            #expect(codes.contains([.text(".rent"), .text("RENT"), .integer(1)]), "\(property): \(codes)")
            #expect(codes.contains([.text("park"), .text("OTHER"), .integer(1)]), "\(property): \(codes)")
            #expect(!codes.contains { $0[2] == .integer(0) }, "\(property): \(codes)")
        }
    }

    /// A property whose GetUnitInformation lists no unit (quirk yardi_no_unit_information): its calls land, its
    /// residents and ledger sync (delinquency is the simulator's), and occupancy says the units are missing.
    @Test func aPropertyWithoutUnitInformationSyncsTheRestAndSaysUnitsAreMissing() throws {
        let simulator = try PMSSimulator.yardiOptInQuirks.get()
        let property = try #require(try simulator.quirks("yardi_no_unit_information").first)
        let workspace = try Workspace()
        let fetch = try workspace.ownerdash(["fetch", "--property", property, "--reports",
                                             "GetUnitInformation,GetResidentsByStatus,GetResidentTransactions_Login",
                                             "--as-of", "2026-11-20"], environment: simulator.yardiEnvironment())
        #expect(fetch.status == 0, "stderr: \(fetch.stderr)")
        let runID = try #require(fetch.runID)
        #expect(try workspace.ownerdash(["load", "--run", runID], environment: [:]).status == 0)
        let sync = try workspace.ownerdash(["sync", "--property", property], environment: [:])
        #expect(sync.status == 0, "stderr: \(sync.stderr)")
        let occupancy = try workspace.ownerdash(["query", "occupancy", "--property", property], environment: [:])
        #expect(occupancy.status != 0)
        #expect(occupancy.stderr.contains("\(property): the GetUnitInformation snapshot of 2026-11-20 holds no unit: "
                                          + "total units, occupancy, exposure, vacancy and pricing are missing, not zero"),
                "\(occupancy.stderr)")
        // The rest synced: the households and their balances are the simulator's (metrics that need the property's
        // unit snapshot say the units are missing, as above).
        let unified = try Database(path: workspace.data.appendingPathComponent("unified.db").path, mode: .readOnly)
        let owed = try unified.query("""
            SELECT sum(CAST(round((balance_0_30 + balance_31_60 + balance_61_90 + balance_over_90) * 100) AS INTEGER)),
                   count(CASE WHEN balance_0_30 + balance_31_60 + balance_61_90 + balance_over_90 > 0 THEN 1 END)
            FROM unified_delinquency WHERE unified_property_id = :p
            """, [":p": .text(property)]).first
        let totals = (try simulator.truth(property)["delinquency"] as? [String: Any])?["totals"] as? [String: Any]
        let delinquent = try #require(totals?["delinquent"] as? Double)
        #expect(owed?[0].integerValue == Int64((delinquent * 100).rounded()), "\(owed ?? [])")
        #expect(owed?[1].integerValue == Int64(totals?["residents_delinquent"] as? Int ?? -1))
        #expect(try unified.query("SELECT count(*) FROM unified_units WHERE unified_property_id = :p",
                                  [":p": .text(property)]).first?.first?.integerValue == 0)
        // What a user asks of it: delinquency and the ledger reports answer (the truth's), only unit figures are
        // missing (the sync had said residents, leases and ledger were synced).
        let delinquency = try workspace.ownerdash(["query", "delinquency", "--property", property, "--format", "json"],
                                                  environment: [:])
        #expect(delinquency.status == 0, "stderr: \(delinquency.stderr)")
        let row = ((try JSONSerialization.jsonObject(with: Data(delinquency.stdout.utf8)) as? [String: Any])?["rows"]
            as? [[String: Any]])?.first
        #expect(abs(((row?["delinquent"] as? NSNumber)?.doubleValue ?? -1) - delinquent) < 0.005, "\(row ?? [:])")
        #expect(row?["residents_delinquent"] as? Int == totals?["residents_delinquent"] as? Int)
        for report in [["report", "debtors"], ["report", "rental-tracker"]] {
            let answer = try workspace.ownerdash(report + ["--property", property], environment: [:])
            #expect(answer.status == 0 && !answer.stdout.isEmpty, "\(report): \(answer.stderr)")
        }
    }

    /// Guest cards carrying event types beyond the funnel (quirk yardi_guest_events_beyond_funnel: Appointment,
    /// ReturnVisit, Hold, ReApply, Cancel, MoveIn, Notice, Renew): they land as sent, every one is a type the Yardi
    /// rules know (no warning), and the funnel a user reads is the simulator's, none of them counted.
    @Test func guestEventsBeyondTheFunnelLandAndTheFunnelIsTheSimulators() throws {
        let simulator = try PMSSimulator.clean.get()
        let properties = try simulator.quirks("yardi_guest_events_beyond_funnel")
        #expect(properties.count == 2)
        let workspace = try Workspace()
        let fetch = try workspace.ownerdash(["fetch"] + properties.flatMap { ["--property", $0] } + [
            "--reports", "GetUnitInformation,GetResidentsByStatus,GetYardiGuestActivity_Login", "--as-of", "2026-11-20"],
                                            environment: simulator.yardiEnvironment())
        #expect(fetch.status == 0, "stderr: \(fetch.stderr)")
        let runID = try #require(fetch.runID)
        #expect(try workspace.ownerdash(["load", "--run", runID], environment: [:]).status == 0)
        let sync = try workspace.ownerdash(["sync"] + properties.flatMap { ["--property", $0] }, environment: [:])
        #expect(sync.status == 0, "stderr: \(sync.stderr)")
        let raw = try Database(path: workspace.data.appendingPathComponent("yardi_raw.db").path, mode: .readOnly)
        let unified = try Database(path: workspace.data.appendingPathComponent("unified.db").path, mode: .readOnly)
        for property in properties {
            let beyond = try raw.query("""
                SELECT count(*) FROM yardi_guest_activity WHERE property_id = :p
                  AND event_type IN ('Appointment', 'ReturnVisit', 'Hold', 'ReApply', 'Cancel', 'MoveIn', 'Notice', 'Renew')
                """, [":p": .text(property)])
            #expect((beyond.first?.first?.integerValue ?? 0) > 0, "\(property): the extra events landed")
            #expect(try unified.query("""
                SELECT count(*) FROM unified_sync_warnings WHERE unified_property_id = :p AND check_name = 'guest_event_type'
                """, [":p": .text(property)]).first?.first?.integerValue == 0)
            let query = try workspace.ownerdash(["query", "funnel", "--property", property, "--format", "json"], environment: [:])
            #expect(query.status == 0, "stderr: \(query.stderr)")
            let row = ((try JSONSerialization.jsonObject(with: Data(query.stdout.utf8)) as? [String: Any])?["rows"] as? [[String: Any]])?.first
            let truth = try #require(try simulator.truth(property)["funnel_30d"] as? [String: Any])
            for field in ["leads", "tours", "applications", "approvals", "leases"] {
                #expect(row?[field] as? Int == truth[field] as? Int, "\(property) \(field): \(row?[field] ?? "nil"), truth \(truth[field] ?? "nil")")
            }
            #expect(row?["from"] as? String == truth["window_start"] as? String)
        }
    }

    @Test func aWrongPasswordFailsEveryCallWithoutShowingIt() throws {
        let simulator = try PMSSimulator.clean.get()
        let workspace = try Workspace()
        let secret = "wrong-secret-\(UUID().uuidString)"
        let fetch = try workspace.ownerdash(["fetch", "--property", "yp_cedar_bluff", "--reports", "GetUnitInformation,AvailableUnits_Login",
                                             "--as-of", "2026-11-20"], environment: simulator.yardiEnvironment(password: secret))
        #expect(fetch.status == 3, "nothing landed: \(fetch.stderr)")
        #expect(fetch.stderr.contains("yardi/yp_cedar_bluff/GetUnitInformation.xml: error: login failed (check YARDI_USERNAME"))
        #expect(!fetch.stderr.contains(secret) && !fetch.stdout.contains(secret))
        let runID = try #require(fetch.runID)
        #expect(!(try workspace.manifest(runID).text.contains(secret)))
    }

    @Test func anUnknownOperationListsWhatCanBeFetched() throws {
        let workspace = try Workspace()
        let result = try workspace.ownerdash(["fetch", "--reports", "GetRentRoll"], environment: [:])
        #expect(result.status == 1)
        #expect(result.stderr.contains("unknown report or operation \"GetRentRoll\""))
        #expect(result.stderr.contains("RPX: rpx or getsitelist, getbuildings, unitlist, getunitlist, getresidentlistinfo, getleaseinfo, getrentableitems, getresidentledger, getscheduledcharges"))
        #expect(result.stderr.contains("Yardi operations: GetPropertyConfigurations, GetUnitInformation, GetResidentsByStatus"))
    }

    @Test func aCredentialsFileOthersCanReadIsRefused() throws {
        let workspace = try Workspace()
        let path = workspace.root.appendingPathComponent("credentials.json").path
        try Data(#"{"YARDI_PASSWORD": "from-the-file"}"#.utf8).write(to: URL(fileURLWithPath: path))
        chmod(path, 0o640)
        let result = try workspace.ownerdash(["fetch", "--pms", "yardi"], environment: ["OWNERDASH_CREDENTIALS": path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("has mode 0640; it must be readable by its owner only (0600): run chmod 600 \(path)"))
    }
}
