import Foundation
import SQLiteKit

/// The schema of unified.db (a public contract: docs/contracts.md, "Databases"), as forward-only migrations.
///
/// Conventions (the data dictionary in docs/data-dictionary.md says, per column, where it comes from):
/// - `unified_property_id` is the registry key of report_definitions.json (`nexus_east`).
/// - Money is REAL dollars rounded to cents, as in the raw databases; dates `YYYY-MM-DD`; months `YYYY-MM`;
///   flags are INTEGER 0/1; percentages are REAL 0-100 rounded to 2 decimals.
/// - Current-state tables (units, residents, leases, lease residents, activity, sync warnings) hold one
///   property's rows as of its last sync and are replaced per property inside the sync's transaction.
/// - Snapshot tables (occupancy, pricing, delinquency) are keyed by `as_of_date` and accumulate: a re-sync of
///   the same date replaces that date's rows, other dates stay (trends read them).
public enum UnifiedSchema {
    /// Applied in order by `UnifiedStore` on open.
    public static let migrations: [Migration] = coreMigrations + sqlToolMigrations

    /// A column a migration dropped from a table it kept, and that migration's version: PostgreSQL, which takes its
    /// tables from the migrated shape and only adds what it lacks, drops these when it moves past that version.
    public struct RetiredColumn: Sendable {
        public let version: Int
        public let table: String
        public let column: String
    }

    /// Every column dropped from a kept table, by the migration that dropped it.
    public static let retiredColumns = [
        RetiredColumn(version: 50, table: "unified_household_balances", column: "as_of_date"),
    ]

