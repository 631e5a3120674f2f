import Foundation
import OwnerDashCore
import SQLiteKit
import Sync
import Testing
@testable import Forecast

/// A unified.db in its own directory with one property's ledger: `households` households billed 1,000.00 rent on
/// the 1st of each month from 2025-01 to 2026-06 (the property's date 2026-06-20). Every fifth household is a
/// "slipper": it pays nothing for two months in a row every so often (then catches up in full), so owing now does
/// not settle next month; the others pay on the 3rd. `latePayers`: every fifth household but one pays each month's
/// rent on the 5th of the next instead, so that it owes on every month end and is never behind (owing now then
/// decides next month less well, and a model that passes its backtest can be trained).
final class ForecastLedger {
    let directory: URL
    let store: UnifiedStore
    static let asOf = "2026-06-20"

    init(households: Int = 60, property: String = "elm", latePayers: Bool = false) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("forecast-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        store = try UnifiedStore(dataDirectory: DataDirectory(root: directory.path))
        try Self.write(store.database, households: households, property: property, latePayers: latePayers)
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    static func write(_ database: Database, households: Int, property: String, latePayers: Bool = false) throws {
        try database.prepare("""
            INSERT INTO unified_properties (unified_property_id, name, pms_source, as_of_date, ledger_source)
            VALUES (:p, 'Elm', 'yardi', :as_of, 'test ledger')
            """).execute([":p": .text(property), ":as_of": .text(asOf)])
        let months = (0..<18).map { index in String(format: "%04d-%02d", 2025 + (index / 12), index % 12 + 1) }
        let charge = try database.prepare("""
            INSERT INTO unified_charges (unified_property_id, charge_id, resident_id, unit_number, charge_code, category,
                                         category_known, period, charge_date, due_date, amount, amount_paid, balance)
            VALUES (:p, :id, :r, :unit, 'RENT', 'RENT', 1, :period, :date, :date, 1000, 0, 0)
            """)
        let payment = try database.prepare("""
            INSERT INTO unified_payments (unified_property_id, payment_id, resident_id, payment_date, period, amount)
            VALUES (:p, :id, :r, :date, :period, :amount)
            """)
        let resident = try database.prepare("""
            INSERT INTO unified_residents (unified_property_id, resident_id, unit_number, name, status, move_in_date)
            VALUES (:p, :r, :unit, :name, 'current', '2024-12-15')
            """)
        for h in 0..<households {
            let id = "r\(h)", unit = String(100 + h)
            try resident.execute([":p": .text(property), ":r": .text(id), ":unit": .text(unit), ":name": .text("Household \(h)")])
            var owed = 0
            for (m, month) in months.enumerated() {
                try charge.execute([":p": .text(property), ":id": .text("\(id)-\(month)"), ":r": .text(id),
                                    ":unit": .text(unit), ":period": .text(month), ":date": .text(month + "-01")])
                owed += 1000
                if latePayers && h % 5 == 1 {
                    if m > 0 && month + "-05" <= asOf {
                        try payment.execute([":p": .text(property), ":id": .text("\(id)-\(month)-pay"), ":r": .text(id),
                                             ":date": .text(month + "-05"), ":period": .text(months[m - 1]), ":amount": .real(1000)])
                    }
                    continue
                }
                // Slippers skip two months starting at a month that depends on the household, every six months.
                let slipping = h % 5 == 0 && (m + h) % 6 < 2
                if !slipping && month + "-03" <= asOf {
                    try payment.execute([":p": .text(property), ":id": .text("\(id)-\(month)-pay"), ":r": .text(id),
                                         ":date": .text(month + "-03"), ":period": .text(month), ":amount": .real(Double(owed))])
                    owed = 0
                }
            }
        }
    }
}

@Suite struct ForecastStoreTests {
    @Test func aTrainedModelIsStoredWithItsWindowAndForecastsTheSlippers() throws {
        let ledger = try ForecastLedger()
        let database = ledger.store.database
        #expect(try ForecastStore.latest(database: database) == nil)
        let ledgers = [try PropertyLedgers.read(database: database, property: "elm")]
        let stored = try ForecastStore.train(ledgers, database: database)
        // The property's date is 2026-06-20: the last month end with a known next one is 2026-04-30 (-> 2026-05-31).
        #expect(stored.trainingFrom == "2025-01-31")
        #expect(stored.trainingTo == "2026-04-30")
        #expect(stored.outcomesTo == "2026-05-31")
        #expect(stored.behind > 0 && stored.behind < stored.householdMonths)

        let latest = try #require(try ForecastStore.latest(database: database))
        #expect(latest.modelID == stored.modelID)
        #expect(latest.features == Feature.allCases.map(\.name))
        #expect(latest.properties == ["elm"])

        // As of the property's date: described on 2026-05-31, predicting 2026-06-30.
        let forecast = try DelinquencyForecast.run(ledgers, stored: latest, asOf: nil)
        let property = try #require(forecast.properties.first)
        #expect(MonthEnd.iso(property.describedOn) == "2026-05-31")
        #expect(MonthEnd.iso(property.predicting) == "2026-06-30")
        #expect(property.households == 60)
        // Households who owe on May 31 rank above those who do not, and are likely behind; payers are not.
        let owing = forecast.households.filter { $0.balanceCents > 0 }
        let clear = forecast.households.filter { $0.balanceCents <= 0 }
        #expect(!owing.isEmpty && !clear.isEmpty)
        #expect(owing.map(\.probability).min() ?? 0 > clear.map(\.probability).max() ?? 1)
        #expect(clear.allSatisfy { $0.probability < 0.2 })
        // Expected dollars are probability × balance, and add up per property.
        for household in forecast.households {
            #expect(household.expectedOver30Cents == Int64((household.probability * Double(max(0, household.balanceCents))).rounded()))
            #expect(household.reasons.count == 3)
            #expect(abs(household.reasons[0].contribution) >= abs(household.reasons[2].contribution))
        }
        #expect(property.expectedOver30Cents == forecast.households.reduce(0) { $0 + $1.expectedOver30Cents })
        // The contributions are the model's own: all of them and the bias give the probability's log-odds.
        let examples = ledgers[0].current(on: property.describedOn)
        let contributions = try latest.model.contributions(examples)
        let probabilities = try latest.model.probabilities(examples)
        for (row, p) in zip(contributions, probabilities) {
            #expect(abs(Double(row.reduce(0, +)) - log(p / (1 - p))) < 1e-3)
        }
    }

