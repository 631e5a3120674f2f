import OwnerDashCore
import SQLiteKit

/// A ledger merged night by night from dated windows (RPX getresidentledger, Yardi GetResidentTransactions) knows a
/// posting dated before every window since its last whole answer only from the next one: a credit entered today to a
/// charge four months back is in no window. The answers read from such a ledger name, per property, the date of that
/// last whole answer when windows have brought the ledger past it (`unified_properties.ledger_whole_as_of`, written by
/// the sync's `RealPageLedger.wholeAsOf` / `YardiLedger.wholeAsOf`), so a reader knows which figures follow the vendor
/// as of which day: the ledger reports (Ledger's `LeasePaymentStatus`, `AuditReport`, `ResidentStatement`, `Debtors`,
/// `RentalTracker`) and, where the delinquency is the ledger's own (Yardi), `query delinquency` and `query summary`
/// (`Metrics.delinquencyLags`).
public struct LedgerWholeAsOf: Sendable, Equatable {
    /// The property date the ledger was synced for.
    public var asOf: String
    /// The as-of date of the property's last whole ledger answer.
    public var wholeAsOf: String

    public init(asOf: String, wholeAsOf: String) { self.asOf = asOf; self.wholeAsOf = wholeAsOf }

    /// What a reader must know, in one sentence the table's title and the pages share.
    public static let consequence = "a posting entered since, dated before the nightly windows (an adjustment to an "
        + "old month), shows from the property's next whole ledger pull (weekly)"

    /// The line a page or a workbook's heading says of `lags`: each property with the date of its last whole pull, and
    /// what follows; nil when there is none.
    public static func note(_ lags: [String: LedgerWholeAsOf]) -> String? {
        guard !lags.isEmpty else { return nil }
        let named = lags.sorted { $0.key < $1.key }.map { "\($0.key) (\($0.value.wholeAsOf))" }
        return "Ledgers last pulled whole on an earlier night: \(named.joined(separator: ", ")): " + consequence
    }

    /// The `ledger_whole_as_of` table of an answer: one row per property whose ledger windows have brought past its
    /// last whole answer; nil when there is none.
    public static func table(_ lags: [String: LedgerWholeAsOf]) -> MetricTable? {
        guard !lags.isEmpty else { return nil }
        return MetricTable(
            name: "ledger_whole_as_of", title: "Ledgers brought forward by nightly windows since their last whole pull: \(consequence)",
            columns: [.init("property", .text), .init("as_of", .date), .init("whole_as_of", .date)],
            rows: lags.sorted { $0.key < $1.key }.map { [.text($0.key), .text($0.value.asOf), .text($0.value.wholeAsOf)] })
    }
}

extension Metrics {
    /// The properties whose delinquency at the snapshot shown is summed from a ledger the nightly windows had brought
    /// past its last whole pull: Yardi's, whose delinquency is its tenant ledger's open charges and credit (Sync's
    /// `YardiDelinquency`). A posting dated back before the windows (a credit to an old rent) moves such a property's
    /// balances only at its next whole pull; RealPage's delinquency is the Delinquent and Prepaid report, whole every
    /// night, whose disagreement with the ledger pulls the ledger whole the next night.
    ///
    /// The lag of the night shown as its sync kept it with the night's totals
    /// (`unified_delinquency_metrics.ledger_whole_as_of`), so an earlier night (`--as-of`) is named as the latest is;
    /// a night synced before that column (unified migration 65) is named only when it is the property's latest
    /// (`unified_properties.ledger_whole_as_of`, the night it describes).
    public static func delinquencyLags(database: Database, shown: [(property: String, asOf: LocalDate?)]) throws
        -> [String: LedgerWholeAsOf] {
        // Each night shown as `property<TAB>date`: one bound list, each looked up by the totals' key.
        let asked = shown.compactMap { shown in shown.asOf.map { shown.property + "\t" + $0.iso } }
        guard !asked.isEmpty else { return [:] }
        let rows = try database.rows("""
            SELECT m.unified_property_id AS property, m.as_of_date,
                   coalesce(m.ledger_whole_as_of,
                            CASE WHEN p.as_of_date = m.as_of_date THEN p.ledger_whole_as_of END) AS whole_as_of
            FROM json_each(:shown) s
            JOIN unified_delinquency_metrics m
              ON m.unified_property_id = substr(s.value, 1, instr(s.value, char(9)) - 1)
             AND m.as_of_date = substr(s.value, instr(s.value, char(9)) + 1)
            JOIN unified_properties p ON p.unified_property_id = m.unified_property_id
            WHERE p.pms_source = 'yardi'
            """, [":shown": .jsonArray(asked)]) { row -> (String, LedgerWholeAsOf)? in
            guard let property = row.text("property"), let asOf = row.text("as_of_date"),
                  let whole = row.text("whole_as_of") else { return nil }
            return (property, LedgerWholeAsOf(asOf: asOf, wholeAsOf: whole))
        }
        return Dictionary(rows.compactMap { $0 }, uniquingKeysWith: { first, _ in first })
    }
}
