import OwnerDashCore
import SQLiteKit

/// The tenant ledger's fetch history of one property, read from etl_runs / etl_run_items: what the nightly ingest
/// needs to know where the next incremental window starts and when the next full pull is due.
public struct LedgerRuns: Sendable, Equatable {
    /// As-of date of the newest run that fetched and loaded the property's ledger (whole or in windows) without any
    /// of its ledger items failing.
    public var lastSuccess: LocalDate?
    /// As-of date of the newest such run that loaded the whole ledger.
    public var lastFull: LocalDate?
    /// The property's newest ledger check (sync_checks: `ledger_open_balance`, Yardi's `ledger_window_gaps`), when it
    /// failed and the check of the last full pull's night did not: the merged ledger has come to disagree with what the
    /// vendor reports whole since it was last pulled whole.
    public var openBalanceMiss: OpenBalanceMiss?
    /// The newest run that asked for the whole ledger and was refused it (a fetch item `skipped` with its reason: the
    /// license key not authorized for it, a contract without it), when no run has loaded it whole since: a property
    /// whose ledger is never granted is asked again each night, and the plan says why it still has none.
    public var refusal: Refusal?

    /// A whole-ledger call the vendor refused, as the run recorded it.
    public struct Refusal: Sendable, Equatable {
        public var asOf: LocalDate
        public var reason: String

        public init(asOf: LocalDate, reason: String) { self.asOf = asOf; self.reason = reason }
    }

    /// A failed ledger check: `ledger_open_balance`, the tenant ledger's open balance (`ledger`) against
    /// unified_delinquency's net balance (`delinquency`); or Yardi's `ledger_window_gaps`, the part of tonight's window
    /// gaps the last whole ledger had (`ledger`) against tonight's (`delinquency`: grown by a posting no window held).
    public struct OpenBalanceMiss: Sendable, Equatable {
        public var asOf: LocalDate
        /// The check that failed (`ledger_open_balance` unless named).
        public var check: String
        public var ledger: Double?
        public var delinquency: Double?
        /// Where the vendor answers for one household (`Artifacts.householdsPrefix`): the households whose ledger balance
        /// (unified_household_balances) is off their delinquency (unified_delinquency of the check's date), by
        /// ReshID, to be asked for whole. Empty when the ledger cannot be asked by household, when no household's
        /// figures tell where the difference is, or when households were asked for on the night of the check or
        /// since (they did not mend it, or the vendor refused them): then the whole ledger is pulled.
        public var households: [String]

        public init(asOf: LocalDate, check: String = LedgerRuns.openBalanceCheck, ledger: Double?, delinquency: Double?,
                    households: [String] = []) {
            self.asOf = asOf; self.check = check; self.ledger = ledger; self.delinquency = delinquency
            self.households = households
        }
    }

    public init(lastSuccess: LocalDate?, lastFull: LocalDate?, openBalanceMiss: OpenBalanceMiss? = nil,
                refusal: Refusal? = nil) {
        self.lastSuccess = lastSuccess; self.lastFull = lastFull; self.openBalanceMiss = openBalanceMiss
        self.refusal = refusal
    }

    /// The ledger artifacts of a property as the run items name them: the whole ledger's exact name, and the prefix
    /// every part of it starts with (a windowed call, the open items).
    public struct Artifacts: Sendable {
        public var whole: String
        public var partsPrefix: String
        /// The prefix of a household's whole ledger (RPX `getresidentledger.resh-<ReshID>.xml`); nil where the vendor
        /// has no such call (Yardi).
        public var householdsPrefix: String?

        public init(whole: String, partsPrefix: String, householdsPrefix: String? = nil) {
            self.whole = whole; self.partsPrefix = partsPrefix; self.householdsPrefix = householdsPrefix
        }

        /// Yardi: `yardi/<p>/GetResidentTransactions_Login.xml`, `yardi/<p>/GetResidentTransactions_By...`.
        public static func yardi(_ property: String) -> Artifacts {
            Artifacts(whole: "yardi/\(property)/GetResidentTransactions_Login.xml",
                      partsPrefix: "yardi/\(property)/GetResidentTransactions_By")
        }

