import SQLiteKit

/// The schema of yardi_raw.db (a public contract: docs/contracts.md, "Databases"), as forward-only migrations.
///
/// One table per SOAP operation, shaped like its payload (source field names in snake case).
/// Every row carries the same lineage as realpage_raw.db: property (registry key), as-of date, `lineage_id` (run,
/// artifact path and sha256 in `raw_lineage` from migration 8; `v_<table>` shows them), and `source_row`, the 1-based position of the record element in the
/// payload (`UnitInfo`, `Resident`, `Transactions`, `Charge`, `ILS_Unit`, `Event`). An operation's
/// (property, as-of date) snapshot holds the rows of exactly one artifact (`loaded_artifacts`).
/// Money is REAL dollars rounded to cents; dates `YYYY-MM-DD`; periods `YYYY-MM`; flags 0/1.
public enum YardiRawSchema {
    static let lineage = RealPageRawSchema.lineage

    static func naturalKey(_ table: String) -> String {
        "CREATE UNIQUE INDEX \(table)_snapshot_row ON \(table) (property_id, as_of_date, source_row);"
    }

    /// Applied in order by `YardiRawStore` on open.
    public static let migrations: [Migration] = [
        Migration(version: 1, name: "Yardi SOAP tables", sql: """
            CREATE TABLE loaded_artifacts (
                operation       TEXT NOT NULL,
                property_id     TEXT NOT NULL,
                as_of_date      TEXT NOT NULL,
                artifact        TEXT NOT NULL,
                artifact_sha256 TEXT NOT NULL,
                run_id          TEXT NOT NULL,
                row_count       INTEGER NOT NULL,
                loaded_at       TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
                PRIMARY KEY (operation, property_id, as_of_date)
            ) STRICT;

            CREATE TABLE yardi_properties (
                \(lineage)
                property_code       TEXT NOT NULL,
                marketing_name      TEXT,
                address_line1       TEXT,
                address_line2       TEXT,
                city                TEXT,
                state               TEXT,
                postal_code         TEXT,
                accounts_receivable TEXT,
                accounts_payable    TEXT
            ) STRICT;
            \(naturalKey("yardi_properties"))

            CREATE TABLE yardi_units (
                \(lineage)
                unit_code                     TEXT NOT NULL,
                unit_unique_id                TEXT,
                tenant_code                   TEXT,
                unit_type                     TEXT,
                bedrooms                      INTEGER,
                bathrooms                     REAL,
                min_sqft                      INTEGER,
                max_sqft                      INTEGER,
                market_rent                   REAL,
                economic_status               TEXT,
                economic_status_description   TEXT,
                floorplan_name                TEXT,
                building_name                 TEXT,
                date_available                TEXT,
                address_line1                 TEXT
            ) STRICT;
            \(naturalKey("yardi_units"))
            CREATE INDEX yardi_units_unit ON yardi_units (property_id, as_of_date, unit_code);

            CREATE TABLE yardi_residents (
                \(lineage)
                tenant_code      TEXT NOT NULL,
                status           TEXT,
                first_name       TEXT,
                last_name        TEXT,
                email            TEXT,
                phone            TEXT,
                unit_code        TEXT,
                rent             REAL,
                lease_from_date  TEXT,
                lease_to_date    TEXT,
                move_in_date     TEXT,
                move_out_date    TEXT,
                notice_date      TEXT,
                payment_accepted INTEGER,
                lease_id         TEXT,
                is_roommate      INTEGER,
                other_occupants  INTEGER NOT NULL
            ) STRICT;
            \(naturalKey("yardi_residents"))
            CREATE INDEX yardi_residents_tenant ON yardi_residents (property_id, as_of_date, tenant_code);

            CREATE TABLE yardi_lease_charges (
                \(lineage)
                tenant_code       TEXT,
                unit_code         TEXT,
                lease_id          TEXT,
                charge_code       TEXT NOT NULL,
                description       TEXT,
                gl_account        TEXT,
                amount            REAL NOT NULL,
                service_from_date TEXT,
                service_to_date   TEXT,
                comment           TEXT
            ) STRICT;
            \(naturalKey("yardi_lease_charges"))

            CREATE TABLE yardi_transactions (
                \(lineage)
                kind              TEXT NOT NULL CHECK (kind IN ('charge', 'payment')),
                payment_type      TEXT,
                transaction_id    TEXT,
                tenant_code       TEXT,
                unit_code         TEXT,
                lease_id          TEXT,
                charge_code       TEXT,
                description       TEXT,
                gl_account        TEXT,
                transaction_date  TEXT,
                service_from_date TEXT,
                post_month        TEXT,
                amount            REAL NOT NULL,
                amount_paid       REAL,
                balance_due       REAL,
                document_number   TEXT,
                reversal          INTEGER,
                comment           TEXT
            ) STRICT;
            \(naturalKey("yardi_transactions"))
            CREATE INDEX yardi_transactions_tenant ON yardi_transactions (property_id, as_of_date, tenant_code);

            CREATE TABLE yardi_available_units (
                \(lineage)
                unit_code                   TEXT NOT NULL,
                unit_unique_id              TEXT,
                unit_type                   TEXT,
                floorplan_name              TEXT,
                bedrooms                    INTEGER,
                bathrooms                   REAL,
                min_sqft                    INTEGER,
                max_sqft                    INTEGER,
                market_rent                 REAL,
                effective_rent              REAL,
                occupancy_status            TEXT,
                leased_status               TEXT,
                economic_status             TEXT,
                economic_status_description TEXT,
                vacate_date                 TEXT,
                made_ready_date             TEXT,
                vacancy_class               TEXT
            ) STRICT;
            \(naturalKey("yardi_available_units"))

            CREATE TABLE yardi_guest_activity (
                \(lineage)
                prospect_index     INTEGER NOT NULL,
                prospect_id        TEXT,
                tenant_code        TEXT,
                customer_type      TEXT,
                first_name         TEXT,
                last_name          TEXT,
                email              TEXT,
                desired_floorplan  TEXT,
                target_move_in     TEXT,
                event_id           TEXT,
                event_type         TEXT NOT NULL,
                event_at           TEXT NOT NULL,
                event_date         TEXT NOT NULL,
                agent_name         TEXT,
                first_contact      INTEGER,
                transaction_source TEXT,
                comments           TEXT
            ) STRICT;
            \(naturalKey("yardi_guest_activity"))
            """),
        // GetServiceRequest_Search (ItfServiceRequests): work orders. Timestamps `YYYY-MM-DDTHH:MM:SS` as printed;
        // status_history keeps every `StatusHistory/Status` as `Type@TimeStamp`, `; `-joined.
        Migration(version: 2, name: "Yardi service requests", sql: """
            CREATE TABLE yardi_service_requests (
                \(lineage)
                service_request_id TEXT NOT NULL,
                unit_code          TEXT,
                tenant_code        TEXT,
                category           TEXT,
                brief_description  TEXT,
                full_description   TEXT,
                current_status     TEXT,
                requested_at       TEXT,
                updated_at         TEXT,
                completed_at       TEXT,
                status_history     TEXT
            ) STRICT;
            \(naturalKey("yardi_service_requests"))
            """),
        // GetInvoiceRegister (ItfVendorInvoicing): accounts-payable invoice lines, one row per Detail with its invoice's
        // header ([I]: the response shape is inferred, see GetInvoiceRegister). post_month `YYYY-MM`; amount positive
        // = spent, a credit line negative. The expenses sync sums these per post month and GL account.
        Migration(version: 3, name: "Yardi invoice lines", sql: """
            CREATE TABLE yardi_invoice_lines (
                \(lineage)
                invoice_index    INTEGER NOT NULL,
                invoice_id       TEXT NOT NULL,
                invoice_number   TEXT,
                vendor_id        TEXT,
                vendor_name      TEXT,
                invoice_date     TEXT,
                post_month       TEXT NOT NULL,
                due_date         TEXT,
                detail_id        TEXT,
                gl_account       TEXT NOT NULL,
                gl_account_name  TEXT,
                amount           REAL NOT NULL,
                description      TEXT
            ) STRICT;
            \(naturalKey("yardi_invoice_lines"))
            """),
        // The ledger kept once per transaction (docs/operators.md, "The tenant ledger, incrementally"): GetResidentTransactions_Login and the windowed
        // calls of incremental nights are merged into one row per (property, kind, TransactionID) instead of a snapshot
        // per night; each property's latest snapshot is carried over. `as_of_date`/`run_id`/`artifact` name the answer
        // that last wrote the row, `first_run_id` the run that first saw it (NULL: written by hand), `source_row` its place
        // in that answer.
        // yardi_transaction_changes records each correction, reversal and removal with the old and new amounts and
        // the run that saw it; `found_by` 'full_refresh' marks a difference a scheduled full pull found.
        Migration(version: 4, name: "Yardi ledger merged by transaction", sql: """
            CREATE TABLE yardi_transactions_merged (
                \(lineage)
                kind              TEXT NOT NULL CHECK (kind IN ('charge', 'payment')),
                payment_type      TEXT,
                transaction_id    TEXT,
                tenant_code       TEXT,
                unit_code         TEXT,
                lease_id          TEXT,
                charge_code       TEXT,
                description       TEXT,
                gl_account        TEXT,
                transaction_date  TEXT,
                service_from_date TEXT,
                post_month        TEXT,
                amount            REAL NOT NULL,
                amount_paid       REAL,
                balance_due       REAL,
                document_number   TEXT,
                reversal          INTEGER,
                comment           TEXT,
                first_run_id      TEXT
            ) STRICT;
            CREATE UNIQUE INDEX yardi_transactions_merged_vendor_id
                ON yardi_transactions_merged (property_id, kind, transaction_id);
            INSERT OR IGNORE INTO yardi_transactions_merged (
                run_id, property_id, as_of_date, artifact, artifact_sha256, source_row, kind, payment_type, transaction_id,
                tenant_code, unit_code, lease_id, charge_code, description, gl_account, transaction_date, service_from_date,
                post_month, amount, amount_paid, balance_due, document_number, reversal, comment, first_run_id)
            SELECT run_id, property_id, as_of_date, artifact, artifact_sha256, source_row, kind, payment_type, transaction_id,
                   tenant_code, unit_code, lease_id, charge_code, description, gl_account, transaction_date, service_from_date,
                   post_month, amount, amount_paid, balance_due, document_number, reversal, comment, run_id
            FROM yardi_transactions t
            WHERE as_of_date = (SELECT max(as_of_date) FROM yardi_transactions l WHERE l.property_id = t.property_id)
            ORDER BY property_id, source_row;
            DROP TABLE yardi_transactions;
            ALTER TABLE yardi_transactions_merged RENAME TO yardi_transactions;
            CREATE INDEX yardi_transactions_tenant ON yardi_transactions (property_id, tenant_code);
            CREATE INDEX yardi_transactions_date ON yardi_transactions (property_id, transaction_date);

            CREATE TABLE yardi_transaction_changes (
                id             INTEGER PRIMARY KEY,
                property_id    TEXT NOT NULL,
                kind           TEXT NOT NULL,
                transaction_id TEXT NOT NULL,
                change         TEXT NOT NULL CHECK (change IN ('added', 'corrected', 'reversed', 'applied', 'removed')),
                found_by       TEXT NOT NULL CHECK (found_by IN ('window', 'full_refresh')),
                run_id         TEXT NOT NULL,
                as_of_date     TEXT NOT NULL,
                artifact       TEXT NOT NULL,
                old_amount     REAL,
                new_amount     REAL,
                old_balance    REAL,
                new_balance    REAL,
                detail         TEXT NOT NULL
            ) STRICT;
            CREATE INDEX yardi_transaction_changes_property ON yardi_transaction_changes (property_id, run_id);
            """),
        // Snapshots stored when they change, as realpage_raw.db's migration 35 (UnchangedSnapshots).
        Migration(version: 7, name: "unchanged snapshots", sql: """
            ALTER TABLE loaded_artifacts ADD COLUMN rows_sha256 TEXT;
            ALTER TABLE loaded_artifacts ADD COLUMN stored_as_of TEXT;
            ALTER TABLE loaded_artifacts ADD COLUMN unchanged_since_run TEXT;
            CREATE INDEX loaded_artifacts_stored ON loaded_artifacts (property_id, stored_as_of)
                WHERE stored_as_of IS NOT NULL;
            """),
        // Raw rows keyed by lineage, as realpage_raw.db's migration 42 (RawLineage).
        RawLineage.migration(version: 8),
        RawLineage.changeLogMigration(version: 9, table: "yardi_transaction_changes"),
        // As realpage_raw.db's migration 44.
        Migration(version: 10, name: "loaded artifacts by property", sql: """
            CREATE INDEX loaded_artifacts_property ON loaded_artifacts (property_id, as_of_date);
            """),
        // AvailableUnits_Login: the unit count the property declares (`Property/Information/UnitCount`), on each of
        // the answer's rows. Where GetUnitInformation lists no unit, a feed listing about as many units as it
        // declares is the unit list (YardiUnits); rows loaded before this migration have none.
        Migration(version: 11, name: "ILS declared unit count", sql: """
            ALTER TABLE yardi_available_units ADD COLUMN declared_unit_count INTEGER;
            """),
        // As realpage_raw.db's migration 47: the transactions by the load that last wrote them, for a sync by change.
        Migration(version: 12, name: "transactions by load", sql: """
            CREATE INDEX yardi_transactions_lineage ON yardi_transactions (property_id, lineage_id);
            """),
        // As realpage_raw.db's migration 49.
        LedgerRemovals.migration(version: 13, ledger: "yardi_transactions"),
        // The lease-charge lines without a LeaseID, which take their lease from the resident list: a sync asks whether
        // the property has any before it keeps its recurring charges (Sync/InputMarks.swift), and most have none, which
        // without this index it learned by reading every line of every monthly statement.
        Migration(version: 14, name: "lease charges without a lease id", sql: """
            CREATE INDEX yardi_lease_charges_without_lease ON yardi_lease_charges (property_id, as_of_date)
                WHERE lease_id IS NULL;
            """),
        // As realpage_raw.db's migration 52.
        RawStateTokens.migration(version: 15, keyColumn: "operation", ledgerAnswers: "GetResidentTransactions%"),
        // As realpage_raw.db's migration 57: each customer's record (`RT_Customer`) of the last whole
        // GetResidentTransactions_Login answer that decoded it (LedgerHouseholds): its digest, that answer's lineage and
        // how many transactions it held. The next weekly pull decodes only the customers whose record differs or whose
        // merged rows changed since; the others are as stored.
        Migration(version: 16, name: "ledger customer records", sql: """
            CREATE TABLE yardi_ledger_records (
                property_id   TEXT NOT NULL,
                tenant_code   TEXT NOT NULL,
                record_sha256 TEXT NOT NULL,
                lineage_id    INTEGER NOT NULL,
                transactions  INTEGER NOT NULL,
                PRIMARY KEY (property_id, tenant_code)
            ) STRICT, WITHOUT ROWID;
            """),
        // The charges still open, with what a sync ages them by: each night ages every household's open charges at
        // the property date (Sync's YardiHouseholds), and without this index it read the property's whole merged
        // ledger, which keeps every transaction since the first whole pull, to find the few open. `kind` is among the
        // columns although the condition fixes it: SQLite reads from the table a column the query names that the
        // index does not hold, its condition's included.
        Migration(version: 17, name: "open charges", sql: """
            CREATE INDEX yardi_transactions_open_charges
                ON yardi_transactions (property_id, tenant_code, transaction_date, service_from_date, balance_due, kind)
                WHERE kind = 'charge' AND balance_due > 0;
            """),
        // As realpage_raw.db's migration 60.
        LedgerRemovals.logMigration(version: 18, ledger: "yardi_transactions", kindColumn: "kind"),
        // The tenant index holds what the lease of a tenant's service period is found by (Sync's YardiLedger
        // `periodLeases`: the lease most of the tenant's charges of the period carry), so that each period reads its
        // tenant's charges from the index alone: that lookup ran for every period of every kept lease-charge statement
        // each night, reading each charge's row from the table (yp_juniper_flats after a year, 1,005 periods: 62 ms
        // against 25 ms from the index). Same name and leading columns, so every reader by tenant keeps it.
        Migration(version: 19, name: "tenant charges by lease", sql: """
            DROP INDEX yardi_transactions_tenant;
            CREATE INDEX yardi_transactions_tenant
                ON yardi_transactions (property_id, tenant_code, kind, lease_id, service_from_date, transaction_date);
            """),
    ]
}
