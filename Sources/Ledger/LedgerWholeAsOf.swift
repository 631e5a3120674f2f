import Metrics
import SQLiteKit

/// A ledger merged night by night from dated windows (RPX getresidentledger, Yardi GetResidentTransactions) knows a
/// posting dated before every window since its last whole answer only from the next one: a credit entered today to a
/// charge four months back, which moves no balance, is in no window and trips no ledger check. The ledger reports
/// name, per property, the date of that last whole answer when windows have brought the ledger past it
/// (`unified_properties.ledger_whole_as_of`, written by the sync's `RealPageLedger.wholeAsOf` /
/// `YardiLedger.wholeAsOf`), so a reader knows which old months follow the vendor as of which day.
public struct LedgerWholeAsOf: Sendable, Equatable {
    /// The property date the ledger was synced for.
    public var asOf: String
    /// The as-of date of the property's last whole ledger answer.
    public var wholeAsOf: String

    public init(asOf: String, wholeAsOf: String) { self.asOf = asOf; self.wholeAsOf = wholeAsOf }

    /// The property's lag, nil when its latest ledger answer was whole (or its ledger is read whole every night).
    static func of(_ source: PartialLedger.Source) -> LedgerWholeAsOf? {
        source.wholeAsOf.map { LedgerWholeAsOf(asOf: source.asOf ?? "", wholeAsOf: $0) }
    }

    /// What a reader must know, in one sentence the table's title and the pages share.
    public static let consequence = "a posting entered since, dated before the nightly windows (an adjustment to an "
        + "old month), shows from the property's next whole ledger pull (weekly)"

    /// The `ledger_whole_as_of` table of a report: one row per property whose ledger windows have brought past its
    /// last whole answer; nil when there is none.
    static func table(_ lags: [String: LedgerWholeAsOf]) -> MetricTable? {
        guard !lags.isEmpty else { return nil }
        return MetricTable(
            name: "ledger_whole_as_of", title: "Ledgers brought forward by nightly windows since their last whole pull: \(consequence)",
            columns: [.init("property", .text), .init("as_of", .date), .init("whole_as_of", .date)],
            rows: lags.sorted { $0.key < $1.key }.map { [.text($0.key), .text($0.value.asOf), .text($0.value.wholeAsOf)] })
    }
}