        /// RPX: `realpage/<p>/getresidentledger.xml`, `realpage/<p>/getresidentledger.<window>.xml`, `.open.xml` and
        /// `.resh-<ReshID>.xml`.
        public static func rpx(_ property: String) -> Artifacts {
            Artifacts(whole: "realpage/\(property)/getresidentledger.xml", partsPrefix: "realpage/\(property)/getresidentledger.",
                      householdsPrefix: "realpage/\(property)/getresidentledger.resh-")
        }
    }

    /// Reads the history from unified.db (migrated). Runs without an as-of date (a bare sync) have no ledger.
    public static func read(_ database: Database, property: String, artifacts: Artifacts) throws -> LedgerRuns {
        let rows = try database.query(query, [
            ":property": .text(property), ":whole": .text(artifacts.whole),
            ":parts": .text(escapeLike(artifacts.partsPrefix) + "%"),
            ":parts_from": .text(artifacts.partsPrefix), ":parts_to": .text(artifacts.partsPrefix + "\u{10FFFF}"),
        ])
        let row = rows.first
        let lastFull = row?[1].textValue.flatMap { LocalDate(iso: $0) }
        var miss = try database.query(openBalanceQuery, [
            ":property": .text(property), ":last_full": lastFull.map { .text($0.iso) } ?? .null,
        ]).first.flatMap { check in
            check[0].textValue.flatMap { LocalDate(iso: $0) }.map {
                OpenBalanceMiss(asOf: $0, check: check[3].textValue ?? Self.openBalanceCheck, ledger: check[1].doubleValue,
                                delinquency: check[2].doubleValue)
            }
        }
        if let found = miss, found.check == Self.openBalanceCheck, let prefix = artifacts.householdsPrefix {
            // Households asked for on the night of the check or after it (fetched or not: a gateway refusing `reshid`
            // fails the night once) did not mend it: the whole ledger then.
            let asked = try database.scalar(householdsAskedQuery, [
                ":property": .text(property), ":from": .text(prefix), ":to": .text(prefix + "\u{10FFFF}"),
            ])?.textValue
            if asked.map({ $0 < found.asOf.iso }) ?? true {
                miss?.households = try database.query(householdsOffQuery, [
                    ":property": .text(property), ":as_of": .text(found.asOf.iso),
                ]).compactMap { $0[0].textValue }
            }
        }
        let refusal = try database.query(refusalQuery, [
            ":property": .text(property), ":whole": .text(artifacts.whole), ":last_full": lastFull.map { .text($0.iso) } ?? .null,
        ]).first.flatMap { item in
            item[0].textValue.flatMap { LocalDate(iso: $0) }.flatMap { date in item[1].textValue.map { Refusal(asOf: date, reason: $0) } }
        }
        return LedgerRuns(lastSuccess: row?[0].textValue.flatMap { LocalDate(iso: $0) }, lastFull: lastFull,
                          openBalanceMiss: miss, refusal: refusal)
    }

    /// The newest whole-ledger fetch the vendor refused (`skipped`, with the reason the fetch recorded), when it came
    /// after the last whole load (or there is none), through the index by property and artifact.
    static let refusalQuery = """
        SELECT r.as_of_date, i.error
        FROM etl_run_items i
        JOIN etl_runs r ON r.run_id = i.run_id
        WHERE i.property_id = :property AND i.artifact = :whole AND i.stage = 'fetch' AND i.status = 'skipped'
          AND i.error IS NOT NULL AND r.as_of_date IS NOT NULL AND (:last_full IS NULL OR r.as_of_date > :last_full)
        ORDER BY r.as_of_date DESC
        LIMIT 1
        """

    /// The sync check of the ledger's open balance against the vendor's delinquency.
    public static let openBalanceCheck = "ledger_open_balance"
    /// Yardi's, whose delinquency is its own ledger's: window gaps new or grown since the last whole ledger.
    public static let windowGapsCheck = "ledger_window_gaps"

