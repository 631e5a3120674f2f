import Foundation
import Testing

/// `ownerdash forecast train|backtest|delinquency` from the command line, on a small generated ledger: 40 households
/// of one property billed 1,000.00 on the 1st of each month of 2025-01 to 2026-06 (date 2026-06-20); every fifth
/// household skips two months in six and then pays everything it owes. `neverCatchUp`: every fifth household instead
/// stops paying for good in a month of its own (as the simulator's start-up world has it), so that owing now already
/// decides next month and the forecast cannot beat that baseline in its backtest. `latePayers`: every fifth household
/// but one pays each month's rent on the 5th of the next, owing on every month end and never behind, so that owing now
/// decides next month less well than the trees do, and the forecast passes its backtest.
@Suite struct ForecastCommandTests {
    static func ledger(neverCatchUp: Bool = false, latePayers: Bool = false) throws -> DataDir {
        let data = DataDir()
        try FileManager.default.createDirectory(at: data.url, withIntermediateDirectories: true)
        _ = try OwnerDash.run(["sync", "--property", "yp_riverwalk", "--data-dir", data.path, "--quiet"])
        var sql = """
            DELETE FROM unified_properties;
            INSERT INTO unified_properties (unified_property_id, name, pms_source, as_of_date, ledger_source)
            VALUES ('yp_riverwalk', 'Riverwalk', 'yardi', '2026-06-20', 'yardi: test');

            """
        let months = (0..<18).map { String(format: "%04d-%02d", 2025 + $0 / 12, $0 % 12 + 1) }
        for h in 0..<40 {
            sql += "INSERT INTO unified_residents (unified_property_id, resident_id, unit_number, name, status, move_in_date) VALUES ('yp_riverwalk', 't\(h)', '\(100 + h)', 'Household \(h)', 'current', '2024-12-15');\n"
            var owed = 0
            // The charges still open on the property's date, as the PMS reports them (charge balance).
            var open: [String] = []
            for (m, month) in months.enumerated() {
                open.append("t\(h)-\(month)")
                sql += "INSERT INTO unified_charges (unified_property_id, charge_id, resident_id, unit_number, charge_code, category, category_known, period, charge_date, due_date, amount, amount_paid, balance) VALUES ('yp_riverwalk', 't\(h)-\(month)', 't\(h)', '\(100 + h)', 'RENT', 'RENT', 1, '\(month)', '\(month)-01', '\(month)-01', 1000, 0, 0);\n"
                owed += 1000
                if latePayers && h % 5 == 1 {
                    if m > 0 && month + "-05" <= "2026-06-20" {
                        sql += "INSERT INTO unified_payments (unified_property_id, payment_id, resident_id, payment_date, period, amount) VALUES ('yp_riverwalk', 't\(h)-\(month)-p', 't\(h)', '\(month)-05', '\(months[m - 1])', 1000);\n"
                        open.removeFirst()
                    }
                    continue
                }
                let skips = neverCatchUp ? h % 5 == 0 && m >= 6 + h % 10 : h % 5 == 0 && (m + h) % 6 < 2
                if !skips && month + "-03" <= "2026-06-20" {
                    sql += "INSERT INTO unified_payments (unified_property_id, payment_id, resident_id, payment_date, period, amount) VALUES ('yp_riverwalk', 't\(h)-\(month)-p', 't\(h)', '\(month)-03', '\(month)', \(owed));\n"
                    owed = 0
                    open = []
                }
            }
            for id in open { sql += "UPDATE unified_charges SET balance = 1000 WHERE charge_id = '\(id)';\n" }
        }
        // Thousands of statements: too long for a command line, so Python reads them from a file.
        let script = data.url.appendingPathComponent("ledger.sql")
        try sql.write(to: script, atomically: true, encoding: .utf8)
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        python.arguments = ["python3", "-c", "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.executescript(open(sys.argv[2]).read()); c.commit()",
                            data.url.appendingPathComponent("unified.db").path, script.path]
        try python.run()
        python.waitUntilExit()
        try #require(python.terminationStatus == 0)
        return data
    }

