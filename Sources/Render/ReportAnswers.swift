import Forecast
import Foundation
import Ledger
import Metrics
import OwnerDashCore
import SQLiteKit

/// The ledger and operations reports as questions: each builds its report and the `MetricResult` (with the parameters
/// its JSON prints) once, for `ownerdash report ...` and for `ownerdash serve`, so both answer with the same JSON.
public enum ReportAnswers {
    private static func date(_ date: LocalDate?) -> MetricResult.Parameter.Value { date.map { .text($0.iso) } ?? .null }
    private static func amount(_ value: Double?) -> MetricResult.Parameter.Value {
        value.map { .text(String(format: "%.2f", $0)) } ?? .null
    }

    /// `report lease-status`; `detailed`: json and csv add billed, paid, balance and due date per month and kind.
    public static func leaseStatus(database: Database, properties: [String], start: String, months: Int, asOf: LocalDate?,
                                   includeInactive: Bool, detailed: Bool) throws -> (report: LeasePaymentStatusReport, result: MetricResult) {
        let report = try LeasePaymentStatusReport.run(database: database, properties: properties, start: start, months: months,
                                                      asOf: asOf, includeInactive: includeInactive)
        let result = report.result(detailed: detailed, parameters: [
            .init("properties", .list(properties)), .init("start", .text(start)), .init("months", .integer(months)),
            .init("as_of", date(asOf)), .init("include_inactive", .bool(includeInactive)),
        ])
        return (report, result)
    }

    /// `report debtors`. When the delinquency forecast is shown (`ForecastVisibility`), the people and units tables
    /// end with `risk_next_month_pct` (a person's: the highest of their units'); otherwise the answer is as it was
    /// before the forecast existed. `risk` is what the HTML page shows beside each unit.
    public static func debtors(database: Database, properties: [String], asOf: LocalDate?,
                               minDebt: Double?) throws -> (report: Debtors, result: MetricResult, risk: RiskNextMonth?) {
        let report = try Debtors.run(database: database, properties: properties, asOf: asOf, minDebt: minDebt)
        var result = report.result(parameters: [
            .init("properties", .list(properties)), .init("as_of", date(asOf)), .init("min_debt", amount(minDebt)),
        ])
        let listed = Dictionary(grouping: report.people.flatMap(\.units), by: \.property).mapValues { $0.map(\.residentID) }
        guard let risk = try RiskNextMonth.read(database: database, households: listed, asOf: asOf) else {
            return (report, result, nil)
        }
        func unitRisk(_ unit: Debtors.UnitDebt) -> Double? { risk.probability(property: unit.property, residentID: unit.residentID) }
        RiskColumn.append(to: &result, table: "rows", values: report.people.map { $0.units.compactMap(unitRisk).max() })
        RiskColumn.append(to: &result, table: "units", values: report.people.flatMap { $0.units.map(unitRisk) })
        result.warnings += RiskColumn.warnings(risk)
        return (report, result, risk)
    }

    /// `report rental-tracker`. When the delinquency forecast is shown (`ForecastVisibility`), the residents table ends
    /// with `risk_next_month_pct`; otherwise the answer is as it was before the forecast existed.
    public static func rentalTracker(database: Database, properties: [String], asOf: LocalDate?, minBalance: Double?,
                                     minMonthsBehind: Int, sort: RentalTracker.Sort) throws -> (tracker: RentalTracker, result: MetricResult) {
        let tracker = try RentalTracker.run(database: database, properties: properties, asOf: asOf, minBalance: minBalance,
                                            minMonthsBehind: minMonthsBehind, sort: sort)
        var result = tracker.result(parameters: [
            .init("properties", .list(properties)), .init("as_of", date(asOf)), .init("min_balance", amount(minBalance)),
            .init("min_months_behind", .integer(minMonthsBehind)), .init("sort", .text(sort.rawValue)),
        ])
        let listed = Dictionary(grouping: tracker.residents, by: \.property).mapValues { $0.map(\.residentID) }
        if let risk = try RiskNextMonth.read(database: database, households: listed, asOf: asOf) {
            RiskColumn.append(to: &result, table: "rows", values: tracker.residents.map {
                risk.probability(property: $0.property, residentID: $0.residentID)
            })
            result.warnings += RiskColumn.warnings(risk)
        }
        return (tracker, result)
    }

    /// Why a resident has no statement.
    public enum StatementRefusal: Error, Sendable, Equatable {
        /// No household with that resident id in the properties.
        case noResident
        /// The id is in several properties (named); ask again with one.
        case ambiguous([String])
        /// The property's ledger holds balances only (no postings to list).
        case partialLedger(String)
        /// The property has no tenant ledger.
        case noLedger(String)
    }

