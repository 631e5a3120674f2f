import Metrics

extension LedgerWholeAsOf {
    /// The property's lag, nil when its latest ledger answer was whole (or its ledger is read whole every night).
    static func of(_ source: PartialLedger.Source) -> LedgerWholeAsOf? {
        source.wholeAsOf.map { LedgerWholeAsOf(asOf: source.asOf ?? "", wholeAsOf: $0) }
    }
}
