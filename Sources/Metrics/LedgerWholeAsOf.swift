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
    /// `YardiDelinquency`), at the property's latest night (`unified_properties.as_of_date`, the night
    /// `ledger_whole_as_of` describes). A posting dated back before the windows (a credit to an old rent) moves such a
    /// property's balances only at its next whole pull; RealPage's delinquency is the Delinquent and Prepaid report,
    /// whole every night, whose disagreement with the ledger pulls the ledger whole the next night.
    public static func delinquencyLags(database: Database, shown: [(property: String, asOf: LocalDate?)]) throws
        -> [String: LedgerWholeAsOf] {
        guard !shown.isEmpty else { return [:] }
        let lagging = try database.rows("""
            SELECT unified_property_id AS property, as_of_date, ledger_whole_as_of FROM unified_properties
            WHERE pms_source = 'yardi' AND ledger_whole_as_of IS NOT NULL
            """) { row -> (String, String, String)? in
            guard let property = row.text("property"), let asOf = row.text("as_of_date"),
                  let whole = row.text("ledger_whole_as_of") else { return nil }
            return (property, asOf, whole)
        }.compactMap { $0 }
        let asked = Dictionary(shown.map { ($0.property, $0.asOf?.iso) }, uniquingKeysWith: { first, _ in first })
        var lags: [String: LedgerWholeAsOf] = [:]
        for (property, asOf, whole) in lagging where asked[property] == .some(asOf) {
            lags[property] = LedgerWholeAsOf(asOf: asOf, wholeAsOf: whole)
        }
        return lags
    }
}
