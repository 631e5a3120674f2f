import Forecast
import Foundation
import OwnerDashCore
import SQLiteKit
import Sync
import Testing
@testable import Serve

extension ServeFixture {
    /// Stores a delinquency model that passed its backtest in this unified.db, as `forecast train --backtest` leaves it:
    /// trained on a ledger of its own (60 households billed 1,000.00 on the 1st of each month of 2025-01 to 2026-06,
    /// every fifth skipping two months in six and then paying all it owes, every fifth but one paying each month on the
    /// 5th of the next), so it scores the fixture's households
    /// without adding a property to it. Returns the model's id.
    @discardableResult
    func storePassingForecastModel() throws -> Int64 {
        let other = directory.appendingPathComponent("trained-elsewhere")
        try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)
        let store = try UnifiedStore(dataDirectory: DataDirectory(root: other.path))
        var sql = """
            INSERT INTO unified_properties (unified_property_id, name, pms_source, as_of_date, ledger_source)
            VALUES ('elm', 'Elm', 'yardi', '2026-06-20', 'test ledger');

            """
        let months = (0..<18).map { String(format: "%04d-%02d", 2025 + $0 / 12, $0 % 12 + 1) }
        for h in 0..<60 {
            sql += "INSERT INTO unified_residents (unified_property_id, resident_id, unit_number, name, status, move_in_date) VALUES ('elm', 'e\(h)', '\(100 + h)', 'Household \(h)', 'current', '2024-12-15');\n"
            var owed = 0
            for (m, month) in months.enumerated() {
                sql += "INSERT INTO unified_charges (unified_property_id, charge_id, resident_id, unit_number, charge_code, category, category_known, period, charge_date, due_date, amount, amount_paid, balance) VALUES ('elm', 'e\(h)-\(month)', 'e\(h)', '\(100 + h)', 'RENT', 'RENT', 1, '\(month)', '\(month)-01', '\(month)-01', 1000, 0, 0);\n"
                owed += 1000
                if h % 5 == 1 {
                    if m > 0 && month + "-05" <= "2026-06-20" {
                        sql += "INSERT INTO unified_payments (unified_property_id, payment_id, resident_id, payment_date, period, amount) VALUES ('elm', 'e\(h)-\(month)-p', 'e\(h)', '\(month)-05', '\(months[m - 1])', 1000);\n"
                    }
                    continue
                }
                if !(h % 5 == 0 && (m + h) % 6 < 2) && month + "-03" <= "2026-06-20" {
                    sql += "INSERT INTO unified_payments (unified_property_id, payment_id, resident_id, payment_date, period, amount) VALUES ('elm', 'e\(h)-\(month)-p', 'e\(h)', '\(month)-03', '\(month)', \(owed));\n"
                    owed = 0
                }
            }
        }
        try store.database.execute(sql)
        let stored = try ForecastStore.train([try PropertyLedgers.read(database: store.database, property: "elm")],
                                             database: store.database, backtest: true)
        try #require(stored.backtest?.passes == true, "the slipping ledger's model passes its backtest: \(stored.backtest?.summary ?? "none")")
        try database.prepare("ATTACH DATABASE :path AS trained").execute([":path": .text(other.appendingPathComponent("unified.db").path)])
        try database.execute("INSERT INTO forecast_models SELECT * FROM trained.forecast_models; DETACH DATABASE trained;")
        return try #require(database.scalar("SELECT max(model_id) FROM forecast_models")?.integerValue)
    }
}

/// The delinquency forecast over HTTP: `/api/v2/properties/{property}/delinquency-forecast` and
/// `/api/v2/portfolio/delinquency-forecast` answer the CLI's `forecast delinquency --format json` while the latest
/// model passed its backtest, scoped to the viewer's properties, and a 404 saying which when it did not; the debtors
/// and rental-tracker answers and the pages gain the forecast at the same moment, and the answers' version with it.
@Suite struct ForecastAPITests {
    let fixture: ServeFixture
    let owner: DashboardServer
    let client: Client

    init() throws {
        fixture = try ServeFixture()
        owner = try fixture.server(viewer: Viewer(email: "owner@example.com", role: .owner))
        client = Client(port: owner.port)
    }

    static func detail(_ body: String) -> String {
        ((try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any])?["detail"] as? String ?? ""
    }