    /// `report statement`: the one household with `residentID` in `properties`, its postings and running balance.
    public static func statement(database: Database, residentID: String, properties: [String], from: String?,
                                 asOf: LocalDate?) throws -> Result<(household: ResidentStatement.Household, result: MetricResult), StatementRefusal> {
        let found = try ResidentStatement.households(database: database, residentID: residentID, properties: properties)
        guard let household = found.first else { return .failure(.noResident) }
        guard found.count == 1 else { return .failure(.ambiguous(found.map(\.property))) }
        // 0: no ledger, 1: a full one, 2: a partial one (balances, no posting to list).
        let ledger = try database.scalar("""
            SELECT CASE WHEN ledger_source IS NULL THEN 0 WHEN ledger_coverage = 'partial' THEN 2 ELSE 1 END
            FROM unified_properties WHERE unified_property_id = :p
            """, [":p": .text(household.property)])?.integerValue
        switch ledger {
        case 1: break
        case 2: return .failure(.partialLedger(household.property))
        default: return .failure(.noLedger(household.property))
        }
        let statement = try ResidentStatement.run(database: database, household: household, asOf: asOf, from: from)
        let result = statement.result(parameters: [
            .init("property", .text(household.property)), .init("resident", .text(residentID)),
            .init("from", from.map { .text($0) } ?? .null), .init("as_of", .text(statement.asOf)),
        ])
        return .success((household, result))
    }

    /// `report tenant-history`; nil when the property has no such unit.
    public static func tenantHistory(database: Database, property: String, unit: String) throws -> MetricResult? {
        guard let history = try TenantHistory.run(database: database, property: property, unit: unit) else { return nil }
        return history.result(parameters: [.init("property", .text(property)), .init("unit", .text(unit))])
    }

    /// `report maintenance`.
    public static func maintenance(database: Database, properties: [String], asOf: LocalDate?, months: Int,
                                   olderThanDays: Int) throws -> MetricResult {
        let report = try MaintenanceReport.run(database: database, properties: properties, asOf: asOf, months: months,
                                               olderThanDays: olderThanDays)
        return report.result(parameters: [
            .init("properties", .list(properties)), .init("as_of", date(asOf)),
            .init("months", .integer(months)), .init("older_than_days", .integer(olderThanDays)),
        ])
    }

    /// `report expenses`; `months` nil: every month synced (`--months all`).
    public static func expenses(database: Database, properties: [String], start: String?, months: Int?) throws -> MetricResult {
        let report = try ExpenseReport.run(database: database, properties: properties, start: start, months: months)
        return report.result(parameters: [
            .init("properties", .list(properties)), .init("start", .text(report.months.first ?? "")),
            .init("months", .integer(report.months.count)),
        ])
    }

    /// `audit show`: a recorded run (nil: the latest). Throws `AuditError` for an unknown run.
    public static func audit(database: Database, runID: Int64?, exceptionsOnly: Bool) throws -> (report: AuditReport, result: MetricResult) {
        let report = try AuditReport.load(database: database, runID: runID)
        let result = report.result(exceptionsOnly: exceptionsOnly, parameters: [
            .init("run", .integer(Int(report.runID))), .init("as_of", .text(report.asOf)),
            .init("first_month", .text(report.firstMonth)), .init("last_month", .text(report.lastMonth)),
            .init("exceptions_only", .bool(exceptionsOnly)),
        ])
        return (report, result)
    }
}

/// The "risk next month" column (`RiskNextMonth`): appended last to a table, one value per row, empty in its total row.
public enum RiskColumn {
    /// The column: a percent (0 to 100) like the forecast's `probability_pct`.
    public static let column = MetricResult.Column("risk_next_month_pct", .percent)

    /// A probability as the column holds it (percent, two decimals); null without one.
    public static func value(_ probability: Double?) -> SQLValue {
        probability.map { .real(($0 * 10_000).rounded() / 100) } ?? .null
    }

    /// Appends the column to the table named `table` of `result`; `values` holds one probability per row, in order.
    static func append(to result: inout MetricResult, table: String, values: [Double?]) {
        guard let index = result.tables.firstIndex(where: { $0.name == table }) else { return }
        let old = result.tables[index]
        precondition(values.count == old.rows.count, "one risk per row of \(table)")
        result.tables[index] = MetricTable(
            name: old.name, title: old.title, columns: old.columns + [column],
            rows: zip(old.rows, values).map { $0 + [value($1)] }, total: old.total.map { $0 + [.null] })
    }

    /// One line per property asked for that could not be scored, so an empty risk is not read as a low one.
    static func warnings(_ risk: RiskNextMonth) -> [String] {
        risk.unscored.map { "risk_next_month_pct: no forecast for \($0.property) (\($0.reason))" }
    }
}