    @Test func aPastDateIsScoredAndSaidToBeInSampleAFutureOneIsRefused() throws {
        let ledger = try ForecastLedger()
        let ledgers = [try PropertyLedgers.read(database: ledger.store.database, property: "elm")]
        let stored = try ForecastStore.train(ledgers, database: ledger.store.database)
        let past = try DelinquencyForecast.run(ledgers, stored: stored, asOf: LocalDate(iso: "2026-03-15"))
        #expect(MonthEnd.iso(try #require(past.properties.first).describedOn) == "2026-02-28")
        #expect(past.warnings.filter { $0.contains("saw outcomes up to 2026-05-31") }.count == 1)
        #expect(past.warnings.contains("model \(stored.modelID) was trained without a backtest (ownerdash forecast train --backtest): how far to trust it is unmeasured"))
        let error = #expect(throws: ForecastError.self) {
            _ = try DelinquencyForecast.run(ledgers, stored: stored, asOf: LocalDate(iso: "2026-07-01"))
        }
        #expect(error?.description == "property elm: --as-of 2026-07-01 is after its data (2026-06-20); nothing is known about that day yet")
    }

    @Test func aBacktestRunBeforeTrainingIsStoredWithTheModelAndJudgesIt() throws {
        let ledger = try ForecastLedger()
        let database = ledger.store.database
        let ledgers = [try PropertyLedgers.read(database: database, property: "elm")]
        let stored = try ForecastStore.train(ledgers, database: database, backtest: true)
        let verdict = try #require(stored.backtest)
        // The same verdict as the backtest command's on the same examples.
        let backtest = try Backtest.run(ledgers.flatMap { $0.examples() })
        #expect(backtest.verdict == verdict)
        #expect(verdict.months == backtest.months.count && verdict.months > 0)
        #expect(verdict.passes == (verdict.forecastAUC >= verdict.baselineAUC + Backtest.requiredAUCMargin))
        #expect(BacktestModel.naiveNames.contains(verdict.baseline))
        let latest = try #require(try ForecastStore.latest(database: database))
        #expect(latest.backtest == verdict)
        // The forecast says on stderr when users are not to see it.
        let forecast = try DelinquencyForecast.run(ledgers, stored: latest, asOf: nil)
        #expect(forecast.warnings.contains { $0.contains("backtest did not beat the best naive baseline") } == !verdict.passes)
        #expect(!forecast.warnings.contains { $0.contains("without a backtest") })
    }