    @Test func withoutAPassingModelTheForecastIs404SayingWhich() throws {
        for path in ["/api/v2/properties/yp/delinquency-forecast", "/api/v2/portfolio/delinquency-forecast"] {
            let none = try client.get(path)
            #expect(none.status == 404)
            #expect(none.headers["content-type"] == "application/problem+json")
            #expect(Self.detail(none.bodyText) == "no delinquency forecast: no delinquency forecast model has been trained for this portfolio (ownerdash forecast train --backtest)")
        }
        let id = try fixture.storePassingForecastModel()
        try fixture.database.execute("UPDATE forecast_models SET backtest_passes = NULL, backtest_months = NULL, backtest_auc = NULL, baseline = NULL, baseline_auc = NULL")
        let unmeasured = try client.get("/api/v2/properties/yp/delinquency-forecast")
        #expect(unmeasured.status == 404)
        #expect(Self.detail(unmeasured.bodyText) == "no delinquency forecast: forecast model \(id) was trained without a backtest, so it is not shown (ownerdash forecast train --backtest)")

        try fixture.database.execute("UPDATE forecast_models SET backtest_passes = 0, backtest_months = 8, backtest_auc = 0.9999, baseline = 'owes now', baseline_auc = 0.9996")
        let failed = try client.get("/api/v2/portfolio/delinquency-forecast")
        #expect(failed.status == 404)
        #expect(Self.detail(failed.bodyText) == "no delinquency forecast: forecast model \(id) did not pass its backtest (8 months, AUC 0.9999 against 0.9996 (owes now): does not pass (needs +0.02)), so it is not shown")
        // And nothing new anywhere else.
        #expect(!(try client.get("/api/v2/properties/yp/debtors")).bodyText.contains("risk_next_month_pct"))
        #expect(!(try client.get("/property/yp")).bodyText.contains("class=\"forecast\""))
        #expect(!(try client.get("/debtors")).bodyText.contains("Risk next month"))
    }

    @Test func withAPassingModelTheAnswerIsTheCLIsScopedToTheViewer() throws {
        let debtorsBefore = try client.get("/api/v2/properties/yp/debtors")
        #expect(!debtorsBefore.bodyText.contains("risk_next_month_pct"))
        try fixture.storePassingForecastModel()

        let property = try client.get("/api/v2/properties/yp/delinquency-forecast")
        #expect(property.status == 200, "\(property.bodyText)")
        #expect(property.bodyText == (try fixture.cli(["forecast", "delinquency", "--property", "yp", "--format", "json"])))
        #expect(property.bodyText.contains("\"backtest_passes\": true"))
        let portfolio = try client.get("/api/v2/portfolio/delinquency-forecast")
        #expect(portfolio.status == 200)
        #expect(portfolio.bodyText == (try fixture.cli(["forecast", "delinquency", "--format", "json"])))
        #expect(portfolio.bodyText.contains("property rp has no tenant ledger"), "rp is named, not shown as zeros")
        // rp has no ledger: its own forecast is a 404 that says so.
        let rp = try client.get("/api/v2/properties/rp/delinquency-forecast")
        #expect(rp.status == 404)
        #expect(Self.detail(rp.bodyText).hasPrefix("no delinquency forecast: property rp has no tenant ledger"))

        // A manager of rp alone: yp is not theirs (404, as any property they may not see), and their portfolio has
        // no ledger to score.
        let rpServer = try fixture.server(viewer: Viewer(email: "m@example.com", role: .manager, properties: ["rp"]))
        let manager = Client(port: rpServer.port)
        #expect(try manager.get("/api/v2/properties/yp/delinquency-forecast").status == 404)
        #expect(Self.detail(try manager.get("/api/v2/properties/yp/delinquency-forecast").bodyText) == "no property yp")
        let theirs = try manager.get("/api/v2/portfolio/delinquency-forecast")
        #expect(theirs.status == 404)
        #expect(!theirs.bodyText.contains("\"yp\""))
        let ypServer = try fixture.server(viewer: Viewer(email: "y@example.com", role: .manager, properties: ["yp"]))
        let ypManager = Client(port: ypServer.port)
        let ypPortfolio = try ypManager.get("/api/v2/portfolio/delinquency-forecast")
        #expect(ypPortfolio.bodyText == property.bodyText, "a manager of yp alone: yp's forecast")
        withExtendedLifetime((rpServer, ypServer)) {}

        // The reports gain their column at once: the model is part of the answers' version, not only the run.
        let debtorsAfter = try client.get("/api/v2/properties/yp/debtors")
        #expect(debtorsAfter.bodyText.contains("risk_next_month_pct"))
        #expect(debtorsAfter.headers["etag"] != debtorsBefore.headers["etag"])
        #expect(debtorsAfter.bodyText == (try fixture.cli(["report", "debtors", "--property", "yp", "--format", "json"])))
        #expect((try client.get("/api/v2/properties/yp/rental-tracker")).bodyText.contains("risk_next_month_pct"))
    }

    @Test func thePropertyPageAndTheDebtorsPageShowTheForecastOnlyOnceAModelPassed() throws {
        let before = try client.get("/property/yp")
        #expect(before.status == 200)
        #expect(!before.bodyText.contains("class=\"forecast\""))
        try fixture.storePassingForecastModel()
        let page = try client.get("/property/yp")
        #expect(page.bodyText.contains("class=\"forecast\""))
        #expect(page.bodyText.contains("Forecast for Nov 30, 2026: <strong>$"))
        let json = try JSONSerialization.jsonObject(with: Data(try client.get("/api/v2/properties/yp/delinquency-forecast").bodyText.utf8)) as? [String: Any]
        let first = try #require((json?["rows"] as? [[String: Any]])?.first)
        #expect(page.bodyText.contains("<td>\(first["reason_1"] as? String ?? "-")</td>"))
        #expect((try client.get("/debtors")).bodyText.contains("Risk next month"))
    }
}
