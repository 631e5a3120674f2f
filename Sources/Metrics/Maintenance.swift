import OwnerDashCore
import SQLiteKit

/// `ownerdash report maintenance`: work orders per property as of a date (unified_work_orders, read-only).
///
/// Definitions, per property, on the as-of date D (each property's synced date unless `--as-of`):
/// - open = opened on or before D (or with no open date) and not completed by D;
/// - closed = completed on or before D; closed in the window = completed in the `months` months ending at D
///   (after D − months, up to D);
/// - days to complete = completed − opened, in days; median and average over the work orders closed in the window;
/// - aged open = open work orders opened more than `olderThanDays` days before D (days open = D − opened).
/// A property whose sync found no work-order source is listed in `no_work_order_source`, never shown as zeros.
///
/// Make-ready turns per month (`make_ready`, RealPage), over the months of the window: turns closed = closed `Make
/// Ready` work orders completed that month, with their average days to complete, the work orders done on them
/// (unified_work_order_lines), their labor hours and amount charged; beside them OneSite's own Make Ready Analysis
/// of the month (unified_make_ready_periods): units made ready, hours and cost. A figure without a source is null.
public struct MaintenanceReport: Sendable {
    /// One property's (or one category's) counts.
    public struct Counts: Sendable, Equatable {
        public var property: String
        public var category: String?
        public var open = 0
        public var closed = 0
        public var closedInWindow = 0
        public var agedOpen = 0
        /// Days to complete of the work orders closed in the window.
        public var days: [Int] = []
        /// Work orders closed in the window whose days to complete are unknown (no open date synced): left out of
        /// the median and the average, and said so in a warning.
        public var closedWithoutDays = 0

        public var medianDays: Double? {
            guard !days.isEmpty else { return nil }
            let sorted = days.sorted()
            let middle = sorted.count / 2
            return sorted.count % 2 == 1 ? Double(sorted[middle]) : Double(sorted[middle - 1] + sorted[middle]) / 2
        }

        public var averageDays: Double? {
            days.isEmpty ? nil : Double(days.reduce(0, +)) / Double(days.count)
        }

        mutating func add(_ other: Counts) {
            open += other.open; closed += other.closed; closedInWindow += other.closedInWindow
            agedOpen += other.agedOpen; days += other.days; closedWithoutDays += other.closedWithoutDays
        }
    }

    /// An open work order older than the threshold.
    public struct AgedOrder: Sendable, Equatable {
        public var property: String
        public var workOrderID: String
        public var unit: String?
        public var category: String
        public var description: String?
        public var openedDate: String?
        public var daysOpen: Int?
        public var dueDate: String?
        public var pmsStatus: String?
    }

    public var properties: [Counts] = []
    public var categories: [Counts] = []
    public var aged: [AgedOrder] = []
    public var noSource: [String] = []
    /// Per property and month: the make-ready row of the `make_ready` table (values in its column order).
    public var makeReady: [(property: String, values: [SQLValue])] = []
    public var asOf: [String: String] = [:]
    public var months: Int
    public var olderThanDays: Int

