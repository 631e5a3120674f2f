import SQLiteKit
import Parse

/// The schema of realpage_raw.db (a public contract: docs/contracts.md, "Databases"), as forward-only migrations.
///
/// Raw tables are shaped like the reports. Every row carries its lineage: the property and as-of date of the report,
/// the sheet row it came from, and (from migration 42, `keyedByLineage`) `lineage_id`, the `raw_lineage` row holding
/// the run that loaded it, the artifact (file path) and its sha256 once per artifact (`v_<table>` shows them beside
/// the row; RawLineage). Money is REAL dollars rounded to cents; dates
/// are `YYYY-MM-DD` text. A report is a snapshot: one (property, as_of_date) per report
/// table holds the rows of exactly one artifact (see `loaded_artifacts`).
public enum RealPageRawSchema {
    /// Columns every raw table created before `keyedByLineage` starts with (the text lineage).
    static let lineage = RawLineage.columns(keyed: false)

    /// The version from which raw rows point at `raw_lineage` by `lineage_id` (RawLineage); tables created later
    /// start with the keyed columns.
    static let keyedByLineage = 42

    /// Unique natural key shared by the report tables: one row per sheet row of one snapshot.
    static func naturalKey(_ table: String) -> String {
        """
        CREATE UNIQUE INDEX \(table)_snapshot_row ON \(table) (property_id, as_of_date, source_row);
        """
    }

    public static let migrations: [Migration] = (handWritten + descriptorMigrations).sorted { $0.version < $1.version }

