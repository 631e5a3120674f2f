import SQLiteKit

/// Per property, a token that changes whenever its `loaded_artifacts` rows change (`raw_state_tokens`, kept by
/// triggers): what a sync reads of a property's raw state is named by those rows (each load that writes rows adds or
/// updates its row, retention deletes it with the rows), so the sync's fingerprint (Sync's
/// `Synchronizer.fingerprint`) digests the token instead of every row the property has kept, a read that grew with the
/// nights kept (3,000 rows a property after a year, 3 % of a late night's work, for every property every night).
///
/// The token is a fresh random number on each change, not a count: a database restored from a copy carries its own
/// token, never one a later change could reach again. One change leaves it as it was: a ledger answer that merged
/// without writing a row (`row_count` 0) while an answer of the same ledger that wrote is dated the same day or later,
/// which leaves the ledger as it was (the fingerprint passed such rows over before the token, by the same rule). The
/// same answer loaded again over its own date without a change writes no record at all (`LedgerLoad`), so it renews
/// nothing either.
public enum RawStateTokens {
    /// The token table and `loaded_artifacts`' triggers; `keyColumn` names the answer (`report_type`, `operation`),
    /// `ledgerAnswers` the LIKE pattern of a ledger's answers (`getresidentledger%`, `GetResidentTransactions%`).
    static func migration(version: Int, keyColumn: String, ledgerAnswers: String) -> Migration {
        // A ledger answer that wrote nothing, with an answer of the same ledger that wrote dated no earlier.
        let passedOver = """
            new.row_count = 0 AND new.\(keyColumn) LIKE '\(ledgerAnswers)' AND EXISTS (
                SELECT 1 FROM loaded_artifacts b
                WHERE b.property_id = new.property_id AND b.\(keyColumn) LIKE '\(ledgerAnswers)'
                  AND b.row_count > 0 AND b.as_of_date >= new.as_of_date)
            """
        func renew(_ row: String) -> String {
            """
            INSERT INTO raw_state_tokens (property_id, token) VALUES (\(row).property_id, random())
                ON CONFLICT (property_id) DO UPDATE SET token = random();
            """
        }
        return Migration(version: version, name: "raw state tokens", sql: """
            CREATE TABLE raw_state_tokens (
                property_id TEXT PRIMARY KEY,
                token       INTEGER NOT NULL
            ) STRICT, WITHOUT ROWID;
            CREATE TRIGGER loaded_artifacts_added AFTER INSERT ON loaded_artifacts
            WHEN NOT (\(passedOver))
            BEGIN
                \(renew("new"))
            END;
            -- An answer loaded again over the same row: passed over only when it wrote nothing before either.
            CREATE TRIGGER loaded_artifacts_changed AFTER UPDATE ON loaded_artifacts
            WHEN NOT (old.row_count = 0 AND old.property_id = new.property_id AND \(passedOver))
            BEGIN
                \(renew("new"))
                \(renew("old"))
            END;
            CREATE TRIGGER loaded_artifacts_removed AFTER DELETE ON loaded_artifacts
            BEGIN
                \(renew("old"))
            END;
            """)
    }
}