    static let coreMigrations: [Migration] = [
        Migration(version: 1, name: "unified core", sql: """
            CREATE TABLE unified_properties (
                unified_property_id TEXT PRIMARY KEY,
                name                TEXT NOT NULL,
                pms_source          TEXT NOT NULL CHECK (pms_source IN ('realpage', 'yardi')),
                pms_property_id     TEXT,
                address             TEXT,
                total_units         INTEGER,
                as_of_date          TEXT,
                last_synced_at      TEXT,
                last_run_id         TEXT
            ) STRICT;

            CREATE TABLE unified_units (
                unified_property_id TEXT    NOT NULL REFERENCES unified_properties ON DELETE CASCADE,
                unit_number         TEXT    NOT NULL,
                pms_unit_id         TEXT,
                building            TEXT,
                floor               TEXT,
                floorplan           TEXT,
                floorplan_name      TEXT,
                bedrooms            INTEGER,
                bathrooms           REAL,
                sqft                INTEGER,
                status              TEXT    NOT NULL CHECK (status IN ('occupied', 'occupied_notice',
                                        'occupied_notice_leased', 'vacant', 'vacant_leased', 'model', 'down')),
                pms_status          TEXT,
                -- The flags follow from `status` alone, here and nowhere else (RealPage Box Score meanings:
                -- leased = Net Leased = vacant leased + occupied without notice + on notice and pre-leased).
                is_occupied         INTEGER GENERATED ALWAYS AS
                                        (status IN ('occupied', 'occupied_notice', 'occupied_notice_leased')) VIRTUAL,
                is_leased           INTEGER GENERATED ALWAYS AS
                                        (status IN ('occupied', 'occupied_notice_leased', 'vacant_leased')) VIRTUAL,
                is_on_notice        INTEGER GENERATED ALWAYS AS
                                        (status IN ('occupied_notice', 'occupied_notice_leased')) VIRTUAL,
                is_model            INTEGER GENERATED ALWAYS AS (status = 'model') VIRTUAL,
                is_down             INTEGER GENERATED ALWAYS AS (status = 'down') VIRTUAL,
                -- Vacant units only (NULL while occupied): 1 made ready, 0 not ready.
                is_ready            INTEGER CHECK (is_ready IN (0, 1)),
                market_rent         REAL,
                actual_rent         REAL,
                resident_id         TEXT,
                lease_id            TEXT,
                notice_for_date     TEXT,
                available_date      TEXT,
                made_ready_date     TEXT,
                vacant_since        TEXT,
                PRIMARY KEY (unified_property_id, unit_number)
            ) STRICT;

            CREATE TABLE unified_residents (
                unified_property_id TEXT NOT NULL REFERENCES unified_properties ON DELETE CASCADE,
                resident_id         TEXT NOT NULL,
                unit_number         TEXT,
                lease_id            TEXT,
                name                TEXT,
                first_name          TEXT,
                last_name           TEXT,
                email               TEXT,
                phone               TEXT,
                status              TEXT NOT NULL CHECK (status IN ('current', 'notice', 'future', 'former', 'applicant')),
                pms_status          TEXT,
                move_in_date        TEXT,
                notice_date         TEXT,
                move_out_date       TEXT,
                current_rent        REAL,
                balance             REAL,
                PRIMARY KEY (unified_property_id, resident_id)
            ) STRICT;
            CREATE INDEX unified_residents_unit ON unified_residents (unified_property_id, unit_number);

            CREATE TABLE unified_leases (
                unified_property_id TEXT    NOT NULL REFERENCES unified_properties ON DELETE CASCADE,
                lease_id            TEXT    NOT NULL,
                unit_number         TEXT,
                resident_id         TEXT,
                start_date          TEXT,
                end_date            TEXT,
                signed_date         TEXT,
                move_in_date        TEXT,
                rent_amount         REAL,
                security_deposit    REAL,
                status              TEXT    NOT NULL CHECK (status IN ('current', 'future', 'past')),
                pms_status          TEXT,
                is_renewal          INTEGER NOT NULL CHECK (is_renewal IN (0, 1)),
                is_month_to_month   INTEGER NOT NULL DEFAULT 0 CHECK (is_month_to_month IN (0, 1)),
                prior_lease_id      TEXT,
                PRIMARY KEY (unified_property_id, lease_id)
            ) STRICT;
            CREATE INDEX unified_leases_unit ON unified_leases (unified_property_id, unit_number);

            CREATE TABLE unified_lease_residents (
                unified_property_id TEXT NOT NULL,
                lease_id            TEXT NOT NULL,
                resident_id         TEXT NOT NULL,
                role                TEXT NOT NULL CHECK (role IN ('head', 'co_resident', 'occupant', 'guarantor')),
                PRIMARY KEY (unified_property_id, lease_id, resident_id),
                FOREIGN KEY (unified_property_id, lease_id) REFERENCES unified_leases ON DELETE CASCADE
            ) STRICT;

            CREATE TABLE unified_activity (
                id                  INTEGER PRIMARY KEY,
                unified_property_id TEXT NOT NULL REFERENCES unified_properties ON DELETE CASCADE,
                event_date          TEXT NOT NULL,
                event_type          TEXT NOT NULL CHECK (event_type IN ('lead', 'tour', 'application', 'approval',
                                        'denial', 'cancellation', 'lease_signed', 'move_in', 'move_out', 'notice',
                                        'renewal', 'other')),
                pms_event_type      TEXT,
                unit_number         TEXT,
                party_name          TEXT,
                party_id            TEXT,
                source              TEXT,
                agent               TEXT
            ) STRICT;
            CREATE INDEX unified_activity_by_date ON unified_activity (unified_property_id, event_date, event_type);

            CREATE TABLE unified_occupancy_metrics (
                unified_property_id TEXT    NOT NULL REFERENCES unified_properties ON DELETE CASCADE,
                as_of_date          TEXT    NOT NULL,
                total_units         INTEGER NOT NULL,
                occupied_units      INTEGER NOT NULL,
                vacant_units        INTEGER NOT NULL,
                vacant_leased       INTEGER NOT NULL,
                vacant_not_leased   INTEGER NOT NULL,
                vacant_ready        INTEGER NOT NULL,
                vacant_not_ready    INTEGER NOT NULL,
                aged_vacant_90      INTEGER NOT NULL,
                aged_vacancy_cost   REAL    NOT NULL,
                on_notice           INTEGER NOT NULL,
                notice_leased       INTEGER NOT NULL,
                notice_not_leased   INTEGER NOT NULL,
                pre_leased          INTEGER NOT NULL,
                model_units         INTEGER NOT NULL,
                down_units          INTEGER NOT NULL,
                leased_units        INTEGER NOT NULL,
                physical_occupancy  REAL    NOT NULL,
                leased_pct          REAL    NOT NULL,
                exposure_now        INTEGER NOT NULL,
                exposure_30         INTEGER NOT NULL,
                exposure_60         INTEGER NOT NULL,
                exposure_now_pct    REAL    NOT NULL,
                exposure_30_pct     REAL    NOT NULL,
                exposure_60_pct     REAL    NOT NULL,
                source              TEXT    NOT NULL,
                run_id              TEXT,
                PRIMARY KEY (unified_property_id, as_of_date)
            ) STRICT;

            CREATE TABLE unified_pricing_metrics (
                unified_property_id TEXT    NOT NULL REFERENCES unified_properties ON DELETE CASCADE,
                as_of_date          TEXT    NOT NULL,
                floorplan           TEXT    NOT NULL,
                floorplan_name      TEXT,
                bedrooms            INTEGER,
                units               INTEGER NOT NULL,
                occupied_units      INTEGER NOT NULL,
                avg_sqft            REAL,
                in_place_rent       REAL,
                in_place_psf        REAL,
                asking_rent         REAL,
                asking_psf          REAL,
                loss_to_lease       REAL,
                run_id              TEXT,
                PRIMARY KEY (unified_property_id, as_of_date, floorplan)
            ) STRICT;

            CREATE TABLE unified_delinquency (
                unified_property_id TEXT NOT NULL REFERENCES unified_properties ON DELETE CASCADE,
                as_of_date          TEXT NOT NULL,
                resident_id         TEXT NOT NULL,
                unit_number         TEXT,
                name                TEXT,
                resident_status     TEXT,
                current_balance     REAL NOT NULL,
                balance_0_30        REAL NOT NULL,
                balance_31_60       REAL NOT NULL,
                balance_61_90       REAL NOT NULL,
                balance_over_90     REAL NOT NULL,
                prepaid             REAL NOT NULL,
                source              TEXT NOT NULL,
                run_id              TEXT,
                PRIMARY KEY (unified_property_id, as_of_date, resident_id)
            ) STRICT;

            -- Disagreements between two sources of the same fact, kept for analysts (and printed as warnings).
            CREATE TABLE unified_sync_warnings (
                unified_property_id TEXT NOT NULL REFERENCES unified_properties ON DELETE CASCADE,
                as_of_date          TEXT NOT NULL,
                check_name          TEXT NOT NULL,
                subject             TEXT NOT NULL DEFAULT '',
                expected            TEXT,
                actual              TEXT,
                message             TEXT NOT NULL,
                run_id              TEXT,
                PRIMARY KEY (unified_property_id, check_name, subject)
            ) STRICT;

            CREATE TABLE etl_runs (
                run_id              TEXT PRIMARY KEY,
                trigger             TEXT NOT NULL,
                command             TEXT,
                as_of_date          TEXT,
                started_at          TEXT NOT NULL,
                finished_at         TEXT,
                status              TEXT NOT NULL CHECK (status IN ('running', 'succeeded', 'partial', 'failed', 'abandoned')),
                pid                 INTEGER,
                host                TEXT,
                properties          INTEGER NOT NULL DEFAULT 0,
                artifacts_fetched   INTEGER NOT NULL DEFAULT 0,
                rows_loaded         INTEGER NOT NULL DEFAULT 0,
                properties_synced   INTEGER NOT NULL DEFAULT 0,
                failures            INTEGER NOT NULL DEFAULT 0,
                warnings            INTEGER NOT NULL DEFAULT 0
            ) STRICT;

            CREATE TABLE etl_run_items (
                id                  INTEGER PRIMARY KEY,
                run_id              TEXT    NOT NULL REFERENCES etl_runs ON DELETE CASCADE,
                property_id         TEXT,
                stage               TEXT    NOT NULL CHECK (stage IN ('fetch', 'load', 'sync')),
                artifact            TEXT,
                status              TEXT    NOT NULL CHECK (status IN ('succeeded', 'failed', 'skipped')),
                rows                INTEGER,
                duration_ms         INTEGER,
                error               TEXT
            ) STRICT;
            CREATE INDEX etl_run_items_run ON etl_run_items (run_id, stage, property_id);
            """),
        Migration(version: 2, name: "tenant ledger", sql: """
            -- Where a property's ledger comes from; NULL: it has none, and every ledger report says so for it.
            ALTER TABLE unified_properties ADD COLUMN ledger_source TEXT;

            -- Posted charges (current state, replaced per property): one row per PMS charge transaction.
            CREATE TABLE unified_charges (
                unified_property_id TEXT NOT NULL REFERENCES unified_properties ON DELETE CASCADE,
                charge_id           TEXT NOT NULL,
                resident_id         TEXT NOT NULL,
                lease_id            TEXT,
                unit_number         TEXT,
                charge_code         TEXT NOT NULL,
                description         TEXT,
                category            TEXT NOT NULL CHECK (category IN ('RENT', 'UTILITIES', 'FEES', 'OTHER')),
                category_known      INTEGER NOT NULL CHECK (category_known IN (0, 1)),
                period              TEXT NOT NULL,
                charge_date         TEXT,
                due_date            TEXT,
                amount              REAL NOT NULL,
                amount_paid         REAL NOT NULL,
                balance             REAL NOT NULL,
                PRIMARY KEY (unified_property_id, charge_id)
            ) STRICT;
            CREATE INDEX unified_charges_by_resident ON unified_charges (unified_property_id, resident_id, period);
            CREATE INDEX unified_charges_by_lease ON unified_charges (unified_property_id, lease_id, period);

            -- Payments received (current state): one row per PMS payment transaction.
            CREATE TABLE unified_payments (
                unified_property_id TEXT NOT NULL REFERENCES unified_properties ON DELETE CASCADE,
                payment_id          TEXT NOT NULL,
                resident_id         TEXT NOT NULL,
                lease_id            TEXT,
                unit_number         TEXT,
                payment_date        TEXT NOT NULL,
                period              TEXT NOT NULL,
                amount              REAL NOT NULL,
                reference           TEXT,
                payment_type        TEXT,
                PRIMARY KEY (unified_property_id, payment_id)
            ) STRICT;
            CREATE INDEX unified_payments_by_resident ON unified_payments (unified_property_id, resident_id, period);

            -- Each lease's recurring-charge schedule (current state): what should be billed every month.
            CREATE TABLE unified_recurring_charges (
                unified_property_id TEXT NOT NULL REFERENCES unified_properties ON DELETE CASCADE,
                lease_id            TEXT NOT NULL,
                resident_id         TEXT,
                unit_number         TEXT,
                charge_code         TEXT NOT NULL,
                description         TEXT,
                category            TEXT NOT NULL CHECK (category IN ('RENT', 'UTILITIES', 'FEES', 'OTHER')),
                category_known      INTEGER NOT NULL CHECK (category_known IN (0, 1)),
                amount              REAL NOT NULL,
                start_date          TEXT NOT NULL,
                end_date            TEXT,
                PRIMARY KEY (unified_property_id, lease_id, charge_code, start_date)
            ) STRICT;
            """),
        Migration(version: 3, name: "lease-charge audit", sql: """
            -- History, not current state: a re-sync deletes and re-inserts a property's leases and charges, so no
            -- audit table references a table the sync replaces (no ON DELETE CASCADE can reach them) and the sync
            -- never touches them. Runs are numbered, kept and never rewritten. Money is REAL dollars rounded to cents.

            -- One row per `ownerdash audit run`: its window, what it audited and the portfolio totals.
            CREATE TABLE audit_runs (
                run_id              INTEGER PRIMARY KEY AUTOINCREMENT,
                started_at          TEXT    NOT NULL,
                finished_at         TEXT,
                as_of_date          TEXT    NOT NULL,
                first_month         TEXT    NOT NULL,
                last_month          TEXT    NOT NULL,
                -- JSON array of the registry keys asked for (properties without a ledger included).
                properties          TEXT    NOT NULL,
                leases              INTEGER NOT NULL DEFAULT 0,
                lines               INTEGER NOT NULL DEFAULT 0,
                matched             INTEGER NOT NULL DEFAULT 0,
                missing             INTEGER NOT NULL DEFAULT 0,
                unexpected          INTEGER NOT NULL DEFAULT 0,
                undercharge         INTEGER NOT NULL DEFAULT 0,
                overcharge          INTEGER NOT NULL DEFAULT 0,
                undercharge_total   REAL    NOT NULL DEFAULT 0,
                overcharge_total    REAL    NOT NULL DEFAULT 0
            ) STRICT;

            -- Per run and property: the same totals. A property without a tenant ledger has has_ledger 0 and NULL
            -- counts (never zeros).
            CREATE TABLE audit_run_properties (
                run_id              INTEGER NOT NULL REFERENCES audit_runs ON DELETE CASCADE,
                unified_property_id TEXT    NOT NULL,
                has_ledger          INTEGER NOT NULL CHECK (has_ledger IN (0, 1)),
                -- The date charges are judged due on: the run's as-of, or the property's own date when earlier.
                as_of_date          TEXT,
                leases              INTEGER,
                lines               INTEGER,
                matched             INTEGER,
                missing             INTEGER,
                unexpected          INTEGER,
                undercharge         INTEGER,
                overcharge          INTEGER,
                undercharge_total   REAL,
                overcharge_total    REAL,
                PRIMARY KEY (run_id, unified_property_id)
            ) STRICT;

            -- Per run, lease and charge code: how many months were audited, matched and flagged. Matched months
            -- are counted here rather than stored one row each in audit_results: a portfolio run (500 properties x
            -- 24 months) has millions of them, and every run is kept.
            CREATE TABLE audit_lease_charges (
                run_id              INTEGER NOT NULL REFERENCES audit_runs ON DELETE CASCADE,
                unified_property_id TEXT    NOT NULL,
                lease_id            TEXT    NOT NULL,
                resident_id         TEXT,
                unit_number         TEXT,
                charge_code         TEXT    NOT NULL,
                months              INTEGER NOT NULL,
                matched             INTEGER NOT NULL,
                exceptions          INTEGER NOT NULL,
                expected_total      REAL    NOT NULL,
                posted_total        REAL    NOT NULL,
                PRIMARY KEY (run_id, unified_property_id, lease_id, charge_code)
            ) STRICT;

            -- Per run: every exception, one row per (property, lease, charge code, month); variance = posted - expected.
            CREATE TABLE audit_results (
                run_id              INTEGER NOT NULL REFERENCES audit_runs ON DELETE CASCADE,
                unified_property_id TEXT    NOT NULL,
                lease_id            TEXT    NOT NULL,
                resident_id         TEXT,
                unit_number         TEXT,
                charge_code         TEXT    NOT NULL,
                month               TEXT    NOT NULL,
                expected            REAL    NOT NULL,
                posted              REAL    NOT NULL,
                variance            REAL    NOT NULL,
                kind                TEXT    NOT NULL CHECK (kind IN ('missing', 'unexpected', 'undercharge', 'overcharge')),
                PRIMARY KEY (run_id, unified_property_id, lease_id, charge_code, month)
            ) STRICT;
            CREATE INDEX audit_results_by_key ON audit_results (unified_property_id, lease_id, charge_code, month);

            -- What operators did about an exception, keyed by (property, lease, charge code, month) so it carries
            -- across runs. Append-only: a resolution or a reopening is a new event, the latest event of a key wins.
            CREATE TABLE audit_resolutions (
                event_id            INTEGER PRIMARY KEY AUTOINCREMENT,
                unified_property_id TEXT    NOT NULL,
                lease_id            TEXT    NOT NULL,
                charge_code         TEXT    NOT NULL,
                month               TEXT    NOT NULL,
                event               TEXT    NOT NULL CHECK (event IN ('resolved', 'reopened')),
                fix                 TEXT,
                action              TEXT,
                by_name             TEXT    NOT NULL,
                at                  TEXT    NOT NULL,
                note                TEXT,
                -- The latest audit run when the event was recorded (the run the operator was looking at).
                run_id              INTEGER NOT NULL REFERENCES audit_runs,
                CHECK (event = 'reopened' OR (fix IS NOT NULL AND action IS NOT NULL))
            ) STRICT;
            CREATE INDEX audit_resolutions_by_key ON audit_resolutions (unified_property_id, lease_id, charge_code, month, event_id);
            """),
        Migration(version: 4, name: "maintenance and expenses", sql: """
            -- Where a property's work orders and expenses come from; NULL: it has none, and the maintenance and
            -- expenses reports name it ("no work-order source") instead of showing zeros.
            ALTER TABLE unified_properties ADD COLUMN work_order_source TEXT;
            ALTER TABLE unified_properties ADD COLUMN expense_source TEXT;

            -- Work orders (current state, replaced per property): RealPage make-readies, Yardi service requests.
            CREATE TABLE unified_work_orders (
                unified_property_id TEXT    NOT NULL REFERENCES unified_properties ON DELETE CASCADE,
                work_order_id       TEXT    NOT NULL,
                unit_number         TEXT,
                category            TEXT    NOT NULL,
                description         TEXT,
                status              TEXT    NOT NULL CHECK (status IN ('open', 'closed')),
                pms_status          TEXT,
                opened_date         TEXT,
                due_date            TEXT,
                completed_date      TEXT,
                -- completed_date − opened_date in days (closed work orders only).
                days_to_complete    INTEGER,
                source              TEXT    NOT NULL,
                PRIMARY KEY (unified_property_id, work_order_id),
                CHECK ((status = 'closed') = (completed_date IS NOT NULL))
            ) STRICT;
            CREATE INDEX unified_work_orders_by_status ON unified_work_orders (unified_property_id, status, completed_date);

            -- Operating expenses per month and GL account (current state): amount as the income statement counts it.
            CREATE TABLE unified_expenses (
                unified_property_id TEXT    NOT NULL REFERENCES unified_properties ON DELETE CASCADE,
                month               TEXT    NOT NULL,
                gl_account          TEXT    NOT NULL,
                account_name        TEXT,
                gl_category         TEXT    NOT NULL,
                category_known      INTEGER NOT NULL CHECK (category_known IN (0, 1)),
                amount              REAL    NOT NULL,
                source              TEXT    NOT NULL,
                PRIMARY KEY (unified_property_id, month, gl_account)
            ) STRICT;
            """),
        Migration(version: 5, name: "debtor notices", sql: """
            -- Which debtor notice (its content hash) went to whom, when and through which channel, so a nightly run
            -- sends only new or changed notices. A history, not current state: no foreign key to anything a sync
            -- replaces (no ON DELETE CASCADE from unified_properties or unified_residents), and sync never deletes
            -- from it.
            CREATE TABLE notices_sent (
                id                  INTEGER PRIMARY KEY,
                debtor_key          TEXT    NOT NULL,
                debtor_name         TEXT,
                email               TEXT,
                phone               TEXT,
                properties          TEXT    NOT NULL,
                resident_ids        TEXT    NOT NULL,
                total               REAL    NOT NULL,
                content_hash        TEXT    NOT NULL,
                channel             TEXT    NOT NULL CHECK (channel IN ('webhook')),
                destination         TEXT    NOT NULL,
                sent_at             TEXT    NOT NULL,
                http_status         INTEGER,
                attempts            INTEGER NOT NULL,
                run_id              TEXT,
                UNIQUE (debtor_key, content_hash, channel, destination)
            ) STRICT;
            CREATE INDEX notices_sent_by_time ON notices_sent (sent_at);
            """),
        Migration(version: 6, name: "audit: charges not audited, covering charges index", sql: """
            -- The audit reads every posted charge of a property in the window: with amount, code and resident in
            -- the index those reads stay in the index, in lease order, instead of one table lookup per charge (8x the
            -- CPU on a 100-property ledger). Same leading columns as before, so every lookup by lease still uses it.
            DROP INDEX unified_charges_by_lease;
            CREATE INDEX unified_charges_by_lease
                ON unified_charges (unified_property_id, lease_id, period, charge_code, amount, resident_id);

            -- Per run and property: (lease, charge code, month) lines posted on leases that have no schedule at all,
            -- so nothing to hold them against (RPX getscheduledcharges sends current leases only): not audited,
            -- counted here rather than passed over in silence. NULL for runs before this column and for properties
            -- without a ledger.
            ALTER TABLE audit_run_properties ADD COLUMN not_audited INTEGER;
            """),
        Migration(version: 7, name: "partial tenant ledger", sql: """
            -- How much of the tenant ledger a property has: 'full' (posted charges, payments and the recurring
            -- schedule) or 'partial' (balances and aging per household and transaction code, and the recurring
            -- schedule; no posted charge or payment). NULL when ledger_source is NULL (no ledger at all).
            ALTER TABLE unified_properties ADD COLUMN ledger_coverage TEXT CHECK (ledger_coverage IN ('full', 'partial'));
            -- What a partial ledger can and cannot answer, in words, for the analyst reading the row.
            ALTER TABLE unified_properties ADD COLUMN ledger_note TEXT;

            -- A partial ledger's balances (current state, replaced per property): what each household owes per
            -- transaction code, aged as the PMS ages it, as of as_of_date. Money is REAL dollars rounded to cents;
            -- balance = delinquent - prepaid (negative: in credit).
            CREATE TABLE unified_ledger_balances (
                unified_property_id TEXT NOT NULL REFERENCES unified_properties ON DELETE CASCADE,
                resident_id         TEXT NOT NULL,
                unit_number         TEXT,
                charge_code         TEXT NOT NULL,
                description         TEXT,
                category            TEXT NOT NULL CHECK (category IN ('RENT', 'UTILITIES', 'FEES', 'OTHER')),
                category_known      INTEGER NOT NULL CHECK (category_known IN (0, 1)),
                as_of_date          TEXT NOT NULL,
                balance             REAL NOT NULL,
                delinquent          REAL NOT NULL,
                balance_0_30        REAL NOT NULL,
                balance_31_60       REAL NOT NULL,
                balance_61_90       REAL NOT NULL,
                balance_over_90     REAL NOT NULL,
                prepaid             REAL NOT NULL,
                source              TEXT NOT NULL,
                PRIMARY KEY (unified_property_id, resident_id, charge_code)
            ) STRICT;

            -- Why a property of an audit run was not audited (has_ledger 0): 'no tenant ledger', or 'schedule only,
            -- no posted charges' for a partial ledger. NULL for runs recorded before this migration.
            ALTER TABLE audit_run_properties ADD COLUMN not_audited_reason TEXT;
            """),
        Migration(version: 8, name: "household balances", sql: """
            -- Each household's tenant-ledger balance as of the property's date (current state, replaced per property
            -- on every sync of a full ledger): charges posted up to that date less payments up to it, in dollars
            -- rounded to cents. `report debtors` reads these rows, one per household, instead of every posting
            -- (a portfolio holds millions); asked for another date, it sums the postings itself.
            CREATE TABLE unified_household_balances (
                unified_property_id TEXT NOT NULL REFERENCES unified_properties ON DELETE CASCADE,
                resident_id         TEXT NOT NULL,
                as_of_date          TEXT NOT NULL,
                charges             REAL NOT NULL,
                payments            REAL NOT NULL,
                balance             REAL NOT NULL,
                PRIMARY KEY (unified_property_id, resident_id)
            ) STRICT;
            """),
        Migration(version: 12, name: "sync checks", sql: """
            -- Each sync's reconciliations of the unified figures with the vendor's own (SyncChecks): one row per
            -- property, property date, check and measure, kept per run so that `runs show` can list a run's failures.
            CREATE TABLE sync_checks (
                unified_property_id TEXT NOT NULL REFERENCES unified_properties (unified_property_id) ON DELETE CASCADE,
                as_of_date          TEXT NOT NULL,
                run_id              TEXT NOT NULL,
                check_name          TEXT NOT NULL,
                measure             TEXT NOT NULL,
                expected_source     TEXT NOT NULL,
                expected            REAL,
                actual_source       TEXT NOT NULL,
                actual              REAL,
                difference          REAL,
                status              TEXT NOT NULL CHECK (status IN ('passed', 'failed', 'skipped')),
                detail              TEXT NOT NULL,
                PRIMARY KEY (unified_property_id, as_of_date, check_name, measure)
            ) STRICT;
            CREATE INDEX sync_checks_run ON sync_checks (run_id, status);
            """),
        Migration(version: 32, name: "income and the report each period came from", sql: """
            -- Where a property's income came from; NULL: it has none, and the expenses report names it instead of
            -- showing zeros or a net operating income without income.
            ALTER TABLE unified_properties ADD COLUMN income_source TEXT;

            -- Which report (realpage_raw loaded_artifacts.report_type) and which snapshot of it (its as-of date) a
            -- month's expense lines were read from, so a sync check can hold them against that report's own totals.
            ALTER TABLE unified_expenses ADD COLUMN source_report TEXT;
            ALTER TABLE unified_expenses ADD COLUMN source_as_of TEXT;

            -- Income per month and GL account (current state): amount as the report counts it (positive = earned; a
            -- concession or credit line is negative). One report per property and month (RealPageIncome).
            CREATE TABLE unified_income (
                unified_property_id TEXT    NOT NULL REFERENCES unified_properties (unified_property_id) ON DELETE CASCADE,
                month               TEXT    NOT NULL,
                gl_account          TEXT    NOT NULL,
                account_name        TEXT,
                gl_category         TEXT    NOT NULL,
                amount              REAL    NOT NULL,
                source              TEXT    NOT NULL,
                source_report       TEXT    NOT NULL,
                source_as_of        TEXT    NOT NULL,
                PRIMARY KEY (unified_property_id, month, gl_account)
            ) STRICT;
            """),
        Migration(version: 33, name: "make-ready work orders and turn periods", sql: """
            -- The work orders done to turn a unit (current state): each line of a closed make-ready turn
            -- (unified_work_orders, category Make Ready), with what it cost and the labor it took.
            CREATE TABLE unified_work_order_lines (
                unified_property_id TEXT    NOT NULL,
                work_order_id       TEXT    NOT NULL,
                line_id             TEXT    NOT NULL,
                description         TEXT,
                completed_date      TEXT,
                amount              REAL,
                minutes_worked      INTEGER,
                source              TEXT    NOT NULL,
                PRIMARY KEY (unified_property_id, work_order_id, line_id),
                FOREIGN KEY (unified_property_id, work_order_id)
                    REFERENCES unified_work_orders (unified_property_id, work_order_id) ON DELETE CASCADE
            ) STRICT;

            -- Make-readies per month as the PMS counts them (current state): units made ready, the hours and what
            -- the work cost; source_as_of = the report snapshot the month was read from.
            CREATE TABLE unified_make_ready_periods (
                unified_property_id TEXT    NOT NULL REFERENCES unified_properties (unified_property_id) ON DELETE CASCADE,
                month               TEXT    NOT NULL,
                units_made_ready    INTEGER,
                total_minutes       INTEGER,
                renovations         INTEGER,
                labor_cost          REAL,
                parts_cost          REAL,
                total_cost          REAL,
                source              TEXT    NOT NULL,
                source_as_of        TEXT    NOT NULL,
                PRIMARY KEY (unified_property_id, month)
            ) STRICT;
            """),
        Migration(version: 43, name: "notices by e-mail and Telegram", sql: """
            -- notices_sent's channel check allowed only 'webhook'; e-mail and Telegram share the same once-per-content
            -- record. SQLite cannot change a CHECK in place: the table is rebuilt with the same columns and rows
            -- (http_status now also holds the SMTP server's reply code, 250, for e-mail).
            CREATE TABLE notices_sent_new (
                id                  INTEGER PRIMARY KEY,
                debtor_key          TEXT    NOT NULL,
                debtor_name         TEXT,
                email               TEXT,
                phone               TEXT,
                properties          TEXT    NOT NULL,
                resident_ids        TEXT    NOT NULL,
                total               REAL    NOT NULL,
                content_hash        TEXT    NOT NULL,
                channel             TEXT    NOT NULL CHECK (channel IN ('webhook', 'email', 'telegram')),
                destination         TEXT    NOT NULL,
                sent_at             TEXT    NOT NULL,
                http_status         INTEGER,
                attempts            INTEGER NOT NULL,
                run_id              TEXT,
                UNIQUE (debtor_key, content_hash, channel, destination)
            ) STRICT;
            INSERT INTO notices_sent_new (id, debtor_key, debtor_name, email, phone, properties, resident_ids, total,
                                          content_hash, channel, destination, sent_at, http_status, attempts, run_id)
                SELECT id, debtor_key, debtor_name, email, phone, properties, resident_ids, total,
                       content_hash, channel, destination, sent_at, http_status, attempts, run_id
                FROM notices_sent;
            DROP TABLE notices_sent;
            ALTER TABLE notices_sent_new RENAME TO notices_sent;
            CREATE INDEX notices_sent_by_time ON notices_sent (sent_at);
            """),
        Migration(version: 34, name: "backfilled occupancy history", sql: """
            -- `ownerdash backfill`: month-end occupancy reconstructed from the residents' move-in, notice and
            -- move-out dates (OccupancyHistory), kept apart from the synced snapshots (unified_occupancy_metrics) so
            -- a backfilled point is always known as one; a synced snapshot of the same date wins in the trends.
            -- Only what the history tells: no make-ready, aging or exposure-window figures.
            CREATE TABLE unified_occupancy_history (
                unified_property_id TEXT    NOT NULL,
                as_of_date          TEXT    NOT NULL,
                total_units         INTEGER NOT NULL,
                occupied_units      INTEGER NOT NULL,
                vacant_units        INTEGER NOT NULL,
                vacant_leased       INTEGER NOT NULL,
                on_notice           INTEGER NOT NULL,
                notice_leased       INTEGER NOT NULL,
                leased_units        INTEGER NOT NULL,
                model_units         INTEGER NOT NULL,
                down_units          INTEGER NOT NULL,
                physical_occupancy  REAL    NOT NULL,
                leased_pct          REAL    NOT NULL,
                source              TEXT    NOT NULL,
                run_id              TEXT    NOT NULL,
                PRIMARY KEY (unified_property_id, as_of_date)
            ) STRICT;
            """),
        Migration(version: 40, name: "why a floor is missing", sql: """
            -- Why unified_units.floor is NULL for some or all of the property's units, in words (UnitFloors): Yardi
            -- sends no floor at all; RealPage only in RPX getunitlist, which a license key may not be allowed to call.
            -- NULL when every unit has its floor.
            ALTER TABLE unified_properties ADD COLUMN floor_note TEXT;
            """),
        Migration(version: 44, name: "sync fingerprint", sql: """
            -- What the last sync of the property read: its loaded raw artifacts, the registry's entry for it, the
            -- charge and GL category maps and the ownerdash build (Synchronizer.fingerprint). A nightly ingest that
            -- loaded nothing new for the property and finds the same fingerprint leaves its rows as they are.
            ALTER TABLE unified_properties ADD COLUMN sync_fingerprint TEXT;
            """),
        Migration(version: 41, name: "audit: amount not audited", sql: """
            -- Beside not_audited (the (lease, code, month) lines posted on leases without any schedule): how many
            -- leases those are and the dollars posted on them, so `audit show` says how much went unjudged. NULL for
            -- runs before this migration.
            ALTER TABLE audit_run_properties ADD COLUMN not_audited_leases INTEGER;
            ALTER TABLE audit_run_properties ADD COLUMN not_audited_amount REAL;
            """),
        Migration(version: 45, name: "delinquency totals per night", sql: """
            -- Each property's delinquency totals of a synced night, in cents (DelinquencySnapshot): the metrics read
            -- these, so the daily trend stays when prune removes the resident rows of nights it does not keep. Filled
            -- here from every night synced so far.
            CREATE TABLE unified_delinquency_metrics (
                unified_property_id   TEXT    NOT NULL REFERENCES unified_properties (unified_property_id) ON DELETE CASCADE,
                as_of_date            TEXT    NOT NULL,
                residents             INTEGER NOT NULL,
                residents_delinquent  INTEGER NOT NULL,
                balance_0_30_cents    INTEGER NOT NULL,
                balance_31_60_cents   INTEGER NOT NULL,
                balance_61_90_cents   INTEGER NOT NULL,
                balance_over_90_cents INTEGER NOT NULL,
                prepaid_cents         INTEGER NOT NULL,
                run_id                TEXT,
                PRIMARY KEY (unified_property_id, as_of_date)
            ) STRICT;
            \(DelinquencySnapshot.everyNight)
            """),
        Migration(version: 47, name: "publication log", sql: """
            -- Where the unified data lives on PostgreSQL (`--database-url`): the rows each sync changed since the
            -- property was last published, by key (`row_key`: a JSON array of the key's columns after the property;
            -- for a table kept per night, the night's as_of_date), so a publication sends those alone
            -- (UnifiedPublisher.publishChanges); and the sync whose rows the server held after the property's last
            -- publication from here. Empty when nothing is published.
            CREATE TABLE unpublished_changes (
                unified_property_id TEXT NOT NULL,
                table_name          TEXT NOT NULL,
                row_key             TEXT NOT NULL,
                PRIMARY KEY (unified_property_id, table_name, row_key)
            ) STRICT;
            CREATE TABLE published_syncs (
                unified_property_id TEXT PRIMARY KEY,
                synced_run          TEXT NOT NULL
            ) STRICT;
            """),
        Migration(version: 48, name: "forecast models", sql: """
            -- The delinquency forecast's trained models (`ownerdash forecast train`, Forecast/ForecastStore.swift):
            -- XGBoost's JSON document with what it was trained on (the properties, the month ends of its examples
            -- and the last outcome it saw) and its feature list in column order, so a model is never applied to
            -- features it was not trained on, nor said to know a month it did not; and, when a backtest was run
            -- before it, how the backtest went. The latest row is the one used.
            CREATE TABLE forecast_models (
                model_id         INTEGER PRIMARY KEY,
                trained_at       TEXT    NOT NULL,
                properties       TEXT    NOT NULL,
                training_from    TEXT    NOT NULL,
                training_to      TEXT    NOT NULL,
                outcomes_to      TEXT    NOT NULL,
                household_months INTEGER NOT NULL CHECK (household_months > 0),
                behind           INTEGER NOT NULL CHECK (behind > 0),
                features         TEXT    NOT NULL,
                xgboost_version  TEXT    NOT NULL,
                training_seconds REAL    NOT NULL,
                model_json       BLOB    NOT NULL,
                -- The rolling backtest run before training (`forecast train --backtest`); NULL when none was: the
                -- forecast may be shown to users only where backtest_passes is 1.
                backtest_months  INTEGER,
                backtest_auc     REAL,
                baseline         TEXT,
                baseline_auc     REAL,
                backtest_passes  INTEGER CHECK (backtest_passes IN (0, 1))
            ) STRICT;
            """),
        // Where each property's last sync left its merged ledger (Sync/LedgerDelta.swift): the newest raw lineage its
        // charges and payments were read up to, that lineage row's identity (a lineage id SQLite could number again
        // once the row was gone would not be the same row), and the rules that read them (the build, the charge
        // categories). The next incremental sync rewrites only the charges and payments of ledger rows written
        // since. This host's own bookkeeping: not published.
        Migration(version: 49, name: "ledger sync marks", sql: """
            CREATE TABLE ledger_sync_marks (
                unified_property_id TEXT    PRIMARY KEY REFERENCES unified_properties (unified_property_id) ON DELETE CASCADE,
                ledger              TEXT    NOT NULL,
                lineage_id          INTEGER NOT NULL,
                lineage             TEXT    NOT NULL,
                rules               TEXT    NOT NULL
            ) STRICT;
            """),
        // A household's balance is current state, as of the property's date like every other current-state row
        // (unified_properties.as_of_date). A date on each row changed all of them every night: a churned night of the
        // 30 demo properties rewrote (and published) all 14,488 households' rows, 82 % of the rows it wrote, for the
        // few dozen whose balance moved.
        Migration(version: 50, name: "household balances on the property's date", sql: """
            ALTER TABLE unified_household_balances DROP COLUMN as_of_date;
            """),
        // The charges whose code no category names, which every sync lists (`Synchronizer.unknownCodes`): found
        // without reading each of the property's charges (24 months of them, every night). Partial, so it holds only
        // those few rows; SQLite's own (PostgreSQL gets no copy: UnifiedShape).
        Migration(version: 51, name: "charges of unknown codes", sql: """
            CREATE INDEX unified_charges_unknown_code ON unified_charges (unified_property_id, charge_code)
                WHERE category_known = 0;
            """),
        // Each night's ledger plan reads a property's ledger items from the run history (RunRecords/LedgerRuns.swift):
        // by run id alone it visited every item of every run, about 1,400 a night for 30 properties, so a year on
        // the plan took 80 ms a property (2.4 s a night) and grew every night. By property and artifact it reads the
        // few items of that ledger.
        Migration(version: 52, name: "run items by property and artifact", sql: """
            CREATE INDEX etl_run_items_property ON etl_run_items (property_id, artifact);
            """),
        // A mark notes how many rows the property's merged ledger had lost (the raw `ledger_removals` count): the next
        // sync by change looks for a charge or payment whose ledger row is gone only when that count moved, instead of
        // counting the rows projected before the mark over the property's whole ledger every night (LedgerDelta).
        Migration(version: 53, name: "ledger marks count removals", sql: """
            ALTER TABLE ledger_sync_marks ADD COLUMN removals INTEGER;
            """),
        // What each kept table's rule read at the property's last sync (Sync/InputMarks.swift): a sync that finds its
        // rule's inputs (raw state, build, charge categories) the same skips the rule and keeps main's rows. This host's
        // own bookkeeping: not published.
        Migration(version: 54, name: "sync input marks", sql: """
            CREATE TABLE sync_input_marks (
                unified_property_id TEXT NOT NULL REFERENCES unified_properties (unified_property_id) ON DELETE CASCADE,
                table_name          TEXT NOT NULL,
                inputs              TEXT NOT NULL,
                PRIMARY KEY (unified_property_id, table_name)
            ) STRICT;
            """),
        // A CHECK of a column against a list of three or more values (`category IN ('RENT', 'UTILITIES', 'FEES',
        // 'OTHER')`) made SQLite build a temporary index of the list for every row written, a constraint check keeping
        // nothing from one row to the next: 2 µs a row, the largest single cost of writing 24 months of charges on a
        // property's first sync (unified_charges' `category` alone: 80 of kalaco's 900 ms). The same constraints as
        // comparisons joined by OR cost nothing. Only the constraints' text changes, never a stored row (every row
        // meets both), so no table is copied: the stored CREATE TABLE text is rewritten in place, SQLite's documented
        // procedure for a change that leaves the stored content as it is (CheckLists).
        Migration(version: 55, name: "check lists as comparisons", sql: "", apply: { try CheckLists.rewriteTables($0) }),
        // Whether the PMS marks a household owing or in credit as under eviction (RealPageDelinquency: the Delinquent
        // and Prepaid legend's `*`; YardiDelinquency: the resident status Eviction): 1 or 0, NULL where the source says
        // nothing (and on the nights synced before).
        Migration(version: 56, name: "delinquency eviction mark", sql: """
            ALTER TABLE unified_delinquency ADD COLUMN under_eviction INTEGER;
            """),
        // Whether a former resident's account is placed with a collection agency (RealPageDelinquency: the Collections
        // Report's In Coll. mark for the account): 1 or 0, NULL where no report says (every Yardi row, and the nights
        // synced before).
        Migration(version: 57, name: "delinquency collections mark", sql: """
            ALTER TABLE unified_delinquency ADD COLUMN in_collections INTEGER;
            """),
        // Every sync compares a property's stored events with the night's as a multiset, both sides walked in the order
        // of every column (CurrentStateDiff.differences): on an index of (property, date, type) SQLite sorted each side
        // in a temporary B-tree and read every row from the table, 8 ms a side for one property's 4,855 events after a
        // year. On an index of every column in that order both sides are read off the index alone, already in order
        // (2-3 ms). Readers by property and date (the funnel, the monthly activity) use its first columns as before;
        // the summary's counts by type have their own index (migration 59).
        Migration(version: 58, name: "activity index in the compare's order", sql: """
            DROP INDEX unified_activity_by_date;
            CREATE INDEX unified_activity_by_date ON unified_activity (
                unified_property_id, event_date, event_type, pms_event_type, unit_number, party_name, party_id, source, agent);
            """),
        // The portfolio summary counts four kinds of event over 30 days for every property (Metrics' Summary: leads,
        // leases, move-ins, move-outs); on the date index each count read every event of those days, of every type
        // (81 ms of a 500-property portfolio page's first load; 18 ms on this index). Only readers use it: the sync's
        // twins leave it out (CurrentStateDiff.readersOnlyIndexes), so a night keeps it up for the rows it writes.
        Migration(version: 59, name: "activity by type", sql: """
            CREATE INDEX unified_activity_by_type ON unified_activity (unified_property_id, event_type, event_date);
            """),
        // A ledger merged from nightly windows knows a posting dated before every window only from its next whole
        // answer (a credit to a charge months back that moves no balance): the ledger reports name the date of the
        // last whole answer beside what they answer from it, and the audit records it with the run.
        Migration(version: 60, name: "ledger whole as of", sql: """
            ALTER TABLE unified_properties ADD COLUMN ledger_whole_as_of TEXT;
            ALTER TABLE audit_run_properties ADD COLUMN ledger_whole_as_of TEXT;
            """),
        // A lease without any schedule line is audited for its rent against the rent the lease states: each (lease,
        // code) of a run says which its expected amounts came from (`schedule` / `lease rent`; NULL before).
        Migration(version: 61, name: "audit: what a line was expected from", sql: """
            ALTER TABLE audit_lease_charges ADD COLUMN expected_from TEXT;
            """),
        // What a RealPage property's report events were computed from at its last sync (Sync/RealPage/
        // RealPageActivityDays.swift): the next sync computes again only the days on or after the first day of a
        // snapshot loaded, reloaded or pruned since, instead of every day of the report's history every night (the
        // largest cost that still grew with the years). The prospects first seen before those days keep their first
        // contact's day here, since the lead rank reads every contact since the first snapshot. This host's own
        // bookkeeping: not published.
        Migration(version: 62, name: "activity marks", sql: """
            CREATE TABLE sync_activity_marks (
                unified_property_id TEXT PRIMARY KEY REFERENCES unified_properties (unified_property_id) ON DELETE CASCADE,
                inputs              TEXT NOT NULL,
                as_of_date          TEXT NOT NULL,
                snapshots           TEXT NOT NULL,
                unknown_types       TEXT NOT NULL
            ) STRICT;
            CREATE TABLE sync_activity_prospects (
                unified_property_id TEXT NOT NULL REFERENCES unified_properties (unified_property_id) ON DELETE CASCADE,
                prospect_key        TEXT NOT NULL,
                first_date          TEXT NOT NULL,
                PRIMARY KEY (unified_property_id, prospect_key)
            ) STRICT;
            CREATE INDEX sync_activity_prospects_by_date ON sync_activity_prospects (unified_property_id, first_date);
            """),
        // Per household, the sums over its ledger that do not move with the property date, and the ledger lineage
        // they were summed at: Yardi's over the merged ledger (Sync/Yardi/YardiHouseholds.swift), RealPage's over
        // the charges and payments the balance-forward lines are weighed against (Sync/RealPage/RealPagePostings.swift).
        // The next sync by change sums again only the households whose postings moved, instead of every household's
        // whole history (Yardi's ledger keeps every transaction since the first whole pull and grew every night; RPX's
        // keeps 24 months, summed for every household with a posting that night). This host's own bookkeeping: not
        // published.
        Migration(version: 63, name: "household sums kept by change", sql: """
            CREATE TABLE sync_yardi_households (
                unified_property_id  TEXT NOT NULL REFERENCES unified_properties (unified_property_id) ON DELETE CASCADE,
                tenant_code          TEXT NOT NULL,
                unit_code            TEXT,
                transactions         INTEGER NOT NULL,
                window_cents         INTEGER NOT NULL,
                charged_cents        INTEGER NOT NULL,
                paid_cents           INTEGER NOT NULL,
                charge_applied_cents INTEGER NOT NULL,
                charge_due_cents     INTEGER NOT NULL,
                PRIMARY KEY (unified_property_id, tenant_code)
            ) STRICT, WITHOUT ROWID;
            CREATE TABLE sync_realpage_postings (
                unified_property_id TEXT NOT NULL REFERENCES unified_properties (unified_property_id) ON DELETE CASCADE,
                resident_id         TEXT NOT NULL,
                postings            INTEGER NOT NULL,
                cents               INTEGER NOT NULL,
                open_cents          INTEGER NOT NULL,
                PRIMARY KEY (unified_property_id, resident_id)
            ) STRICT, WITHOUT ROWID;
            CREATE TABLE sync_household_sum_marks (
                unified_property_id TEXT PRIMARY KEY REFERENCES unified_properties (unified_property_id) ON DELETE CASCADE,
                lineage_id          INTEGER NOT NULL
            ) STRICT;
            """),
        // The resident events (those naming their household) in the activity compare's order: a sync that computes the
        // report events of some days only compares main's events of those days and its resident events of the days
        // before (RealPageActivityDays.scope), each read off an index in order; one condition with an OR read every
        // event of the property's history to keep those, a pass that grew with every day kept. The twins leave it out
        // (CurrentStateDiff.readersOnlyIndexes).
        Migration(version: 64, name: "activity: resident events", sql: """
            CREATE INDEX unified_activity_residents ON unified_activity (
                unified_property_id, event_date, event_type, pms_event_type, unit_number, party_name, party_id, source, agent)
                WHERE party_id IS NOT NULL;
            """),
        // A night's delinquency remembers the lag of the ledger it was summed from (unified_properties keeps the
        // latest night's only): `query delinquency --as-of` an earlier night names it as the latest night's answer does.
        Migration(version: 65, name: "delinquency: the ledger's last whole pull", sql: """
            ALTER TABLE unified_delinquency_metrics ADD COLUMN ledger_whole_as_of TEXT;
            """),
        // Yardi's window gaps as the property's last whole ledger left them: what the `ledger_window_gaps` check holds
        // each incremental night's gaps against (Sync/SyncChecks.swift), so that a re-sync of a night answers as its
        // first sync did. This host's own bookkeeping: not published.
        Migration(version: 66, name: "Yardi window gaps of the last whole ledger", sql: """
            CREATE TABLE sync_yardi_gap_baselines (
                unified_property_id TEXT PRIMARY KEY REFERENCES unified_properties (unified_property_id) ON DELETE CASCADE,
                whole_as_of         TEXT NOT NULL,
                gaps                TEXT NOT NULL
            ) STRICT;
            """),
        // The residents and leases snapshots a RealPage property's last sync read, for the next one to compute only
        // the resident events of the households whose rows moved since (RealPageEventHouseholds); NULL before: the
        // first sync after computes every household's once.
        Migration(version: 67, name: "activity marks: the resident lists read", sql: """
            ALTER TABLE sync_activity_marks ADD COLUMN resident_lists TEXT;
            """),
        // A RealPage sync by household compares main's leases of the households it computed (RealPageLeases
        // .householdScopes), and their members: looked up by household here, not read off every lease of the property
        // (a scan that grew with each former household's leases the vendor keeps listing).
        Migration(version: 68, name: "leases by household", sql: """
            CREATE INDEX unified_leases_by_resident ON unified_leases (unified_property_id, resident_id);
            """),
        // The snapshots a rule computed by snapshot read at the property's last sync (Sync/RealPage/
        // RealPageClosedTurns.swift: the closed make-ready turns; RealPageExpenseMonths.swift: the expenses and income
        // by month): the next sync computes again only what the snapshots loaded since list or cover, instead of
        // every kept snapshot's turns and months every night. This host's own bookkeeping: not published.
        Migration(version: 69, name: "snapshot marks", sql: """
            CREATE TABLE sync_snapshot_marks (
                unified_property_id TEXT NOT NULL REFERENCES unified_properties (unified_property_id) ON DELETE CASCADE,
                rule                TEXT NOT NULL,
                inputs              TEXT NOT NULL,
                snapshots           TEXT NOT NULL,
                PRIMARY KEY (unified_property_id, rule)
            ) STRICT;
            """),
    ]
}