    /// The first sixteen report types' tables and the RPX tables, written out.
    static let handWritten: [Migration] = [
        Migration(version: 1, name: "report tables", sql: """
            CREATE TABLE loaded_artifacts (
                report_type     TEXT NOT NULL,
                property_id     TEXT NOT NULL,
                as_of_date      TEXT NOT NULL,
                artifact        TEXT NOT NULL,
                artifact_sha256 TEXT NOT NULL,
                run_id          TEXT NOT NULL,
                row_count       INTEGER NOT NULL,
                warnings        TEXT,
                loaded_at       TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
                PRIMARY KEY (report_type, property_id, as_of_date)
            ) STRICT;

            CREATE TABLE realpage_box_score (
                \(lineage)
                floorplan_group    TEXT,
                floorplan          TEXT    NOT NULL,
                total_units        INTEGER NOT NULL,
                occupied_units     INTEGER NOT NULL,
                vacant_units       INTEGER NOT NULL,
                vacant_not_leased  INTEGER,
                vacant_leased      INTEGER NOT NULL,
                occupied_no_notice INTEGER,
                occupied_on_notice INTEGER NOT NULL,
                notice_leased      INTEGER NOT NULL,
                model_units        INTEGER NOT NULL,
                down_units         INTEGER NOT NULL,
                occupancy_pct      REAL,
                leased_pct         REAL,
                avg_sqft           REAL,
                avg_market_rent    REAL,
                avg_actual_rent    REAL
            ) STRICT;
            \(naturalKey("realpage_box_score"))

            CREATE TABLE realpage_rent_roll (
                \(lineage)
                unit_number   TEXT NOT NULL,
                building      TEXT,
                floorplan     TEXT,
                sqft          INTEGER,
                resident_id   TEXT,
                resident_name TEXT,
                status        TEXT,
                market_rent   REAL,
                actual_rent   REAL,
                move_in_date  TEXT,
                lease_start   TEXT,
                lease_end     TEXT,
                move_out_date TEXT,
                balance       REAL
            ) STRICT;
            \(naturalKey("realpage_rent_roll"))

            CREATE TABLE realpage_delinquency (
                \(lineage)
                unit_number     TEXT NOT NULL,
                resident_id     TEXT,
                resident_name   TEXT,
                resident_status TEXT,
                current_balance REAL NOT NULL,
                balance_0_30    REAL NOT NULL,
                balance_31_60   REAL NOT NULL,
                balance_61_90   REAL NOT NULL,
                balance_over_90 REAL NOT NULL,
                prepaid         REAL
            ) STRICT;
            \(naturalKey("realpage_delinquency"))

            CREATE TABLE realpage_activity (
                \(lineage)
                activity_date TEXT NOT NULL,
                activity_type TEXT NOT NULL,
                unit_number   TEXT,
                party_name    TEXT,
                source        TEXT,
                agent         TEXT
            ) STRICT;
            \(naturalKey("realpage_activity"))

            CREATE TABLE realpage_monthly_summary (
                \(lineage)
                month      TEXT    NOT NULL,
                move_ins   INTEGER NOT NULL,
                move_outs  INTEGER NOT NULL,
                renewals   INTEGER,
                notices    INTEGER,
                skips      INTEGER,
                evictions  INTEGER
            ) STRICT;
            \(naturalKey("realpage_monthly_summary"))

            CREATE TABLE realpage_lease_expirations (
                \(lineage)
                unit_number    TEXT NOT NULL,
                resident_name  TEXT,
                lease_end      TEXT,
                current_rent   REAL,
                market_rent    REAL,
                renewal_status TEXT
            ) STRICT;
            \(naturalKey("realpage_lease_expirations"))
            """),
        // RPX SOAP: one table per operation, source fields in snake case; `source_row` is the record's
        // 1-based position in the payload. Their snapshots are recorded in loaded_artifacts with the
        // operation name (`unitlist`, ...) as report_type.
        Migration(version: 2, name: "RPX SOAP tables", sql: """
            CREATE TABLE realpage_sites (
                \(lineage)
                site_id              TEXT NOT NULL,
                site_number          TEXT,
                site_name            TEXT,
                pmc_name             TEXT,
                address1             TEXT,
                city                 TEXT,
                state                TEXT,
                zip                  TEXT,
                phone                TEXT,
                email                TEXT,
                sys_date             TEXT,
                ar_accounting_date   TEXT,
                ar_accounting_period TEXT
            ) STRICT;
            \(naturalKey("realpage_sites"))

            CREATE TABLE realpage_buildings (
                \(lineage)
                building_id     TEXT NOT NULL,
                building_number TEXT,
                address_line1   TEXT,
                city            TEXT,
                state           TEXT,
                zip             TEXT
            ) STRICT;
            \(naturalKey("realpage_buildings"))

            CREATE TABLE realpage_units (
                \(lineage)
                unit_id                  TEXT NOT NULL,
                unit_number              TEXT NOT NULL,
                building_id              TEXT,
                building_number          TEXT,
                building_name            TEXT,
                floorplan_id             TEXT,
                floorplan_name           TEXT,
                gross_sqft               INTEGER,
                rentable_sqft            INTEGER,
                vacant                   INTEGER,
                available                INTEGER,
                available_date           TEXT,
                unit_deleted             INTEGER,
                unit_designation         TEXT,
                market_rent              REAL,
                reason_not_available     TEXT,
                made_ready_date          TEXT,
                unit_reserved            INTEGER,
                expected_move_in_date    TEXT,
                on_notice_for_date       TEXT,
                fp_report_unit_occupancy INTEGER
            ) STRICT;
            \(naturalKey("realpage_units"))

            CREATE TABLE realpage_residents (
                \(lineage)
                resident_member_id TEXT,
                household_id       TEXT,
                lease_id           TEXT,
                unit_id            TEXT,
                unit_number        TEXT,
                first_name         TEXT,
                last_name          TEXT,
                lease_status       TEXT,
                lease_type         TEXT,
                relationship       TEXT,
                head_of_household  INTEGER,
                balance            REAL,
                pending_balance    REAL,
                in_eviction        INTEGER,
                begin_date         TEXT,
                end_date           TEXT,
                move_in_date       TEXT,
                move_out_date      TEXT,
                notice_given_date  TEXT,
                notice_for_date    TEXT,
                lease_signed_date  TEXT
            ) STRICT;
            \(naturalKey("realpage_residents"))

            CREATE TABLE realpage_leases (
                \(lineage)
                lease_id               TEXT NOT NULL,
                resh_id                TEXT,
                unit_id                TEXT,
                next_lease_id          TEXT,
                prior_lease_id         TEXT,
                lease_signed_date      TEXT,
                lease_begin_date       TEXT,
                lease_end_date         TEXT,
                move_in_date           TEXT,
                month_to_month_date    TEXT,
                initial_lease_date     TEXT,
                payment_due_date       TEXT,
                last_renewal_date      TEXT,
                notice_on_date         TEXT,
                notice_for_date        TEXT,
                inactive_date          TEXT,
                lease_status           TEXT,
                lease_status_text      TEXT,
                type_text              TEXT,
                evict                  INTEGER,
                rent                   REAL,
                current_balance        REAL,
                security_deposit       REAL,
                lease_term_desc        TEXT,
                head_of_household_name TEXT
            ) STRICT;
            \(naturalKey("realpage_leases"))

            CREATE TABLE realpage_rentable_items (
                \(lineage)
                rid_id           TEXT NOT NULL,
                item_name        TEXT,
                item_type        TEXT,
                billing_amount   REAL,
                frequency        TEXT,
                transaction_code TEXT,
                in_service       INTEGER,
                status           TEXT,
                unit_id          TEXT,
                lease_id         TEXT,
                resh_id          TEXT,
                start_date       TEXT,
                end_date         TEXT
            ) STRICT;
            \(naturalKey("realpage_rentable_items"))
            """),
        // The rest of the OneSite catalogue, one migration per report (or pair) as each parser landed.
        Migration(version: 3, name: "income statement", sql: """
            CREATE TABLE realpage_income_statement (
                \(lineage)
                section           TEXT,
                category          TEXT,
                account_number    TEXT NOT NULL,
                account_name      TEXT,
                period_amount     REAL,
                ytd_amount        REAL,
                budget_amount     REAL,
                ytd_budget_amount REAL,
                fiscal_period     TEXT
            ) STRICT;
            \(naturalKey("realpage_income_statement"))
            """),
        Migration(version: 4, name: "make ready summaries", sql: """
            CREATE TABLE realpage_make_ready (
                \(lineage)
                unit_number   TEXT NOT NULL,
                floorplan     TEXT,
                sqft          INTEGER,
                unit_status   TEXT,
                lease_status  TEXT,
                move_out_date TEXT,
                days_vacant   INTEGER,
                due_date      TEXT,
                work_orders   INTEGER,
                assigned_to   TEXT,
                status        TEXT
            ) STRICT;
            \(naturalKey("realpage_make_ready"))

            CREATE TABLE realpage_closed_make_ready (
                \(lineage)
                unit_number      TEXT NOT NULL,
                floorplan        TEXT,
                move_out_date    TEXT,
                due_date         TEXT,
                completed_date   TEXT,
                days_to_complete INTEGER,
                work_orders      INTEGER,
                amount_charged   REAL,
                completed_by     TEXT
            ) STRICT;
            \(naturalKey("realpage_closed_make_ready"))
            """),
        Migration(version: 5, name: "monthly transaction summary", sql: """
            CREATE TABLE realpage_monthly_transactions (
                \(lineage)
                category          TEXT,
                transaction_group TEXT,
                code              TEXT NOT NULL,
                description       TEXT,
                gl_account        TEXT,
                ytd_prior_amount  REAL,
                period_amount     REAL,
                ytd_amount        REAL,
                fiscal_period     TEXT
            ) STRICT;
            \(naturalKey("realpage_monthly_transactions"))
            """),
        Migration(version: 6, name: "renewal detail", sql: """
            CREATE TABLE realpage_renewal_detail (
                \(lineage)
                unit_number          TEXT NOT NULL,
                floorplan            TEXT,
                resident_name        TEXT,
                actual_rent          REAL,
                other_billings       REAL,
                last_increase_date   TEXT,
                last_increase_amount REAL,
                market_rent          REAL,
                move_in_date         TEXT,
                lease_end_date       TEXT,
                decision             TEXT,
                new_lease_start      TEXT,
                new_lease_term       INTEGER,
                new_rent             REAL,
                new_other_billings   REAL,
                leasing_consultant   TEXT
            ) STRICT;
            \(naturalKey("realpage_renewal_detail"))
            """),
        Migration(version: 7, name: "projected occupancy", sql: """
            CREATE TABLE realpage_projected_occupancy (
                \(lineage)
                week_start          TEXT    NOT NULL,
                week_end            TEXT    NOT NULL,
                occupied_begin      INTEGER NOT NULL,
                occupied_begin_pct  REAL,
                scheduled_move_ins  INTEGER NOT NULL,
                scheduled_move_outs INTEGER NOT NULL,
                projected_occupied  INTEGER NOT NULL,
                projected_pct       REAL,
                total_units         INTEGER
            ) STRICT;
            \(naturalKey("realpage_projected_occupancy"))
            """),
        Migration(version: 8, name: "lost rent summary", sql: """
            CREATE TABLE realpage_lost_rent (
                \(lineage)
                unit_number         TEXT,
                floorplan           TEXT,
                resident_name       TEXT,
                move_in_date        TEXT,
                move_out_date       TEXT,
                days_occupied       INTEGER,
                market_rent         REAL,
                lease_rent          REAL,
                rent_charged        REAL,
                loss_to_lease       REAL,
                gain_to_lease       REAL,
                vacancy_loss        REAL,
                vacancy_adjustments REAL,
                concessions         REAL,
                other_losses        REAL,
                total_lost_rent     REAL
            ) STRICT;
            \(naturalKey("realpage_lost_rent"))
            """),
        Migration(version: 9, name: "primary advertising source", sql: """
            CREATE TABLE realpage_advertising_source (
                \(lineage)
                source                  TEXT NOT NULL,
                new_prospects           INTEGER,
                phone_calls             INTEGER,
                first_visits            INTEGER,
                visits                  INTEGER,
                return_visits           INTEGER,
                applications            INTEGER,
                waitlist                INTEGER,
                cancelled_denied        INTEGER,
                net_leases              INTEGER,
                prospect_conversion_pct REAL,
                visit_conversion_pct    REAL
            ) STRICT;
            \(naturalKey("realpage_advertising_source"))
            """),
        Migration(version: 10, name: "reasons for move out", sql: """
            CREATE TABLE realpage_move_out_reasons (
                \(lineage)
                line_type     TEXT NOT NULL CHECK (line_type IN ('reason', 'resident')),
                category      TEXT,
                reason        TEXT,
                count         INTEGER,
                percent       REAL,
                unit_number   TEXT,
                resident_name TEXT,
                move_out_date TEXT
            ) STRICT;
            \(naturalKey("realpage_move_out_reasons"))
            """),
        Migration(version: 11, name: "lease details", sql: """
            CREATE TABLE realpage_lease_details (
                \(lineage)
                unit_number     TEXT,
                lease_id        TEXT,
                resident_name   TEXT,
                floorplan       TEXT,
                status          TEXT,
                lease_start     TEXT,
                lease_end       TEXT,
                move_in_date    TEXT,
                move_out_date   TEXT,
                applied_date    TEXT,
                approved_date   TEXT,
                notice_date     TEXT,
                lease_term      TEXT,
                lease_rent      REAL,
                lease_total     REAL,
                deposit         REAL,
                balance         REAL,
                notice_type     TEXT,
                move_out_reason TEXT,
                CHECK (unit_number IS NOT NULL OR lease_id IS NOT NULL)
            ) STRICT;
            \(naturalKey("realpage_lease_details"))
            """),
        // The children of a Delinquent and Prepaid account: one row per transaction code (RENT, LATEFEE, WATER ...),
        // so the ledger can say what a resident owes for what, not only how much.
        Migration(version: 12, name: "delinquency per transaction code", sql: """
            CREATE TABLE realpage_delinquency_codes (
                \(lineage)
                unit_number     TEXT NOT NULL,
                resident_id     TEXT,
                account_row     INTEGER NOT NULL,
                code            TEXT NOT NULL,
                description     TEXT,
                prepaid         REAL NOT NULL,
                delinquent      REAL NOT NULL,
                balance_0_30    REAL NOT NULL,
                balance_31_60   REAL NOT NULL,
                balance_61_90   REAL NOT NULL,
                balance_over_90 REAL NOT NULL
            ) STRICT;
            \(naturalKey("realpage_delinquency_codes"))
            """),
        // Contact lines folded into their record: stacked under the name, or on a continuation row of their own.
        Migration(version: 13, name: "resident phone and email", sql: """
            ALTER TABLE realpage_delinquency ADD COLUMN phone TEXT;
            ALTER TABLE realpage_delinquency ADD COLUMN email TEXT;
            ALTER TABLE realpage_lease_expirations ADD COLUMN phone TEXT;
            ALTER TABLE realpage_lease_expirations ADD COLUMN email TEXT;
            """),
        // The tenant ledger from RPX, where the license key is authorized for it (docs/rpx-soap.md, "Transport").
        Migration(version: 14, name: "rpx tenant ledger", sql: """
            -- getresidentledger: one row per transaction (source_row numbers them across households).
            CREATE TABLE realpage_ledger (
                \(lineage)
                resh_id           TEXT NOT NULL,
                unit_id           TEXT,
                unit_number       TEXT,
                household_balance REAL,
                household_prepaid REAL,
                transaction_id    TEXT NOT NULL,
                transaction_type  TEXT NOT NULL,
                transaction_date  TEXT,
                post_month        TEXT,
                transaction_code  TEXT,
                description       TEXT,
                lease_id          TEXT,
                amount            REAL NOT NULL,
                amount_paid       REAL,
                open_amount       REAL,
                reference         TEXT
            ) STRICT;
            \(naturalKey("realpage_ledger"))

            -- getscheduledcharges: current residents' current recurring charges.
            CREATE TABLE realpage_scheduled_charges (
                \(lineage)
                resh_id          TEXT,
                lease_id         TEXT NOT NULL,
                unit_id          TEXT,
                unit_number      TEXT,
                transaction_code TEXT NOT NULL,
                description      TEXT,
                amount           REAL NOT NULL,
                frequency        TEXT,
                start_date       TEXT,
                end_date         TEXT
            ) STRICT;
            \(naturalKey("realpage_scheduled_charges"))
            """),
        // getresidentlistinfo's contact fields, so RealPage people carry an e-mail and phone like Yardi's (the debtors
        // identity rule joins units by them). `phone` is the decoder's pick of cellphone, homephone, workphone.
        Migration(version: 15, name: "rpx resident email and phone", sql: """
            ALTER TABLE realpage_residents ADD COLUMN email TEXT;
            ALTER TABLE realpage_residents ADD COLUMN phone TEXT;
            """),
        // The Rent Roll's transaction-code rows of each unit's current lease: the recurring-charge schedule of a site
        // whose RPX license refuses getscheduledcharges.
        Migration(version: 16, name: "rent roll transaction codes", sql: """
            CREATE TABLE realpage_rent_roll_charges (
                \(lineage)
                unit_number     TEXT NOT NULL,
                resident_id     TEXT,
                unit_row        INTEGER NOT NULL,
                code            TEXT NOT NULL,
                lease_rent      REAL,
                other_charges   REAL,
                amount          REAL NOT NULL
            ) STRICT;
            \(naturalKey("realpage_rent_roll_charges"))
            """),
        // The Closed Make Ready Summary's work-order lines under each unit: what was done to turn it, by whom, when.
        Migration(version: 17, name: "closed make ready work orders", sql: """
            CREATE TABLE realpage_closed_make_ready_work_orders (
                \(lineage)
                unit_number     TEXT NOT NULL,
                unit_row        INTEGER NOT NULL,
                work_order      TEXT NOT NULL,
                service_issue   TEXT,
                worker          TEXT,
                closed_date     TEXT,
                amount_charged  REAL,
                time_worked_by  TEXT,
                minutes_worked  INTEGER
            ) STRICT;
            \(naturalKey("realpage_closed_make_ready_work_orders"))
            """),
        // The Monthly Activity Summary's occupancy section: units by status per floor plan at the as-of date.
        Migration(version: 18, name: "monthly activity floor plans", sql: """
            CREATE TABLE realpage_monthly_summary_floorplans (
                \(lineage)
                floorplan              TEXT NOT NULL,
                market_rent            REAL,
                total_base_rent        REAL,
                total_sqft             INTEGER,
                total_units            INTEGER,
                occupied_no_notice     INTEGER,
                vacant_not_leased      INTEGER,
                vacant_leased          INTEGER,
                notice_not_leased      INTEGER,
                notice_leased          INTEGER,
                vacant_administrative  INTEGER,
                vacant_down            INTEGER
            ) STRICT;
            \(naturalKey("realpage_monthly_summary_floorplans"))
            """),
        // The RPX ledger kept once per transaction (docs/operators.md, "The tenant ledger, incrementally"): full pulls and incremental windows are merged
        // into one row per (property, TransactionID); each property's latest snapshot is carried over. The household
        // Balance and Prepaid RPX repeats on every transaction go to realpage_ledger_households, one row per household
        // as last stated. realpage_ledger_changes: corrections, reversals and removals, as in yardi_raw.db.
        Migration(version: 30, name: "rpx ledger merged by transaction", sql: """
            CREATE TABLE realpage_ledger_merged (
                \(lineage)
                resh_id           TEXT NOT NULL,
                unit_id           TEXT,
                unit_number       TEXT,
                household_balance REAL,
                household_prepaid REAL,
                transaction_id    TEXT NOT NULL,
                transaction_type  TEXT NOT NULL,
                transaction_date  TEXT,
                post_month        TEXT,
                transaction_code  TEXT,
                description       TEXT,
                lease_id          TEXT,
                amount            REAL NOT NULL,
                amount_paid       REAL,
                open_amount       REAL,
                reference         TEXT,
                first_run_id      TEXT
            ) STRICT;
            CREATE UNIQUE INDEX realpage_ledger_merged_vendor_id
                ON realpage_ledger_merged (property_id, transaction_type, transaction_id);
            INSERT OR IGNORE INTO realpage_ledger_merged (
                run_id, property_id, as_of_date, artifact, artifact_sha256, source_row, resh_id, unit_id, unit_number,
                household_balance, household_prepaid, transaction_id, transaction_type, transaction_date, post_month,
                transaction_code, description, lease_id, amount, amount_paid, open_amount, reference, first_run_id)
            SELECT run_id, property_id, as_of_date, artifact, artifact_sha256, source_row, resh_id, unit_id, unit_number,
                   household_balance, household_prepaid, transaction_id, transaction_type, transaction_date, post_month,
                   transaction_code, description, lease_id, amount, amount_paid, open_amount, reference, run_id
            FROM realpage_ledger t
            WHERE as_of_date = (SELECT max(as_of_date) FROM realpage_ledger l WHERE l.property_id = t.property_id)
            ORDER BY property_id, source_row;

            CREATE TABLE realpage_ledger_households (
                property_id TEXT NOT NULL,
                resh_id     TEXT NOT NULL,
                unit_id     TEXT,
                unit_number TEXT,
                balance     REAL,
                prepaid     REAL,
                run_id          TEXT NOT NULL,
                as_of_date      TEXT NOT NULL,
                artifact        TEXT NOT NULL,
                artifact_sha256 TEXT NOT NULL,
                PRIMARY KEY (property_id, resh_id)
            ) STRICT;
            INSERT OR IGNORE INTO realpage_ledger_households
                (property_id, resh_id, unit_id, unit_number, balance, prepaid, run_id, as_of_date, artifact, artifact_sha256)
            SELECT property_id, resh_id, max(unit_id), max(unit_number), max(household_balance), max(household_prepaid),
                   max(run_id), max(as_of_date), max(artifact), max(artifact_sha256)
            FROM realpage_ledger_merged GROUP BY property_id, resh_id;

            DROP TABLE realpage_ledger;
            ALTER TABLE realpage_ledger_merged RENAME TO realpage_ledger;
            CREATE INDEX realpage_ledger_household ON realpage_ledger (property_id, resh_id);
            CREATE INDEX realpage_ledger_date ON realpage_ledger (property_id, transaction_date);

            CREATE TABLE realpage_ledger_changes (
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
            CREATE INDEX realpage_ledger_changes_property ON realpage_ledger_changes (property_id, run_id);
            """),
        // What each report's totals rows print beside the sums of its loaded rows: the vendor's own figures, which
        // the sync reconciles the unified tables with (unified sync_checks).
        Migration(version: 25, name: "report printed totals", sql: """
            CREATE TABLE loaded_report_totals (
                id              INTEGER PRIMARY KEY,
                report_type     TEXT    NOT NULL,
                property_id     TEXT    NOT NULL,
                as_of_date      TEXT    NOT NULL,
                run_id          TEXT    NOT NULL,
                artifact_sha256 TEXT    NOT NULL,
                source_row      INTEGER NOT NULL,
                label           TEXT    NOT NULL,
                measure         TEXT    NOT NULL,
                printed         REAL    NOT NULL,
                computed        REAL    NOT NULL
            ) STRICT;
            CREATE INDEX loaded_report_totals_snapshot
                ON loaded_report_totals (report_type, property_id, as_of_date, measure);
            """),
        // Snapshots stored when they change (UnchangedSnapshots): the parsed rows' hash, and for a snapshot identical to
        // the previous one the as-of date whose rows hold it and the run that stored them (NULL: its own rows).
        Migration(version: 35, name: "unchanged snapshots", sql: """
            ALTER TABLE loaded_artifacts ADD COLUMN rows_sha256 TEXT;
            ALTER TABLE loaded_artifacts ADD COLUMN stored_as_of TEXT;
            ALTER TABLE loaded_artifacts ADD COLUMN unchanged_since_run TEXT;
            CREATE INDEX loaded_artifacts_stored ON loaded_artifacts (property_id, stored_as_of)
                WHERE stored_as_of IS NOT NULL;
            """),
        // RPX getunitlist, the nested unit list some partner contracts allow: kept for the floor (`UnitDetails/
        // FloorNumber`), which neither unitlist nor any OneSite report carries.
        RawLineage.migration(version: keyedByLineage),
        RawLineage.changeLogMigration(version: 43, table: "realpage_ledger_changes"),
        // The sync's fingerprint reads a property's artifacts every night: without it, a scan of every property's,
        // which grow by some ten a property a night.
        Migration(version: 44, name: "loaded artifacts by property", sql: """
            CREATE INDEX loaded_artifacts_property ON loaded_artifacts (property_id, as_of_date);
            """),
        // The Rent Roll saved as CSV (one column per charge code) prints the unit designation, the head of household's
        // phone and e-mail, the date a resident on notice is to leave, deposits on hand and the month's total charges;
        // its codes share their unit's sheet row, so a code is one per sheet row and code, not per sheet row.
        Migration(version: 45, name: "rent roll contact, notice and deposits", sql: """
            DROP INDEX realpage_rent_roll_charges_snapshot_row;
            CREATE UNIQUE INDEX realpage_rent_roll_charges_snapshot_row
                ON realpage_rent_roll_charges (property_id, as_of_date, source_row, code);
            ALTER TABLE realpage_rent_roll ADD COLUMN unit_designation TEXT;
            ALTER TABLE realpage_rent_roll ADD COLUMN phone TEXT;
            ALTER TABLE realpage_rent_roll ADD COLUMN email TEXT;
            ALTER TABLE realpage_rent_roll ADD COLUMN notice_for_date TEXT;
            ALTER TABLE realpage_rent_roll ADD COLUMN deposits_on_hand REAL;
            ALTER TABLE realpage_rent_roll ADD COLUMN total_charges REAL;
            """),
        Migration(version: 40, name: "getunitlist unit objects", sql: """
            CREATE TABLE realpage_unit_objects (
                \(lineage)
                unit_id          TEXT NOT NULL,
                unit_number      TEXT,
                building_id      TEXT,
                floorplan_code   TEXT,
                floorplan_name   TEXT,
                bedrooms         INTEGER,
                bathrooms        REAL,
                gross_sqft       INTEGER,
                floor_number     TEXT,
                available        INTEGER,
                made_ready_date  TEXT
            ) STRICT;
            \(naturalKey("realpage_unit_objects"))
            """),
        // An Activity export whose Date cells hold a date and time kept the date only: the time of day, `HH:MM`
        // (24-hour), NULL where the export prints none.
        Migration(version: 46, name: "activity time of day", sql: """
            ALTER TABLE realpage_activity ADD COLUMN activity_time TEXT;
            """),
        // The merged ledger's rows by the load that last wrote them: a sync by change (Sync/LedgerDelta.swift) asks
        // for the rows written since its mark and for the newest one, which scanned the property's whole ledger each
        // night (24 months, tens of thousands of rows) for a few dozen.
        Migration(version: 47, name: "ledger rows by load", sql: """
            CREATE INDEX realpage_ledger_lineage ON realpage_ledger (property_id, lineage_id);
            """),
        // The artifacts by their bytes' sha256: loading a report first asks whether those bytes were loaded before
        // (ReportFileLoader.previousLoad), which read the whole table for each of a night's
        // ~320 reports. The table keeps a row per snapshot kept, so the cost grew with every night (2.3 s of night
        // 107's CPU, against 0.4 s on night 9: a year's nights ever slower).
        Migration(version: 48, name: "loaded artifacts by sha256", sql: """
            CREATE INDEX loaded_artifacts_sha256 ON loaded_artifacts (artifact_sha256);
            """),
        // The merged ledger's deletions counted per property (LedgerRemovals): a sync by change counted the rows it
        // had projected, over the property's whole ledger each night, to know whether one was gone.
        LedgerRemovals.migration(version: 49, ledger: "realpage_ledger"),
        // The household index carries each transaction's type and open amount: the sync's balance check sums every
        // household's open charges each night (RealPageLedger.balanceCheck), which read 24 months of transaction rows
        // through the index (kalaco: 33 -> 9 ms from the index alone). Replaced, not added: its lookups by household
        // are the same, and a load maintains no more indexes than before.
        Migration(version: 50, name: "ledger household index covers open amounts", sql: """
            DROP INDEX realpage_ledger_household;
            CREATE INDEX realpage_ledger_household ON realpage_ledger (property_id, resh_id, transaction_type, open_amount);
            """),
        // The charges still open, by property: a night's open-items answer settles every stored open charge it does
        // not list (LedgerMerger.finish), and finding them read each of the property's charges, a scan that grew with
        // the ledger every night of the year (eden_keller_ranch: 40,203 charges read for 857 open, 24 ms). Its
        // condition is `LedgerTable.openChargeCondition`'s, word for word (a test holds the two together).
        Migration(version: 51, name: "open charges indexed", sql: """
            CREATE INDEX realpage_ledger_open_charges ON realpage_ledger (property_id)
                WHERE transaction_type = 'Charge' AND coalesce(open_amount, 0) <> 0;
            """),
        // Per property, a token each change of its loaded artifacts renews: the sync's fingerprint digests it
        // instead of every artifact row the property kept (RawStateTokens).
        RawStateTokens.migration(version: 52, keyColumn: "report_type", ledgerAnswers: "getresidentledger%"),
        // The Delinquent and Prepaid legend's `*` beside an account's name (DelinquencyParser.evictionMark): 1 marked,
        // 0 not, NULL where the layout prints no legend (and on rows loaded before).
        Migration(version: 53, name: "delinquency eviction mark", sql: """
            ALTER TABLE realpage_delinquency ADD COLUMN under_eviction INTEGER;
            """),
        // A completed turn's later listings, by unit: prune drops a turn from an old snapshot when a later one lists it
        // again (RawRetention.SupersededRows.closedTurns), and finding them read every later snapshot's rows of the
        // property for each row of each old snapshot, a cost that grew with the square of the history (a fifth of a
        // nightly prune after a year of the 30 demo properties; the same rows found 17 times faster by unit).
        Migration(version: 54, name: "closed make-ready turns by unit", sql: """
            CREATE INDEX realpage_closed_make_ready_unit ON realpage_closed_make_ready (property_id, unit_number, as_of_date);
            """),
        // Which build decoded a snapshot's rows (RecordLoad): an RPX whole-state list is loaded by record, its repeated
        // records' rows copied from the night before's snapshot, only when this very build decoded that snapshot.
        // NULL on the snapshots loaded before, which are therefore decoded whole once more.
        Migration(version: 55, name: "decoding build of a snapshot", sql: """
            ALTER TABLE loaded_artifacts ADD COLUMN decoded_by TEXT;
            """),
        // The Activity report's and the Leasing Activity Detail's rows by snapshot and day: the sync reads each
        // snapshot's days up to the first day a newer one holds (RealPageActivity.activityRows), a range of this index
        // instead of every row the snapshot kept (the newest two weeks of 60-day windows stay whole), and each
        // snapshot's first day, an index seek; prune's grouping of each snapshot's first and last day reads it alone.
        Migration(version: 56, name: "activity rows by day", sql: """
            CREATE INDEX realpage_activity_by_day ON realpage_activity (property_id, as_of_date, activity_date);
            CREATE INDEX realpage_leasing_activity_detail_by_day
                ON realpage_leasing_activity_detail (property_id, as_of_date, contact_date);
            """),
        // Each household's `Resident` record as the last whole getresidentledger answer that decoded it sent it
        // (LedgerHouseholds): its digest (with the decoding build and the answer's head), that answer's lineage and
        // how many transactions the record held. The next weekly pull decodes only the households whose record
        // differs or whose merged rows changed since; the others are as stored.
        Migration(version: 57, name: "ledger household records", sql: """
            CREATE TABLE realpage_ledger_records (
                property_id   TEXT NOT NULL,
                resh_id       TEXT NOT NULL,
                record_sha256 TEXT NOT NULL,
                lineage_id    INTEGER NOT NULL,
                transactions  INTEGER NOT NULL,
                PRIMARY KEY (property_id, resh_id)
            ) STRICT, WITHOUT ROWID;
            """),
        // The records of the last whole-state list answer loaded (RecordLoad): per property and operation, that
        // answer's sha256, its XML declaration (NULL: none) and the SHA-256 of each of its records, 32 bytes a record
        // in document order. The next night's answer is compared with these instead of the landed answer read, inflated
        // and cut again.
        Migration(version: 58, name: "record digests", sql: """
            CREATE TABLE record_digests (
                operation       TEXT NOT NULL,
                property_id     TEXT NOT NULL,
                artifact_sha256 TEXT NOT NULL,
                declaration     BLOB,
                digests         BLOB NOT NULL,
                PRIMARY KEY (operation, property_id)
            ) STRICT;
            """),
        // Each household's `Resident` record as the last nightly getresidentledger answer of its kind (`dated`: the
        // window, `open`: the open items) that decoded it sent it (LedgerHouseholds, as realpage_ledger_records for
        // the whole pull), with its transactions' first and last dates (a window's record is held only inside
        // tonight's window). Most of a night's window and open items repeat the night before's.
        Migration(version: 59, name: "ledger household records of the nightly answers", sql: """
            CREATE TABLE realpage_ledger_nightly_records (
                property_id   TEXT NOT NULL,
                answer        TEXT NOT NULL CHECK (answer IN ('dated', 'open')),
                resh_id       TEXT NOT NULL,
                record_sha256 TEXT NOT NULL,
                lineage_id    INTEGER NOT NULL,
                transactions  INTEGER NOT NULL,
                first_date    TEXT,
                last_date     TEXT,
                PRIMARY KEY (property_id, answer, resh_id)
            ) STRICT, WITHOUT ROWID;
            """),
        // Each removed ledger row's key beside the count (LedgerRemovals.logMigration).
        LedgerRemovals.logMigration(version: 60, ledger: "realpage_ledger", kindColumn: "transaction_type"),
        // The residents' and leases' rows a load by record copies (RecordLoad) keep the date of the snapshot that
        // decoded their record (`changed_on`; NULL: the row's own snapshot decoded it), so that the sync can tell the
        // households whose records moved since the snapshot it last read (RealPageEventHouseholds) from the rows alone.
        Migration(version: 61, name: "date a list record was decoded", sql: """
            ALTER TABLE realpage_residents ADD COLUMN changed_on TEXT;
            ALTER TABLE realpage_leases ADD COLUMN changed_on TEXT;
            """),
        // The household and lease of each residents or leases row of the night before that a load by record did not
        // copy (its record changed or left the list), under the snapshot that dropped it, and how many such rows
        // each snapshot written by record dropped (`rows_dropped`; NULL: decoded whole): with `changed_on`, what
        // moved since a snapshot without reading that snapshot again (RealPageEventHouseholds).
        Migration(version: 62, name: "list rows a load by record dropped", sql: """
            CREATE TABLE list_rows_dropped (
                list         TEXT NOT NULL,
                property_id  TEXT NOT NULL,
                as_of_date   TEXT NOT NULL,
                household_id TEXT,
                lease_id     TEXT
            ) STRICT;
            CREATE INDEX list_rows_dropped_by_snapshot ON list_rows_dropped (list, property_id, as_of_date);
            ALTER TABLE loaded_artifacts ADD COLUMN rows_dropped INTEGER;
            """),
    ]

