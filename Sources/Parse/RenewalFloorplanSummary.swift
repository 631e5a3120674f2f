import OwnerDashCore
import XLSXKit

/// The `Summary by Floorplan` sheet of Lease Expiration/Renewal Detail (Excel) (4156), held against the leases the
/// same workbook's `Lease Expiration Detail` sheet stored (realpage_renewal_detail, `RenewalDetailParser`).
///
/// Seen in the real file (docs/onesite-reports.md, "Lease expirations"): one row per floor plan and a `Total` row under
/// `Floor Plan | Total Possible | Renewed | Vacating | Unknown | Month to Month | Avg term renewed leases | Avg new rent |
/// Avg market rent`. Per floor plan, in the detail's terms: Renewed, Vacating, Unknown and Month to Month = its leases
/// of that decision (`MTM`); Total Possible = those four added, so a lease `Moved out` or `Transferring` (the household
/// moves to another unit: its lease is neither renewed nor given up) is no possible renewal, as OneSite prints it
/// (`RenewalDecision`); Avg new rent = the mean new rent of its
/// renewed leases (0.00 when none); Avg term renewed leases = their mean new term, cut to whole months (13.8 prints
/// 13); Avg market rent = the mean market rent of all its leases, moved-out ones included. The `Total` row adds the
/// counts and prints each average as the plain mean of the floor-plan rows (empty floor plans count as 0).
public struct RenewalFloorplanSummary: Sendable {
    /// One printed row.
    public struct Line: Sendable {
        public var floorplan: String
        public var row: Int
        public var possible: Int?, renewed: Int?, vacating: Int?, unknown: Int?, monthToMonth: Int?
        public var averageTerm: Double?
        public var averageNewRent: Money?, averageMarketRent: Money?
    }

    /// What the stored leases of one floor plan give for the same figures.
    public struct Tally: Sendable {
        public var possible = 0, renewed = 0, vacating = 0, unknown = 0, monthToMonth = 0
        /// Mean new term of the renewed leases, in months (nil when none was renewed).
        public var averageTerm: Double?
        public var averageNewRent: Money?, averageMarketRent: Money?

        public init(possible: Int, renewed: Int, vacating: Int, unknown: Int, monthToMonth: Int, averageTerm: Double?,
                    averageNewRent: Money?, averageMarketRent: Money?) {
            self.possible = possible; self.renewed = renewed; self.vacating = vacating; self.unknown = unknown
            self.monthToMonth = monthToMonth; self.averageTerm = averageTerm
            self.averageNewRent = averageNewRent; self.averageMarketRent = averageMarketRent
        }
    }

    public let lines: [Line]
    public let total: Line?

    static let headers = ["Floor Plan", "Total Possible", "Renewed", "Vacating", "Unknown", "Month to Month",
                          "Avg term renewed leases", "Avg new rent", "Avg market rent"]

    /// The summary on a sheet's rows; nil when the sheet is not one (no such header in its first rows).
    public static func printed(in rows: [SheetRow]) -> RenewalFloorplanSummary? {
        let keys = headers.map(HeaderText.key)
        for (index, row) in rows.prefix(10).enumerated() {
            let rowKeys = row.cells.map { $0.text.map(HeaderText.key) }
            let columns = keys.compactMap { key in rowKeys.firstIndex(of: key) }
            guard columns.count == keys.count else { continue }
            // By header, in `headers` order.
            func cell(_ row: SheetRow, _ header: Int) -> CellValue { row[columns[header]] }
            var lines: [Line] = []
            var total: Line?
            for row in rows[(index + 1)...] {
                guard let name = cell(row, 0).text?.trimmingWhitespace, !name.isEmpty else { continue }
                let line = Line(
                    floorplan: String(name), row: row.number,
                    possible: try? cell(row, 1).count(), renewed: try? cell(row, 2).count(),
                    vacating: try? cell(row, 3).count(), unknown: try? cell(row, 4).count(),
                    monthToMonth: try? cell(row, 5).count(), averageTerm: try? cell(row, 6).decimal(),
                    averageNewRent: try? cell(row, 7).money(), averageMarketRent: try? cell(row, 8).money())
                if HeaderText.key(name) == "total" { total = line } else { lines.append(line) }
            }
            return RenewalFloorplanSummary(lines: lines, total: total)
        }
        return nil
    }

    /// Every printed figure beside what the detail gives (`detail` by floor plan as the detail prints it); a floor
    /// plan the detail lacks is held against zero leases.
    public func reconcile(with detail: [String: Tally]) -> [PrintedTotal] {
        var checks: [PrintedTotal] = []
        func add(_ label: String, _ row: Int, _ measure: String, _ printed: Double?, _ computed: Double) {
            guard let printed else { return }
            checks.append(PrintedTotal(label: label, row: row, measure: measure, printed: printed, computed: computed))
        }
        func counts(_ line: Line, _ tally: Tally) {
            add(line.floorplan, line.row, "total possible", line.possible.map(Double.init), Double(tally.possible))
            add(line.floorplan, line.row, "renewed", line.renewed.map(Double.init), Double(tally.renewed))
            add(line.floorplan, line.row, "vacating", line.vacating.map(Double.init), Double(tally.vacating))
            add(line.floorplan, line.row, "unknown", line.unknown.map(Double.init), Double(tally.unknown))
            add(line.floorplan, line.row, "month to month", line.monthToMonth.map(Double.init), Double(tally.monthToMonth))
        }
        var sum = Tally(possible: 0, renewed: 0, vacating: 0, unknown: 0, monthToMonth: 0, averageTerm: nil,
                        averageNewRent: nil, averageMarketRent: nil)
        for line in lines {
            let tally = detail[line.floorplan] ?? Tally(possible: 0, renewed: 0, vacating: 0, unknown: 0, monthToMonth: 0,
                                                        averageTerm: nil, averageNewRent: nil, averageMarketRent: nil)
            counts(line, tally)
            add(line.floorplan, line.row, "avg term renewed leases", line.averageTerm,
                (tally.averageTerm ?? 0).rounded(.towardZero))
            add(line.floorplan, line.row, "avg new rent", line.averageNewRent?.figure, tally.averageNewRent?.figure ?? 0)
            add(line.floorplan, line.row, "avg market rent", line.averageMarketRent?.figure,
                tally.averageMarketRent?.figure ?? 0)
            sum.possible += tally.possible; sum.renewed += tally.renewed; sum.vacating += tally.vacating
            sum.unknown += tally.unknown; sum.monthToMonth += tally.monthToMonth
        }
        guard let total else { return checks }
        counts(total, sum)
        // The Total row's averages are the plain means of the printed floor-plan rows, compared to the cent. Added in
        // whole cents: a mean on half a cent rounds up as OneSite prints it, where a mean of Doubles can land a hair
        // below (2412.04 and 2083.77: 224790.4999... cents, a cent short of the printed 2247.91).
        func mean(_ values: [Double?]) -> Double {
            guard !values.isEmpty else { return 0 }
            let cents = values.reduce(0) { $0 + Int((($1 ?? 0) * 100).rounded()) }
            return (Double(cents) / Double(values.count)).rounded() / 100
        }
        add(total.floorplan, total.row, "avg term renewed leases", total.averageTerm.map { ($0 * 100).rounded() / 100 },
            mean(lines.map(\.averageTerm)))
        add(total.floorplan, total.row, "avg new rent", total.averageNewRent?.figure,
            mean(lines.map { $0.averageNewRent?.figure }))
        add(total.floorplan, total.row, "avg market rent", total.averageMarketRent?.figure,
            mean(lines.map { $0.averageMarketRent?.figure }))
        return checks
    }
}