    /// The newest ledger check of the property (`openBalanceCheck`, `windowGapsCheck`; any of its measures failed),
    /// when it failed and it did not fail on the night of the last full pull: a disagreement the whole ledger already
    /// met is not chased again (the weekly refresh takes it up), so a vendor whose two figures differ for good costs one
    /// extra pull, not one a night. The property's checks are read by its key's prefix, newest date first (the
    /// table's primary key).
    static let openBalanceQuery = """
        WITH latest AS (
            SELECT as_of_date, expected, actual, status, check_name FROM sync_checks
            WHERE unified_property_id = :property AND check_name IN ('\(openBalanceCheck)', '\(windowGapsCheck)')
            ORDER BY as_of_date DESC, status = 'failed' DESC
            LIMIT 1
        )
        SELECT as_of_date, expected, actual, check_name FROM latest
        WHERE status = 'failed'
          AND NOT EXISTS (SELECT 1 FROM sync_checks
                          WHERE unified_property_id = :property AND as_of_date = :last_full
                            AND check_name = latest.check_name AND status = 'failed')
        """

    /// The households of a failed `ledger_open_balance` check whose ledger balance (unified_household_balances, as
    /// the check's sync left it) is off their delinquency (unified_delinquency of the check's date) by a cent or
    /// more, either missing counting as zero: where the two sums part. Only ReshIDs (digits): a report row without
    /// one (`unit/row N`) names no household the vendor can be asked for.
    static let householdsOffQuery = """
        WITH ledger AS (
            SELECT resident_id, balance FROM unified_household_balances WHERE unified_property_id = :property
        ), report AS (
            SELECT resident_id, sum(current_balance) AS balance FROM unified_delinquency
            WHERE unified_property_id = :property AND as_of_date = :as_of
            GROUP BY resident_id
        ), off AS (
            SELECT l.resident_id, l.balance - coalesce(r.balance, 0) AS difference
            FROM ledger l LEFT JOIN report r ON r.resident_id = l.resident_id
            UNION ALL
            SELECT r.resident_id, r.balance FROM report r
            WHERE NOT EXISTS (SELECT 1 FROM ledger l WHERE l.resident_id = r.resident_id)
        )
        SELECT resident_id FROM off
        WHERE abs(difference) >= 0.005 AND resident_id <> '' AND resident_id NOT GLOB '*[^0-9]*'
        ORDER BY resident_id
        """

    /// The as-of date of the newest run that asked for a household's whole ledger of the property (any item, any
    /// status), through the index by property and artifact (`:from`..`:to`, the households' artifact prefix).
    static let householdsAskedQuery = """
        SELECT max(r.as_of_date) FROM etl_run_items i JOIN etl_runs r ON r.run_id = i.run_id
        WHERE i.property_id = :property AND i.artifact >= :from AND i.artifact < :to
        """

    static func escapeLike(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%")
            .replacingOccurrences(of: "_", with: "\\_")
    }

    /// Per run: its ledger items of the property; a run counts when none failed and at least one load went in
    /// (`skipped` = the same bytes were loaded before). A failed night is therefore never the last success. The
    /// items are found by property and artifact name (index `etl_run_items_property`, unified migration 52): the
    /// whole ledger's exact name, and the range `:parts_from`..`:parts_to` of its parts' prefix, which the index can
    /// seek and a LIKE alone cannot (the LIKE stays the rule; an RPX whole ledger also starts with the prefix).
    static let query = """
        WITH ledger_item AS (
            SELECT run_id, stage, status, artifact FROM etl_run_items
            WHERE property_id = :property AND artifact = :whole
            UNION ALL
            SELECT run_id, stage, status, artifact FROM etl_run_items
            WHERE property_id = :property AND artifact >= :parts_from AND artifact < :parts_to
              AND artifact LIKE :parts ESCAPE '\\' AND artifact <> :whole
        ), ledger_runs AS (
            SELECT r.run_id, r.as_of_date,
                   max(i.stage = 'load' AND i.status IN ('succeeded', 'skipped') AND i.artifact = :whole) AS whole
            FROM ledger_item i
            JOIN etl_runs r ON r.run_id = i.run_id
            WHERE r.as_of_date IS NOT NULL AND r.status IN ('succeeded', 'partial')
            GROUP BY r.run_id
            HAVING sum(i.status = 'failed') = 0
               AND sum(i.stage = 'load' AND i.status IN ('succeeded', 'skipped')) > 0
        )
        SELECT (SELECT max(as_of_date) FROM ledger_runs), (SELECT max(as_of_date) FROM ledger_runs WHERE whole)
        """
}
