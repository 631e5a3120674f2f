import Forecast
import Metrics
import OwnerDashCore
import Render
import SQLiteKit

/// The delinquency forecast in the API: a property's and the viewer's portfolio's, the JSON of
/// `ownerdash forecast delinquency --format json`. Only while the portfolio's latest model passed its backtest
/// (`ForecastVisibility`); otherwise a 404 whose detail says which: no model, one trained without a backtest, or one
/// whose backtest did not pass.
extension APIRoutes {
    private static let asOfMonthEnd = APIParameter.query(
        "as_of", .date, "Describe the households on the last month end on or before this date (default: each property's date).")

    /// The answer's schema: `forecast delinquency`'s parameters and its two tables.
    private static let forecastSchema = ResponseSchema.report(
        "forecast delinquency", "The answer of ownerdash forecast delinquency --format json.",
        parameters: [("properties", ResponseSchema.propertyList), ("as_of", ResponseSchema.nullable(ResponseSchema.date)),
                     ("model_id", ResponseSchema.integer), ("model_trained_at", ResponseSchema.text),
                     ("model_training_window", ResponseSchema.text), ("backtest_passes", ["type": ["boolean", "null"]])],
        tables: [
            .init(name: "rows", description: "One per household in residence on the month end, most likely behind first, with its three largest reasons (SHAP, log-odds).",
                  columns: ForecastAnswers.householdColumns),
            .init(name: "properties", description: "Each property's households and dollars expected behind, and the portfolio's (properties_total).",
                  columns: ForecastAnswers.propertyColumns, total: true),
        ])

    private static let forecastProblems = [
        (400, "as_of is after a property's data, or before its ledger."),
        (404, "No forecast is shown: no model trained, or the latest was trained without a backtest or did not pass it (the detail says which); or no property asked has a tenant ledger to score."),
    ]

    static let forecast: [APIRoute] = [
        APIRoute(.get, "/api/v2/properties/{property}/delinquency-forecast", operationID: "propertyDelinquencyForecast",
                 tag: "Forecast", summary: "Who is likely to be behind next month (forecast delinquency)",
                 description: "Each household's probability of owing more than 30 days at the next month end, its three largest "
                    + "reasons, and the dollars expected behind. Only while the portfolio's model passed its backtest (docs/forecast.md).",
                 parameters: [.path("property", "A property's key, as GET /api/v2/properties lists them."), asOfMonthEnd],
                 response: .init(name: "DelinquencyForecast", description: "The forecast.", schema: forecastSchema),
                 problems: forecastProblems,
                 answer: .read { call in
                     try forecastAnswer(call.database, properties: [call.path("property")], asked: true, asOf: try call.date("as_of"))
                 }),
        APIRoute(.get, "/api/v2/portfolio/delinquency-forecast", operationID: "portfolioDelinquencyForecast",
                 tag: "Forecast", summary: "Who is likely to be behind next month, in the viewer's portfolio",
                 description: "forecast delinquency over every property the user may see that has a tenant ledger (those "
                    + "without are named in warnings). Only while the portfolio's model passed its backtest (docs/forecast.md).",
                 parameters: [asOfMonthEnd],
                 response: .init(name: "PortfolioDelinquencyForecast", description: "The forecast.", schema: forecastSchema),
                 problems: forecastProblems,
                 answer: .read { call in
                     let visible = call.viewer.visible(try Metrics.properties(database: call.database).map(\.key))
                     guard !visible.isEmpty else { throw Problem.notFound("no synced property to forecast") }
                     return try forecastAnswer(call.database, properties: visible, asked: false, asOf: try call.date("as_of"))
                 }),
    ]

    /// The forecast of `properties` as JSON, or the 404 saying why there is none. `asked`: one property named in the
    /// path, which must be scorable; otherwise the unscorable are left out with a warning, as the CLI does.
    private static func forecastAnswer(_ database: Database, properties: [String], asked: Bool, asOf: LocalDate?) throws -> String {
        let stored: StoredForecast
        switch try ShownForecast.model(database: database) {
        case .success(let model): stored = model
        case .failure(let hidden): throw Problem.notFound("no delinquency forecast: \(hidden.detail)")
        }
        let (ledgers, leftOut) = try ShownForecast.ledgers(database: database, properties: properties)
        if asked, let first = leftOut.first { throw Problem.notFound("no delinquency forecast: \(first.reason)") }
        guard !ledgers.isEmpty else { throw Problem.notFound("no delinquency forecast: no property has a tenant ledger to score") }
        let forecast: DelinquencyForecast
        do {
            forecast = try DelinquencyForecast.run(ledgers, stored: stored, asOf: asOf)
        } catch let error as ForecastError {
            // A date after a property's data, or before its ledger: the parameter is at fault.
            throw Problem.badParameter("as_of", error.description.replacingOccurrences(of: "--as-of", with: "as_of"))
        }
        let result = ForecastAnswers.delinquency(forecast, stored: stored, properties: ledgers.map(\.property), asOf: asOf,
                                                 leftOut: leftOut)
        return MetricOutput.render(result, as: .json)
    }
}