    // MARK: - Tables declared by report descriptors

    /// One migration per version that report descriptors name: the tables created at that version (their columns
    /// as declared) and the columns added to older tables. Forward-only like the rest: a descriptor's table or
    /// column, once released, only ever gains columns, each with the later `since` that adds it.
    static var descriptorMigrations: [Migration] {
        let tables = ReportCatalog.all.flatMap { [$0.table] + $0.childTables }.filter { $0.since != nil }
        var versions = Set(tables.compactMap(\.since))
        for table in tables { versions.formUnion(table.columns.compactMap(\.since)) }
        return versions.sorted().map { version in
            let created = tables.filter { $0.since == version }
            var sql = created.map(createStatement).joined(separator: "\n")
            for table in tables where table.since != version {
                for column in table.columns where column.since == version {
                    sql += "\nALTER TABLE \(table.name) ADD COLUMN \(column.name) \(column.kind.sqlType);"
                }
            }
            let names = created.map(\.name).joined(separator: ", ")
            return Migration(version: version, name: names.isEmpty ? "report columns" : "report tables: \(names)",
                             sql: sql)
        }
    }

    /// `CREATE TABLE` of a descriptor's table: lineage, then its columns created with it (keys NOT NULL); a table
    /// created after `keyedByLineage` gets `lineage_id` and its `v_` view.
    static func createStatement(_ table: RawTable) -> String {
        let keyed = (table.since ?? 0) > keyedByLineage
        let columns = table.columns.filter { $0.since == nil || $0.since == table.since }.map { column in
            "    \(column.name) \(column.kind.sqlType)\(column.isKey ? " NOT NULL" : "")"
        }
        return """
            CREATE TABLE \(table.name) (
            \(RawLineage.columns(keyed: keyed))
            \(columns.joined(separator: ",\n"))
            ) STRICT;
            \(naturalKey(table.name))
            \(keyed ? RawLineage.view(table.name) : "")
            """
    }
}