    public static func run(database: Database, properties: [String], asOf: LocalDate?, months: Int,
                           olderThanDays: Int) throws -> MaintenanceReport {
        var report = MaintenanceReport(months: months, olderThanDays: olderThanDays)
        var known: [String: (source: String?, asOf: String?)] = [:]
        try database.prepare("SELECT unified_property_id, work_order_source, as_of_date FROM unified_properties").forEachRow { row in
            known[row.text("unified_property_id") ?? ""] = (row.text("work_order_source"), row.text("as_of_date"))
        }
        let orders = try database.prepare(Self.ordersSQL)
        // Every work order of the property is a row: the columns are looked up by name once, not per row.
        let column = (id: orders.columnIndex("work_order_id"), category: orders.columnIndex("category"),
                      unit: orders.columnIndex("unit_number"), description: orders.columnIndex("description"),
                      opened: orders.columnIndex("opened_date"), isOpen: orders.columnIndex("is_open"),
                      isClosed: orders.columnIndex("is_closed"), daysOpen: orders.columnIndex("days_open"),
                      inWindow: orders.columnIndex("in_window"), due: orders.columnIndex("due_date"),
                      pmsStatus: orders.columnIndex("pms_status"), daysToComplete: orders.columnIndex("days_to_complete"))
        for property in properties {
            guard let info = known[property] else { continue }
            guard info.source != nil, let date = asOf?.iso ?? info.asOf else { report.noSource.append(property); continue }
            report.asOf[property] = date
            var total = Counts(property: property)
            var byCategory: [String: Counts] = [:]
            try orders.forEachRow([":property": .text(property), ":as_of": .text(date),
                                   ":months": .text("-\(months) months")]) { row in
                let category = row.text(at: column.category) ?? ""
                var counts = Counts(property: property, category: category)
                let isOpen = row.int(at: column.isOpen) == 1
                let daysOpen = row.int(at: column.daysOpen)
                if isOpen {
                    counts.open = 1
                    if let daysOpen, daysOpen > olderThanDays {
                        counts.agedOpen = 1
                        report.aged.append(AgedOrder(
                            property: property, workOrderID: row.text(at: column.id) ?? "", unit: row.text(at: column.unit),
                            category: category, description: row.text(at: column.description),
                            openedDate: row.text(at: column.opened), daysOpen: daysOpen, dueDate: row.text(at: column.due),
                            pmsStatus: row.text(at: column.pmsStatus)))
                    }
                } else if row.int(at: column.isClosed) == 1 {
                    counts.closed = 1
                    if row.int(at: column.inWindow) == 1 {
                        counts.closedInWindow = 1
                        if let days = row.int(at: column.daysToComplete) { counts.days = [days] } else { counts.closedWithoutDays = 1 }
                    }
                }
                total.add(counts)
                byCategory[category, default: Counts(property: property, category: category)].add(counts)
            }
            report.properties.append(total)
            report.categories += byCategory.keys.sorted().compactMap { byCategory[$0] }
            for row in try database.query(Self.makeReadySQL, [":property": .text(property), ":as_of": .text(date),
                                                              ":months": .text("-\(months) months")]) {
                report.makeReady.append((property, row))
            }
        }
        report.aged.sort { ($0.property, -($0.daysOpen ?? 0), $0.workOrderID) < ($1.property, -($1.daysOpen ?? 0), $1.workOrderID) }
        return report
    }

    // Every work order of the property with its state on :as_of: open, closed, closed in the window, days open.
    static let ordersSQL = """
        SELECT work_order_id, category, unit_number, description, opened_date,
               coalesce(opened_date, '') <= :as_of AND (completed_date IS NULL OR completed_date > :as_of) AS is_open,
               completed_date <= :as_of AS is_closed,
               CAST(round(julianday(:as_of) - julianday(opened_date)) AS INTEGER) AS days_open,
               completed_date > date(:as_of, :months) AND completed_date <= :as_of AS in_window,
               due_date, pms_status, days_to_complete
        FROM unified_work_orders
        WHERE unified_property_id = :property
        ORDER BY work_order_id
        """
}

extension MaintenanceReport {
    // Per month of the window: closed make-ready turns (and their work-order lines), and the Make Ready Analysis.
    static let makeReadySQL = """
        WITH turn AS (
            SELECT work_order_id, substr(completed_date, 1, 7) AS month, days_to_complete
            FROM unified_work_orders
            WHERE unified_property_id = :property AND category = 'Make Ready' AND status = 'closed'
              AND completed_date > date(:as_of, :months) AND completed_date <= :as_of
        ),
        turns AS (SELECT month, count(*) AS turns, avg(days_to_complete) AS avg_days FROM turn GROUP BY month),
        lines AS (
            SELECT t.month, count(l.line_id) AS work_orders, sum(l.minutes_worked) AS minutes, sum(l.amount) AS amount
            FROM turn t JOIN unified_work_order_lines l
              ON l.unified_property_id = :property AND l.work_order_id = t.work_order_id
            GROUP BY t.month
        ),
        periods AS (
            SELECT month, units_made_ready, total_minutes, total_cost FROM unified_make_ready_periods
            WHERE unified_property_id = :property
              AND month > substr(date(:as_of, :months), 1, 7) AND month <= substr(:as_of, 1, 7)
        ),
        month (month) AS (SELECT month FROM turns UNION SELECT month FROM periods)
        SELECT m.month, t.turns, round(t.avg_days, 1), l.work_orders, round(l.minutes / 60.0, 1), round(l.amount, 2),
               p.units_made_ready, round(p.total_minutes / 60.0, 1), round(p.total_cost, 2)
        FROM month m LEFT JOIN turns t USING (month) LEFT JOIN lines l USING (month) LEFT JOIN periods p USING (month)
        ORDER BY m.month
        """

