import Foundation
import Testing

/// Where users see the delinquency forecast from the command line: `report debtors` and `report rental-tracker` gain a
/// "risk next month" column, and the dashboard's delinquency panel a forecast, only while the latest model passed its
/// backtest; without a model, with one trained without a backtest and with one that failed it, every report is what
/// it was before the forecast existed, byte for byte (save the minute a page or workbook was written).
@Suite struct ForecastShownTests {
    /// Every format of both reports: (label, stdout or the file's text).
    static func reports(_ data: DataDir) throws -> [(String, String)] {
        var answers: [(String, String)] = []
        for report in ["debtors", "rental-tracker"] {
            for format in ["table", "json", "csv", "html"] {
                let run = try OwnerDash.run(["report", report, "--format", format, "--data-dir", data.path])
                #expect(run.status == 0, "\(report) \(format): \(run.stderr)")
                answers.append(("\(report) \(format)", withoutTimes(run.stdout)))
            }
            let units = try OwnerDash.run(["report", report, "--format", "csv", "--table", report == "debtors" ? "units" : "owed",
                                           "--data-dir", data.path])
            answers.append(("\(report) csv second table", units.stdout))
            let workbook = data.url.appendingPathComponent("\(report).xlsx").path
            let xlsx = try OwnerDash.run(["report", report, "--format", "xlsx", "--out", workbook, "--data-dir", data.path])
            #expect(xlsx.status == 0, "\(report) xlsx: \(xlsx.stderr)")
            let dump = try OwnerDash.run(["sheet", "dump", workbook])
            answers.append(("\(report) xlsx", withoutTimes(dump.stdout)))
        }
        return answers
    }