/// CHECK constraints of the form `column IN (v1, v2, v3, ...)` rewritten as `column = v1 OR column = v2 OR ...`
/// (unified migration 55): the same constraint, which SQLite checks without building the list into an index per row.
enum CheckLists {
    /// Rewrites every table's stored CREATE TABLE text in `database` that has such a list, inside the caller's
    /// transaction: `writable_schema` on, the text updated, `schema_version` advanced (so every connection reads the
    /// schema again), `writable_schema` off (sqlite.org, "ALTER TABLE", making other kinds of table schema changes).
    static func rewriteTables(_ database: Database) throws {
        var rewritten: [(name: String, sql: String)] = []
        for row in try database.query("SELECT name, sql FROM main.sqlite_schema WHERE type = 'table' AND sql IS NOT NULL ORDER BY name") {
            guard let name = row[0].textValue, let sql = row[1].textValue else { continue }
            let new = rewrite(sql)
            if new != sql { rewritten.append((name, new)) }
        }
        guard !rewritten.isEmpty else { return }
        let version = try database.scalar("PRAGMA main.schema_version")?.integerValue ?? 0
        try database.execute("PRAGMA writable_schema = ON")
        defer { try? database.execute("PRAGMA writable_schema = OFF") }
        let update = try database.prepare("UPDATE main.sqlite_schema SET sql = :sql WHERE type = 'table' AND name = :name")
        for table in rewritten { try update.execute([":sql": .text(table.sql), ":name": .text(table.name)]) }
        // PRAGMA takes no bound parameter; the version is an integer read above.
        try database.execute("PRAGMA main.schema_version = \(version + 1)")
    }

