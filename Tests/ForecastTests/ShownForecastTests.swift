import Foundation
import OwnerDashCore
import SQLiteKit
import Testing
@testable import Forecast

/// What users are shown (`ForecastVisibility`, `RiskNextMonth`), the scoring in one matrix, and when the nightly ingest
/// retrains (`ForecastRetraining`).
@Suite struct ShownForecastTests {
    @Test func usersSeeOnlyTheLatestModelAndOnlyWhenItsBacktestPassed() throws {
        let ledger = try ForecastLedger(latePayers: true)
        let database = ledger.store.database
        #expect(try ForecastVisibility.read(database: database) == .noModel)
        #expect(try RiskNextMonth.read(database: database, households: ["elm": (0..<60).map { "r\($0)" }], asOf: nil) == nil)

        let ledgers = [try PropertyLedgers.read(database: database, property: "elm")]
        let unmeasured = try ForecastStore.train(ledgers, database: database)
        #expect(try ForecastVisibility.read(database: database) == .notBacktested(modelID: unmeasured.modelID))
        #expect(try RiskNextMonth.read(database: database, households: ["elm": (0..<60).map { "r\($0)" }], asOf: nil) == nil)

        let measured = try ForecastStore.train(ledgers, database: database, backtest: true)
        let verdict = try #require(measured.backtest)
        #expect(verdict.passes, "late payers owe on every month end and are never behind: owing now decides next month less well than the trees (\(verdict.summary))")
        #expect(try ForecastVisibility.read(database: database) == .shown(modelID: measured.modelID))
        let risk = try #require(try RiskNextMonth.read(database: database, households: ["elm": (0..<60).map { "r\($0)" }], asOf: nil))
        #expect(risk.modelID == measured.modelID && risk.unscored.isEmpty)
        // The same probabilities as the forecast itself.
        let forecast = try DelinquencyForecast.run(ledgers, stored: measured, asOf: nil)
        #expect(forecast.households.count == 60)
        for household in forecast.households {
            #expect(risk.probability(property: "elm", residentID: household.residentID) == household.probability)
        }

        // Reading only the households a report lists gives each the same risk: its features are its own ledger's.
        let two = try #require(try RiskNextMonth.read(database: database, households: ["elm": ["r5", "r11"]], asOf: nil))
        #expect(two.probabilities["elm"]?.count == 2)
        #expect(two.probabilities["elm"]?["r5"] == risk.probabilities["elm"]?["r5"] && two.probabilities["elm"]?["r11"] == risk.probabilities["elm"]?["r11"])

        // A later model that failed hides it again: the latest decides.
        try database.execute("UPDATE forecast_models SET backtest_passes = 0 WHERE model_id = \(measured.modelID)")
        #expect(try ForecastVisibility.read(database: database)
                == .failedBacktest(modelID: measured.modelID, summary: BacktestVerdict(months: verdict.months, forecastAUC: verdict.forecastAUC,
                                                                                      baseline: verdict.baseline, baselineAUC: verdict.baselineAUC,
                                                                                      passes: false).summary))
        #expect(try RiskNextMonth.read(database: database, households: ["elm": (0..<60).map { "r\($0)" }], asOf: nil) == nil)
    }

    @Test func aPropertyThatCannotBeScoredIsNamedNotThrown() throws {
        let ledger = try ForecastLedger(latePayers: true)
        let database = ledger.store.database
        let stored = try ForecastStore.train([try PropertyLedgers.read(database: database, property: "elm")], database: database, backtest: true)
        try #require(stored.backtest?.passes == true)
        try database.execute("""
            INSERT INTO unified_properties (unified_property_id, name, pms_source, as_of_date, ledger_source)
            VALUES ('oak', 'Oak', 'realpage', '2026-06-20', NULL)
            """)
        let risk = try #require(try RiskNextMonth.read(database: database, households: ["elm": (0..<60).map { "r\($0)" }, "oak": ["x"]], asOf: LocalDate(iso: "2026-06-10")))
        #expect(risk.probabilities["elm"]?.count == 60)
        #expect(risk.unscored.map(\.property) == ["oak"])
        #expect(risk.unscored.first?.reason.hasPrefix("property oak has no tenant ledger") == true)
        let late = try #require(try RiskNextMonth.read(database: database, households: ["elm": ["r0"]], asOf: LocalDate(iso: "2026-07-01")))
        #expect(late.probabilities.isEmpty)
        #expect(late.unscored.first?.reason == "property elm: --as-of 2026-07-01 is after its data (2026-06-20); nothing is known about that day yet")
    }

    @Test func scoringInOneMatrixGivesXGBoostsOwnProbabilitiesAndReasons() throws {
        let first = try ForecastLedger()
        try ForecastLedger.write(first.store.database, households: 25, property: "oak")
        let database = first.store.database
        let ledgers = try ["elm", "oak"].map { try PropertyLedgers.read(database: database, property: $0) }
        let stored = try ForecastStore.train(ledgers, database: database)
        let all = try DelinquencyForecast.run(ledgers, stored: stored, asOf: nil)
        let none = try DelinquencyForecast.run(ledgers, stored: stored, asOf: nil, reasons: .none)
        let few = try DelinquencyForecast.run(ledgers, stored: stored, asOf: nil, reasons: .mostLikely(2))
        #expect(all.households.count == 85 && all.properties.map(\.households) == [60, 25])
        // Each household's probability is XGBoost's own prediction, however it was computed.
        for ledger in ledgers {
            let examples = ledger.current(on: try DelinquencyForecast.describedOn(ledger, asOf: nil))
            let predicted = try stored.model.probabilities(examples)
            for (example, probability) in zip(examples, predicted) {
                let household = try #require(all.households.first { $0.property == ledger.property && $0.residentID == example.residentID })
                #expect(household.probability == probability)
                #expect(none.households.first { $0.property == ledger.property && $0.residentID == example.residentID }?.probability == probability)
            }
        }
        #expect(none.households.allSatisfy { $0.reasons.isEmpty })
        #expect(all.households.allSatisfy { $0.reasons.count == 3 })
        // Only the two most likely of each property have reasons, and they are the full forecast's.
        for property in ["elm", "oak"] {
            let ranked = few.households.filter { $0.property == property }
            #expect(ranked.prefix(2).allSatisfy { $0.reasons.count == 3 } && ranked.dropFirst(2).allSatisfy { $0.reasons.isEmpty })
            for household in ranked.prefix(2) {
                let full = try #require(all.households.first { $0.property == property && $0.residentID == household.residentID })
                #expect(household.reasons.map(\.text) == full.reasons.map(\.text))
            }
        }
    }

    @Test func theNightlyRetrainingIsDueWhenAMonthClosedSinceTheModelsLastOutcome() throws {
        let ledger = try ForecastLedger()
        let database = ledger.store.database
        // 18 months of ledger to 2026-06-20: no model, and plenty of months.
        #expect(try ForecastRetraining.decide(database: database) == .due("no model yet, and 16 month ends with a closed next month to learn from"))
        try database.execute("UPDATE unified_properties SET as_of_date = '2025-05-20'")
        #expect(try ForecastRetraining.decide(database: database)
                == .notDue("no model yet, and 3 month ends with a closed next month to learn from (needs \(Backtest.minimumTrainingMonths))"))
        try database.execute("UPDATE unified_properties SET as_of_date = '2026-06-20'")
        let stored = try ForecastStore.train([try PropertyLedgers.read(database: database, property: "elm")], database: database)
        #expect(stored.outcomesTo == "2026-05-31")
        #expect(try ForecastRetraining.decide(database: database) == .notDue("model \(stored.modelID) has seen every closed month (outcomes to 2026-05-31)"))
        // The next night is still June: nothing new. On June 30 June has closed.
        try database.execute("UPDATE unified_properties SET as_of_date = '2026-06-29'")
        #expect(try ForecastRetraining.decide(database: database) == .notDue("model \(stored.modelID) has seen every closed month (outcomes to 2026-05-31)"))
        try database.execute("UPDATE unified_properties SET as_of_date = '2026-06-30'")
        #expect(try ForecastRetraining.decide(database: database) == .due("2026-06 closed since model \(stored.modelID), which saw outcomes to 2026-05-31"))
        // A model of another feature list (an older version's) cannot be used: due whatever the month.
        try database.execute("UPDATE forecast_models SET features = '[\"balance\"]'")
        #expect(try ForecastRetraining.decide(database: database) == .due("model \(stored.modelID) reads other features than this version computes"))
        // A property without a tenant ledger does not count.
        try database.execute("UPDATE unified_properties SET ledger_source = NULL")
        #expect(try ForecastRetraining.decide(database: database) == .notDue("no tenant ledger synced"))
    }
}