    /// The minute a page or a workbook was written (`2026-11-26 09:14 UTC`) differs between two runs; nothing else may.
    static func withoutTimes(_ text: String) -> String {
        text.replacingOccurrences(of: #"[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}( UTC)?"#, with: "TIME", options: .regularExpression)
    }

    static func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test func theRiskColumnAppearsOnlyOnceAModelPassedItsBacktest() throws {
        let data = try ForecastCommandTests.ledger(latePayers: true)
        let before = try Self.reports(data)
        #expect(!before.contains { $0.1.contains("risk_next_month") || $0.1.contains("Risk next month") })
        #expect(before.contains { $0.0 == "debtors json" && $0.1.contains("\"units\": [\n") }, "the ledger has debtors")

        // Trained without a backtest: how far to trust it is unmeasured, so users see nothing new.
        #expect(try OwnerDash.run(["forecast", "train", "--data-dir", data.path]).status == 0)
        let unmeasured = try Self.reports(data)
        for (index, answer) in unmeasured.enumerated() { #expect(answer.1 == before[index].1, "\(answer.0)") }

        let train = try OwnerDash.run(["forecast", "train", "--backtest", "--data-dir", data.path])
        #expect(train.stdout.contains(": passes\n"), "\(train.stdout)")
        let after = try Self.reports(data)
        for (label, text) in after where !label.hasSuffix("second table") || label.hasPrefix("debtors") {
            #expect(text.contains("risk_next_month_pct") || text.contains("Risk next month"), "\(label): \(text.prefix(400))")
        }
        // The rental tracker's owed table is unchanged: the column is the residents'.
        #expect(after.first { $0.0 == "rental-tracker csv second table" }?.1 == before.first { $0.0 == "rental-tracker csv second table" }?.1)

        // Each household's risk is its probability in `forecast delinquency`.
        let forecast = try Self.json(try OwnerDash.run(["forecast", "delinquency", "--format", "json", "--data-dir", data.path]).stdout)
        var probability: [String: Double] = [:]
        for row in try #require(forecast["rows"] as? [[String: Any]]) {
            probability[row["resident_id"] as? String ?? ""] = row["probability_pct"] as? Double
        }
        let debtors = try Self.json(try #require(after.first { $0.0 == "debtors json" }).1)
        let units = try #require(debtors["units"] as? [[String: Any]])
        #expect(!units.isEmpty)
        for unit in units {
            let resident = unit["resident_id"] as? String ?? ""
            #expect(unit["risk_next_month_pct"] as? Double == probability[resident], "\(resident)")
        }
        // A person's risk is the highest of their units'.
        for person in try #require(debtors["rows"] as? [[String: Any]]) {
            let theirs = units.filter { $0["debtor"] as? String == person["debtor"] as? String }.compactMap { $0["risk_next_month_pct"] as? Double }
            #expect(person["risk_next_month_pct"] as? Double == theirs.max())
        }
        let tracker = try Self.json(try #require(after.first { $0.0 == "rental-tracker json" }).1)
        let residents = try #require(tracker["rows"] as? [[String: Any]])
        #expect(!residents.isEmpty)
        for resident in residents {
            let id = resident["resident_id"] as? String ?? ""
            #expect(resident["risk_next_month_pct"] as? Double == probability[id], "\(id)")
        }
        // Household 20 skipped May and June: behind at the end of June, and the forecast says so; households 1, 6, ...
        // pay each month on the 5th of the next, so are behind on June's rent today and not at risk.
        let risk = Dictionary(residents.map { ($0["resident_id"] as? String ?? "", $0["risk_next_month_pct"] as? Double ?? -1) }) { a, _ in a }
        #expect((risk["t20"] ?? 0) > 50, "\(risk)")
        let late = risk.filter { Int($0.key.dropFirst()).map { $0 % 5 == 1 } ?? false }
        #expect(late.count == 8 && late.values.allSatisfy { $0 < 10 }, "\(risk)")
        // Last column; the totals row leaves it empty.
        let csv = try #require(after.first { $0.0 == "rental-tracker csv" }).1
        #expect(csv.hasPrefix("property,unit,resident_id,name,status,under_eviction,in_collections,balance,months_behind,months_missing,last_payment,last_payment_amount,risk_next_month_pct\n"))
    }

    @Test func aModelThatFailedItsBacktestLeavesReportsAndDashboardAsTheyWere() throws {
        let data = try ForecastCommandTests.ledger(neverCatchUp: true)
        let before = try Self.reports(data)
        let dashboard = data.url.appendingPathComponent("dashboard.html").path
        #expect(try OwnerDash.run(["dashboard", "--out", dashboard, "--property", "yp_riverwalk", "--data-dir", data.path]).status == 0)
        let pageBefore = Self.withoutTimes(try String(contentsOfFile: dashboard, encoding: .utf8))

        let train = try OwnerDash.run(["forecast", "train", "--backtest", "--data-dir", data.path])
        #expect(train.status == 0, "\(train.stderr)")
        #expect(train.stdout.contains("(baseline: owes now): does not pass"), "\(train.stdout)")
        let after = try Self.reports(data)
        for (index, answer) in after.enumerated() { #expect(answer.1 == before[index].1, "\(answer.0)") }
        #expect(try OwnerDash.run(["dashboard", "--out", dashboard, "--property", "yp_riverwalk", "--data-dir", data.path]).status == 0)
        #expect(Self.withoutTimes(try String(contentsOfFile: dashboard, encoding: .utf8)) == pageBefore)
        // The operator still sees it, told it is not shown to users.
        let forecast = try OwnerDash.run(["forecast", "delinquency", "--data-dir", data.path])
        #expect(forecast.status == 0)
        #expect(forecast.stderr.contains("not to be shown to users"))
    }

    @Test func theDashboardShowsTheForecastInTheDelinquencyPanelOnceAModelPassed() throws {
        let data = try ForecastCommandTests.ledger(latePayers: true)
        // An occupancy snapshot, so that the property has its charts (a property without any says "no snapshot" alone).
        try DebtorsCommandTests.execute(data, """
            INSERT INTO unified_occupancy_metrics (
                unified_property_id, as_of_date, total_units, occupied_units, vacant_units, vacant_leased,
                vacant_not_leased, vacant_ready, vacant_not_ready, aged_vacant_90, aged_vacancy_cost, on_notice,
                notice_leased, notice_not_leased, pre_leased, model_units, down_units, leased_units,
                physical_occupancy, leased_pct, exposure_now, exposure_30, exposure_60,
                exposure_now_pct, exposure_30_pct, exposure_60_pct, source)
            VALUES ('yp_riverwalk', '2026-06-20', 40, 40, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 40, 100, 100, 0, 0, 0, 0, 0, 0, 'test')
            """)
        let dashboard = data.url.appendingPathComponent("dashboard.html").path
        #expect(try OwnerDash.run(["dashboard", "--out", dashboard, "--property", "yp_riverwalk", "--data-dir", data.path]).status == 0)
        let without = try String(contentsOfFile: dashboard, encoding: .utf8)
        #expect(!without.contains("class=\"forecast\""))
        let debtorsPage = data.url.appendingPathComponent("ledger/yp_riverwalk-debtors.html").path
        #expect(!(try String(contentsOfFile: debtorsPage, encoding: .utf8)).contains("Risk next month"))

        #expect(try OwnerDash.run(["forecast", "train", "--backtest", "--data-dir", data.path]).status == 0)
        #expect(try OwnerDash.run(["dashboard", "--out", dashboard, "--property", "yp_riverwalk", "--data-dir", data.path]).status == 0)
        let with = try String(contentsOfFile: dashboard, encoding: .utf8)
        #expect(with.contains("class=\"forecast\""))
        #expect(with.contains("Forecast for Jun 30, 2026: <strong>$"), "\(with.components(separatedBy: "class=\"forecast\"").last?.prefix(600) ?? "")")
        #expect(with.contains("expected more than 30 days behind"))
        // The households most likely behind are the forecast's first, each with its largest reason.
        let forecast = try Self.json(try OwnerDash.run(["forecast", "delinquency", "--format", "json", "--data-dir", data.path]).stdout)
        let first = try #require((forecast["rows"] as? [[String: Any]])?.first)
        let unit = try #require(first["unit"] as? String), reason = try #require(first["reason_1"] as? String)
        #expect(with.contains("<td>\(unit)</td><td>\(first["name"] as? String ?? "")</td>"))
        #expect(with.contains("<td>\(reason)</td>"))
        #expect(try String(contentsOfFile: debtorsPage, encoding: .utf8).contains("Risk next month"))
    }
}