    @Test func trainThenForecastInEveryFormatWithTheBacktestBesideIt() throws {
        let data = try Self.ledger()
        let before = try OwnerDash.run(["forecast", "delinquency", "--data-dir", data.path])
        #expect(before.status == 3)
        #expect(before.stderr == "error: ownerdash forecast delinquency: no forecast model in unified.db yet: run ownerdash forecast train\n")
        #expect(before.stdout.isEmpty)

        let train = try OwnerDash.run(["forecast", "train", "--backtest", "--data-dir", data.path])
        #expect(train.status == 0, "\(train.stderr)")
        #expect(train.stdout.split(separator: "\n").last?.hasPrefix("backtest: 10 months, AUC ") == true, "\(train.stdout)")
        #expect(train.stdout.hasPrefix("model 1: 640 household month ends of 1 property"))
        #expect(train.stdout.contains("learned from month ends 2025-01-31 to 2026-04-30 (outcomes to 2026-05-31), 17 features"))
        #expect(try OwnerDash.sqlite(data.path + "/unified.db", "SELECT count(*), min(training_to), min(backtest_months) FROM forecast_models") == "1|2026-04-30|10")

        let json = try OwnerDash.run(["forecast", "delinquency", "--format", "json", "--data-dir", data.path])
        #expect(json.status == 0, "\(json.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let rows = try #require(object["rows"] as? [[String: Any]])
        #expect(rows.count == 40)
        let first = try #require(rows.first)
        #expect((first["probability_pct"] as? Double ?? 0) > 50)
        #expect(first["reason_1"] is String && first["reason_3"] is String)
        let properties = try #require(object["properties"] as? [[String: Any]])
        #expect(properties.first?["described_on"] as? String == "2026-05-31")
        #expect(properties.first?["predicting"] as? String == "2026-06-30")
        let portfolio = try #require(object["properties_total"] as? [String: Any])
        #expect(portfolio["property"] as? String == "portfolio")
        #expect(portfolio["households"] as? Int == 40)
        // The portfolio's expected dollars are the households' added up.
        let expected = rows.reduce(0.0) { $0 + ($1["expected_over_30"] as? Double ?? 0) }
        #expect(abs((portfolio["expected_over_30"] as? Double ?? -1) - expected) < 0.005)

        let csv = try OwnerDash.run(["forecast", "delinquency", "--format", "csv", "--table", "properties", "--data-dir", data.path])
        #expect(csv.status == 0)
        #expect(csv.stdout.hasPrefix("property,described_on,predicting,households,expected_behind,over_30_now,expected_over_30\n"))

        let workbook = data.url.appendingPathComponent("forecast.xlsx").path
        let xlsx = try OwnerDash.run(["forecast", "delinquency", "--format", "xlsx", "--out", workbook, "--data-dir", data.path])
        #expect(xlsx.status == 0)
        #expect(FileManager.default.fileExists(atPath: workbook))

        let backtest = try OwnerDash.run(["forecast", "backtest", "--format", "csv", "--data-dir", data.path])
        #expect(backtest.status == 0, "\(backtest.stderr)")
        #expect(backtest.stdout.hasPrefix("model,roc_auc,brier,top_10pct_dollars_pct,training_seconds\nxgboost trees,"))
        #expect(backtest.stdout.contains("\nbaseline: owes now,"))

        // --from: only the month ends from it predicted, each trained as in the whole backtest.
        let whole = try Self.months(try OwnerDash.run(["forecast", "backtest", "--format", "json", "--data-dir", data.path]).stdout)
        let fromRun = try OwnerDash.run(["forecast", "backtest", "--from", "2026-02-01", "--format", "json", "--data-dir", data.path])
        #expect(fromRun.status == 0, "\(fromRun.stderr)")
        #expect(fromRun.stdout.contains("\"predicted_from\": \"2026-02-01\""))
        let part = try Self.months(fromRun.stdout)
        #expect(!part.isEmpty && part == whole.filter { ($0["month_end"] as? String ?? "") >= "2026-02-01" })
        let notADate = try OwnerDash.run(["forecast", "backtest", "--from", "Feb", "--data-dir", data.path])
        #expect(notADate.status == 1 && notADate.stderr == "error: ownerdash forecast backtest: --from \"Feb\" is not a date (YYYY-MM-DD)\n")
    }

    /// The backtest answer's months table (JSON).
    static func months(_ json: String) throws -> [NSDictionary] {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        return try #require(object["months"] as? [NSDictionary])
    }

    @Test func aDateAfterTheDataAndTooFewMonthsAreOneLineErrors() throws {
        let data = try Self.ledger()
        _ = try OwnerDash.run(["forecast", "train", "--data-dir", data.path])
        let future = try OwnerDash.run(["forecast", "delinquency", "--as-of", "2026-07-01", "--data-dir", data.path])
        #expect(future.status == 3)
        #expect(future.stderr == "error: ownerdash forecast delinquency: property yp_riverwalk: --as-of 2026-07-01 is after its data (2026-06-20); nothing is known about that day yet\n")
        let notADate = try OwnerDash.run(["forecast", "delinquency", "--as-of", "June", "--data-dir", data.path])
        #expect(notADate.status == 1)
        #expect(notADate.stderr == "error: ownerdash forecast delinquency: --as-of \"June\" is not a date (YYYY-MM-DD)\n")

        try DebtorsCommandTests.execute(data, "UPDATE unified_properties SET as_of_date = '2025-05-10'")
        let short = try OwnerDash.run(["forecast", "backtest", "--data-dir", data.path])
        #expect(short.status == 3)
        #expect(short.stderr.hasPrefix("error: ownerdash forecast backtest: too few months to backtest: 3 month ends with a known next month end"))
        #expect(short.stdout.isEmpty)
    }
}