    @Test func tooFewMonthsToTrainIsSaidAndNothingIsStored() throws {
        let ledger = try ForecastLedger()
        let database = ledger.store.database
        // Cut the property's data to 2025-04-20: two month ends with a known next one (Jan 31 and Feb 28).
        try database.execute("UPDATE unified_properties SET as_of_date = '2025-04-20'")
        let ledgers = [try PropertyLedgers.read(database: database, property: "elm")]
        let error = #expect(throws: ForecastError.self) { _ = try ForecastStore.train(ledgers, database: database) }
        #expect(error?.description.hasPrefix("too few months to train: 2 month ends with a known next month end in elm") == true)
        #expect(try ForecastStore.latest(database: database) == nil)
    }

    @Test func returnedPaymentsAndLateFeesAreReadFromTheirCodesInAnyCase() throws {
        let ledger = try ForecastLedger(households: 2)
        let database = ledger.store.database
        try database.execute("""
            INSERT INTO unified_charges (unified_property_id, charge_id, resident_id, charge_code, category, category_known,
                                         period, charge_date, amount, amount_paid, balance)
            VALUES ('elm', 'x1', 'r1', 'nsf', 'FEES', 1, '2026-03', '2026-03-09', 35, 0, 0),
                   ('elm', 'x2', 'r1', 'LateFee', 'FEES', 1, '2026-04', '2026-04-06', 50, 0, 0),
                   ('elm', 'x3', 'r1', 'RETCHK', 'FEES', 1, '2024-11', '2024-11-09', 35, 0, 0);
            INSERT INTO unified_payments (unified_property_id, payment_id, resident_id, payment_date, period, amount)
            VALUES ('elm', 'y1', 'r1', '2026-03-08', '2026-03', -1000);
            """)
        let households = try PropertyLedgers.read(database: database, property: "elm").households
        let r1 = try #require(households.first { $0.residentID == "r1" })
        let r0 = try #require(households.first { $0.residentID == "r0" })
        func value(_ feature: Feature, _ household: HouseholdLedger) -> Float {
            household.features(on: day("2026-05-31"))[Feature.allCases.firstIndex(of: feature)!]
        }
        // The NSF charge and the reversed payment of the last 365 days; RETCHK is not a returned-payment word and
        // is older than a year anyway.
        #expect(value(.returnedPayments12, r1) == 2)
        #expect(value(.lateFees12, r1) == 1)
        #expect(value(.returnedPayments12, r0) == 0 && value(.lateFees12, r0) == 0)
    }

    @Test func aPropertyWithoutALedgerIsNamed() throws {
        let ledger = try ForecastLedger()
        try ledger.store.database.execute("UPDATE unified_properties SET ledger_source = NULL")
        let error = #expect(throws: ForecastError.self) { _ = try PropertyLedgers.read(database: ledger.store.database, property: "elm") }
        #expect(error?.description.hasPrefix("property elm has no tenant ledger") == true)
    }
}
