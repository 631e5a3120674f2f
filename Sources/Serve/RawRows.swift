import Metrics
import SQLiteKit

/// `units/raw` and `residents/raw`: a property's rows of unified_units or unified_residents as they are, every column
/// (the seed system's raw endpoints), in the JSON format of the reports.
enum RawRows {
    /// The two tables these endpoints read; the name is never taken from the request.
    enum Table: String {
        case units = "unified_units"
        case residents = "unified_residents"

        var order: String { self == .units ? "unit_number" : "resident_id" }
    }

    static func result(_ database: Database, table: Table, property: String) throws -> MetricResult {
        let statement = try database.prepare("SELECT * FROM \(table.rawValue) WHERE unified_property_id = :property ORDER BY \(table.order)")
        var columns: [MetricResult.Column] = []
        var rows: [[SQLValue]] = []
        try statement.forEachRow([":property": .text(property)]) { row in
            rows.append(row.currentRow())
        }
        // Kinds by the column's values: integers are counts, reals plain numbers, the rest text.
        for index in 0..<statement.columnCount {
            let values = rows.map { $0[index] }
            let kind: MetricResult.Kind
            if values.contains(where: { if case .real = $0 { true } else { false } }) {
                kind = .decimal(2)
            } else if !values.isEmpty, values.allSatisfy({ if case .integer = $0 { true } else if case .null = $0 { true } else { false } }),
                      values.contains(where: { if case .integer = $0 { true } else { false } }) {
                kind = .count
            } else {
                kind = .text
            }
            columns.append(.init(statement.columnName(index), kind))
        }
        return MetricResult(metric: "\(table == .units ? "units" : "residents")_raw",
                            parameters: [.init("property", .text(property))],
                            tables: [MetricTable(name: "rows", title: "\(table.rawValue) of \(property)", columns: columns, rows: rows)])
    }
}

/// `/api/v2/audit/runs`: the recorded lease-charge audit runs, newest first, with their totals.
enum AuditRunList {
    static let columns: [MetricResult.Column] = [
        .init("run", .count), .init("started_at", .text), .init("as_of", .date), .init("first_month", .month),
        .init("last_month", .month), .init("leases", .count), .init("lines", .count), .init("matched", .count),
        .init("missing", .count), .init("unexpected", .count), .init("undercharge", .count), .init("overcharge", .count),
        .init("undercharge_total", .money), .init("overcharge_total", .money),
    ]

    static func result(_ database: Database) throws -> MetricResult {
        let names = ["run_id", "started_at", "as_of_date", "first_month", "last_month", "leases", "lines", "matched",
                     "missing", "unexpected", "undercharge", "overcharge", "undercharge_total", "overcharge_total"]
        let rows = try database.namedRows("SELECT \(names.joined(separator: ", ")) FROM audit_runs ORDER BY run_id DESC")
            .map { row in names.map { row[$0] ?? .null } }
        return MetricResult(metric: "audit_runs", parameters: [],
                            tables: [MetricTable(name: "rows", title: "Lease-charge audit runs", columns: columns, rows: rows)])
    }
}