    /// `sql` with each `CHECK (column IN (...))` of three or more values as comparisons; other constraints as they are.
    static func rewrite(_ sql: String) -> String {
        let pattern = try! NSRegularExpression(pattern: #"CHECK \((\w+) IN \(([^()]*)\)\)"#)
        var result = sql
        for match in pattern.matches(in: sql, range: NSRange(sql.startIndex..., in: sql)).reversed() {
            guard let whole = Range(match.range, in: sql), let columnRange = Range(match.range(at: 1), in: sql),
                  let listRange = Range(match.range(at: 2), in: sql) else { continue }
            let values = splitValues(String(sql[listRange]))
            guard values.count >= 3 else { continue }
            let column = String(sql[columnRange])
            result.replaceSubrange(whole, with: "CHECK (" + values.map { "\(column) = \($0)" }.joined(separator: " OR ") + ")")
        }
        return result
    }

    /// A list's values (string literals or numbers), split at the commas outside quotes, trimmed.
    private static func splitValues(_ list: String) -> [String] {
        var values: [String] = [], current = "", quoted = false
        for character in list {
            if character == "'" { quoted.toggle() }
            if character == ",", !quoted {
                values.append(current.trimmingCharacters(in: .whitespacesAndNewlines)); current = ""
            } else {
                current.append(character)
            }
        }
        values.append(current.trimmingCharacters(in: .whitespacesAndNewlines))
        return values
    }
}