    /// The report for the table / JSON / CSV / HTML writers: per property, per category, the aged open work orders,
    /// and the properties without a work-order source.
    public func result(parameters: [MetricResult.Parameter]) -> MetricResult {
        func days(_ value: Double?) -> SQLValue { value.map { .real(($0 * 10).rounded() / 10) } ?? .null }
        var portfolio = Counts(property: "portfolio")
        for counts in properties { portfolio.add(counts) }
        let window = "closed_\(months)m"
        let summary = MetricTable(
            name: "rows", title: "Work orders (closed in the \(months) months to each property's date; open older than \(olderThanDays) days)",
            columns: [.init("property", .text), .init("as_of", .date), .init("open", .count),
                      .init("open_over_\(olderThanDays)d", .count), .init("closed", .count), .init(window, .count),
                      .init("median_days", .decimal(1)), .init("avg_days", .decimal(1))],
            rows: properties.map { c in
                [.text(c.property), SQLValue(asOf[c.property]), .integer(Int64(c.open)), .integer(Int64(c.agedOpen)),
                 .integer(Int64(c.closed)), .integer(Int64(c.closedInWindow)), days(c.medianDays), days(c.averageDays)]
            },
            total: properties.count > 1
                ? [.text("portfolio"), .null, .integer(Int64(portfolio.open)), .integer(Int64(portfolio.agedOpen)),
                   .integer(Int64(portfolio.closed)), .integer(Int64(portfolio.closedInWindow)),
                   days(portfolio.medianDays), days(portfolio.averageDays)]
                : nil)
        let byCategory = MetricTable(
            name: "by_category", title: "By category",
            columns: [.init("property", .text), .init("category", .text), .init("open", .count),
                      .init("open_over_\(olderThanDays)d", .count), .init("closed", .count), .init(window, .count),
                      .init("median_days", .decimal(1)), .init("avg_days", .decimal(1))],
            rows: categories.map { c in
                [.text(c.property), SQLValue(c.category), .integer(Int64(c.open)), .integer(Int64(c.agedOpen)),
                 .integer(Int64(c.closed)), .integer(Int64(c.closedInWindow)), days(c.medianDays), days(c.averageDays)]
            })
        let agedTable = MetricTable(
            name: "aged_open", title: "Open work orders older than \(olderThanDays) days",
            columns: [.init("property", .text), .init("work_order_id", .text), .init("unit", .text),
                      .init("category", .text), .init("description", .text), .init("opened", .date),
                      .init("days_open", .count), .init("due", .date), .init("pms_status", .text)],
            rows: aged.map { a in
                [.text(a.property), .text(a.workOrderID), SQLValue(a.unit), .text(a.category), SQLValue(a.description),
                 SQLValue(a.openedDate), a.daysOpen.map { .integer(Int64($0)) } ?? .null, SQLValue(a.dueDate),
                 SQLValue(a.pmsStatus)]
            })
        let makeReadyTable = MetricTable(
            name: "make_ready", title: "Make-ready turns per month (closed turns and OneSite's Make Ready Analysis)",
            columns: [.init("property", .text), .init("month", .month), .init("turns_closed", .count),
                      .init("avg_days", .decimal(1)), .init("work_orders", .count), .init("labor_hours", .decimal(1)),
                      .init("amount_charged", .money), .init("units_made_ready", .count),
                      .init("analysis_hours", .decimal(1)), .init("make_ready_cost", .money)],
            rows: makeReady.map { [.text($0.property)] + $0.values })
        let none = MetricTable(name: "no_work_order_source", title: "Properties without a work-order source (not shown as zeros)",
                               columns: [.init("property", .text)], rows: noSource.map { [.text($0)] })
        let warnings = noSource.map { "\($0): no work-order source synced for this property (left out, not shown as zeros)" }
            + properties.filter { $0.closedWithoutDays > 0 }.map { c in
                "\(c.property): \(c.closedWithoutDays) of the \(c.closedInWindow) work orders closed in the \(months) months "
                    + "have no open date synced, so no days to complete; "
                    + (c.days.isEmpty ? "median_days and avg_days are unknown, not 0"
                                      : "median_days and avg_days count the other \(c.days.count)")
            }
        return MetricResult(metric: "maintenance", parameters: parameters,
                            tables: [summary, byCategory, agedTable, makeReadyTable, none], warnings: warnings)
    }
}
