import SQLiteKit

// unified.db for every SQL tool (issue 17): the migrations that make the schema readable by Datasette, DuckDB and any
// other SQLite client, and the views analysts ask for first. They are appended to `UnifiedSchema.migrations`.
extension UnifiedSchema {
    /// Migrations 30-31: foreign keys that name their columns, the unit flags as plain columns, refused runs; views.
    static let sqlToolMigrations: [Migration] = [
        // Every foreign key written `REFERENCES unified_properties` without a column names its target column NULL in
        // `PRAGMA foreign_key_list`: SQLite itself resolves it to the primary key, but tools that read the pragma
        // (Datasette: an HTTP 500 on every such table and on the tables they point to) do not. SQLite cannot alter a
        // constraint, so each such table is rebuilt by its 12-step procedure (new table, copy, drop, rename,
        // indexes and triggers again), with foreign keys off and checked before commit (`rebuildsTables`).
        // unified_units' generated flags become plain columns kept by triggers (generated columns are hidden from
        // `PRAGMA table_info`, hence from DuckDB's SQLite scanner); etl_runs learns `refused` and `detail`.
        Migration(version: 30, name: "foreign keys name their columns; unit flags stored; refused runs", sql: """
            -- unified_units
            CREATE TABLE unified_units_new (
                unified_property_id TEXT    NOT NULL REFERENCES unified_properties (unified_property_id) ON DELETE CASCADE,
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
                -- The flags follow from `status` alone (RealPage Box Score meanings: leased = Net Leased = vacant leased +
                -- occupied without notice + on notice and pre-leased). Plain columns, not generated ones, so every SQL
                -- tool sees them (DuckDB's SQLite scanner and PRAGMA table_info skip generated columns): the triggers
                -- below set them from `status` after every insert and every update of the status or of a flag that
                -- leaves them disagreeing with it, so a flag left out or written by hand is put right. (A CHECK would
                -- refuse the status update itself: it is checked before an AFTER trigger runs.)
                is_occupied         INTEGER,
                is_leased           INTEGER,
                is_on_notice        INTEGER,
                is_model            INTEGER,
                is_down             INTEGER,
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
            INSERT INTO unified_units_new (unified_property_id, unit_number, pms_unit_id, building, floor, floorplan, floorplan_name, bedrooms, bathrooms, sqft, status, pms_status, is_occupied, is_leased, is_on_notice, is_model, is_down, is_ready, market_rent, actual_rent, resident_id, lease_id, notice_for_date, available_date, made_ready_date, vacant_since)
                SELECT unified_property_id, unit_number, pms_unit_id, building, floor, floorplan, floorplan_name, bedrooms, bathrooms, sqft, status, pms_status,
                       status IN ('occupied', 'occupied_notice', 'occupied_notice_leased'),
                       status IN ('occupied', 'occupied_notice_leased', 'vacant_leased'),
                       status IN ('occupied_notice', 'occupied_notice_leased'), status = 'model', status = 'down',
                       is_ready, market_rent, actual_rent, resident_id, lease_id, notice_for_date, available_date, made_ready_date, vacant_since FROM unified_units;
            DROP TABLE unified_units;
            ALTER TABLE unified_units_new RENAME TO unified_units;
            -- Only a row whose flags disagree with its status (NULL: not given) is updated: the sync's inserts give them
            -- (UnitFlags), so a bulk insert costs no second write per row.
            CREATE TRIGGER unified_units_flags_on_insert AFTER INSERT ON unified_units
                WHEN NEW.is_occupied  IS NOT (NEW.status IN ('occupied', 'occupied_notice', 'occupied_notice_leased'))
                  OR NEW.is_leased    IS NOT (NEW.status IN ('occupied', 'occupied_notice_leased', 'vacant_leased'))
                  OR NEW.is_on_notice IS NOT (NEW.status IN ('occupied_notice', 'occupied_notice_leased'))
                  OR NEW.is_model     IS NOT (NEW.status = 'model')
                  OR NEW.is_down      IS NOT (NEW.status = 'down')
                BEGIN
                UPDATE unified_units SET
                    is_occupied  = (NEW.status IN ('occupied', 'occupied_notice', 'occupied_notice_leased')),
                    is_leased    = (NEW.status IN ('occupied', 'occupied_notice_leased', 'vacant_leased')),
                    is_on_notice = (NEW.status IN ('occupied_notice', 'occupied_notice_leased')),
                    is_model     = (NEW.status = 'model'),
                    is_down      = (NEW.status = 'down')
                WHERE rowid = NEW.rowid;
            END;
            CREATE TRIGGER unified_units_flags_on_status
                AFTER UPDATE OF status, is_occupied, is_leased, is_on_notice, is_model, is_down ON unified_units
                WHEN NEW.is_occupied  IS NOT (NEW.status IN ('occupied', 'occupied_notice', 'occupied_notice_leased'))
                  OR NEW.is_leased    IS NOT (NEW.status IN ('occupied', 'occupied_notice_leased', 'vacant_leased'))
                  OR NEW.is_on_notice IS NOT (NEW.status IN ('occupied_notice', 'occupied_notice_leased'))
                  OR NEW.is_model     IS NOT (NEW.status = 'model')
                  OR NEW.is_down      IS NOT (NEW.status = 'down')
                BEGIN
                UPDATE unified_units SET
                    is_occupied  = (NEW.status IN ('occupied', 'occupied_notice', 'occupied_notice_leased')),
                    is_leased    = (NEW.status IN ('occupied', 'occupied_notice_leased', 'vacant_leased')),
                    is_on_notice = (NEW.status IN ('occupied_notice', 'occupied_notice_leased')),
                    is_model     = (NEW.status = 'model'),
                    is_down      = (NEW.status = 'down')
                WHERE rowid = NEW.rowid;
            END;

            -- unified_residents
            CREATE TABLE unified_residents_new (
                unified_property_id TEXT NOT NULL REFERENCES unified_properties (unified_property_id) ON DELETE CASCADE,
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
            INSERT INTO unified_residents_new (unified_property_id, resident_id, unit_number, lease_id, name, first_name, last_name, email, phone, status, pms_status, move_in_date, notice_date, move_out_date, current_rent, balance)
                SELECT unified_property_id, resident_id, unit_number, lease_id, name, first_name, last_name, email, phone, status, pms_status, move_in_date, notice_date, move_out_date, current_rent, balance FROM unified_residents;
            DROP TABLE unified_residents;
            ALTER TABLE unified_residents_new RENAME TO unified_residents;
            CREATE INDEX unified_residents_unit ON unified_residents (unified_property_id, unit_number);

            -- unified_leases
            CREATE TABLE unified_leases_new (
                unified_property_id TEXT    NOT NULL REFERENCES unified_properties (unified_property_id) ON DELETE CASCADE,
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
            INSERT INTO unified_leases_new (unified_property_id, lease_id, unit_number, resident_id, start_date, end_date, signed_date, move_in_date, rent_amount, security_deposit, status, pms_status, is_renewal, is_month_to_month, prior_lease_id)
                SELECT unified_property_id, lease_id, unit_number, resident_id, start_date, end_date, signed_date, move_in_date, rent_amount, security_deposit, status, pms_status, is_renewal, is_month_to_month, prior_lease_id FROM unified_leases;
            DROP TABLE unified_leases;
            ALTER TABLE unified_leases_new RENAME TO unified_leases;
            CREATE INDEX unified_leases_unit ON unified_leases (unified_property_id, unit_number);

            -- unified_lease_residents
            CREATE TABLE unified_lease_residents_new (
                unified_property_id TEXT NOT NULL,
                lease_id            TEXT NOT NULL,
                resident_id         TEXT NOT NULL,
                role                TEXT NOT NULL CHECK (role IN ('head', 'co_resident', 'occupant', 'guarantor')),
                PRIMARY KEY (unified_property_id, lease_id, resident_id),
                FOREIGN KEY (unified_property_id, lease_id) REFERENCES unified_leases (unified_property_id, lease_id) ON DELETE CASCADE
            ) STRICT;
            INSERT INTO unified_lease_residents_new (unified_property_id, lease_id, resident_id, role)
                SELECT unified_property_id, lease_id, resident_id, role FROM unified_lease_residents;
            DROP TABLE unified_lease_residents;
            ALTER TABLE unified_lease_residents_new RENAME TO unified_lease_residents;

            -- unified_activity
            CREATE TABLE unified_activity_new (
                id                  INTEGER PRIMARY KEY,
                unified_property_id TEXT NOT NULL REFERENCES unified_properties (unified_property_id) ON DELETE CASCADE,
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
            INSERT INTO unified_activity_new (id, unified_property_id, event_date, event_type, pms_event_type, unit_number, party_name, party_id, source, agent)
                SELECT id, unified_property_id, event_date, event_type, pms_event_type, unit_number, party_name, party_id, source, agent FROM unified_activity;
            DROP TABLE unified_activity;
            ALTER TABLE unified_activity_new RENAME TO unified_activity;
            CREATE INDEX unified_activity_by_date ON unified_activity (unified_property_id, event_date, event_type);

            -- unified_occupancy_metrics
            CREATE TABLE unified_occupancy_metrics_new (
                unified_property_id TEXT    NOT NULL REFERENCES unified_properties (unified_property_id) ON DELETE CASCADE,
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
            INSERT INTO unified_occupancy_metrics_new (unified_property_id, as_of_date, total_units, occupied_units, vacant_units, vacant_leased, vacant_not_leased, vacant_ready, vacant_not_ready, aged_vacant_90, aged_vacancy_cost, on_notice, notice_leased, notice_not_leased, pre_leased, model_units, down_units, leased_units, physical_occupancy, leased_pct, exposure_now, exposure_30, exposure_60, exposure_now_pct, exposure_30_pct, exposure_60_pct, source, run_id)
                SELECT unified_property_id, as_of_date, total_units, occupied_units, vacant_units, vacant_leased, vacant_not_leased, vacant_ready, vacant_not_ready, aged_vacant_90, aged_vacancy_cost, on_notice, notice_leased, notice_not_leased, pre_leased, model_units, down_units, leased_units, physical_occupancy, leased_pct, exposure_now, exposure_30, exposure_60, exposure_now_pct, exposure_30_pct, exposure_60_pct, source, run_id FROM unified_occupancy_metrics;
            DROP TABLE unified_occupancy_metrics;
            ALTER TABLE unified_occupancy_metrics_new RENAME TO unified_occupancy_metrics;

            -- unified_pricing_metrics
            CREATE TABLE unified_pricing_metrics_new (
                unified_property_id TEXT    NOT NULL REFERENCES unified_properties (unified_property_id) ON DELETE CASCADE,
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
            INSERT INTO unified_pricing_metrics_new (unified_property_id, as_of_date, floorplan, floorplan_name, bedrooms, units, occupied_units, avg_sqft, in_place_rent, in_place_psf, asking_rent, asking_psf, loss_to_lease, run_id)
                SELECT unified_property_id, as_of_date, floorplan, floorplan_name, bedrooms, units, occupied_units, avg_sqft, in_place_rent, in_place_psf, asking_rent, asking_psf, loss_to_lease, run_id FROM unified_pricing_metrics;
            DROP TABLE unified_pricing_metrics;
            ALTER TABLE unified_pricing_metrics_new RENAME TO unified_pricing_metrics;

            -- unified_delinquency
            CREATE TABLE unified_delinquency_new (
                unified_property_id TEXT NOT NULL REFERENCES unified_properties (unified_property_id) ON DELETE CASCADE,
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
            INSERT INTO unified_delinquency_new (unified_property_id, as_of_date, resident_id, unit_number, name, resident_status, current_balance, balance_0_30, balance_31_60, balance_61_90, balance_over_90, prepaid, source, run_id)
                SELECT unified_property_id, as_of_date, resident_id, unit_number, name, resident_status, current_balance, balance_0_30, balance_31_60, balance_61_90, balance_over_90, prepaid, source, run_id FROM unified_delinquency;
            DROP TABLE unified_delinquency;
            ALTER TABLE unified_delinquency_new RENAME TO unified_delinquency;

            -- unified_sync_warnings
            CREATE TABLE unified_sync_warnings_new (
                unified_property_id TEXT NOT NULL REFERENCES unified_properties (unified_property_id) ON DELETE CASCADE,
                as_of_date          TEXT NOT NULL,
                check_name          TEXT NOT NULL,
                subject             TEXT NOT NULL DEFAULT '',
                expected            TEXT,
                actual              TEXT,
                message             TEXT NOT NULL,
                run_id              TEXT,
                PRIMARY KEY (unified_property_id, check_name, subject)
            ) STRICT;
            INSERT INTO unified_sync_warnings_new (unified_property_id, as_of_date, check_name, subject, expected, actual, message, run_id)
                SELECT unified_property_id, as_of_date, check_name, subject, expected, actual, message, run_id FROM unified_sync_warnings;
            DROP TABLE unified_sync_warnings;
            ALTER TABLE unified_sync_warnings_new RENAME TO unified_sync_warnings;

            -- etl_runs
            CREATE TABLE etl_runs_new (
                run_id              TEXT PRIMARY KEY,
                trigger             TEXT NOT NULL,
                command             TEXT,
                as_of_date          TEXT,
                started_at          TEXT NOT NULL,
                finished_at         TEXT,
                -- refused: asked for while another process held the data directory's lock; nothing was done.
                status              TEXT NOT NULL CHECK (status IN ('running', 'succeeded', 'partial', 'failed', 'abandoned', 'refused')),
                pid                 INTEGER,
                host                TEXT,
                properties          INTEGER NOT NULL DEFAULT 0,
                artifacts_fetched   INTEGER NOT NULL DEFAULT 0,
                rows_loaded         INTEGER NOT NULL DEFAULT 0,
                properties_synced   INTEGER NOT NULL DEFAULT 0,
                failures            INTEGER NOT NULL DEFAULT 0,
                warnings            INTEGER NOT NULL DEFAULT 0,
                -- Why the run ended as it did, in words (a refused run: who held the lock); NULL for runs before migration 30.
                detail              TEXT
            ) STRICT;
            INSERT INTO etl_runs_new (run_id, trigger, command, as_of_date, started_at, finished_at, status, pid, host, properties, artifacts_fetched, rows_loaded, properties_synced, failures, warnings)
                SELECT run_id, trigger, command, as_of_date, started_at, finished_at, status, pid, host, properties, artifacts_fetched, rows_loaded, properties_synced, failures, warnings FROM etl_runs;
            DROP TABLE etl_runs;
            ALTER TABLE etl_runs_new RENAME TO etl_runs;

            -- etl_run_items
            CREATE TABLE etl_run_items_new (
                id                  INTEGER PRIMARY KEY,
                run_id              TEXT    NOT NULL REFERENCES etl_runs (run_id) ON DELETE CASCADE,
                property_id         TEXT,
                stage               TEXT    NOT NULL CHECK (stage IN ('fetch', 'load', 'sync')),
                artifact            TEXT,
                status              TEXT    NOT NULL CHECK (status IN ('succeeded', 'failed', 'skipped')),
                rows                INTEGER,
                duration_ms         INTEGER,
                error               TEXT
            ) STRICT;
            INSERT INTO etl_run_items_new (id, run_id, property_id, stage, artifact, status, rows, duration_ms, error)
                SELECT id, run_id, property_id, stage, artifact, status, rows, duration_ms, error FROM etl_run_items;
            DROP TABLE etl_run_items;
            ALTER TABLE etl_run_items_new RENAME TO etl_run_items;
            CREATE INDEX etl_run_items_run ON etl_run_items (run_id, stage, property_id);

            -- unified_charges
            CREATE TABLE unified_charges_new (
                unified_property_id TEXT NOT NULL REFERENCES unified_properties (unified_property_id) ON DELETE CASCADE,
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
            INSERT INTO unified_charges_new (unified_property_id, charge_id, resident_id, lease_id, unit_number, charge_code, description, category, category_known, period, charge_date, due_date, amount, amount_paid, balance)
                SELECT unified_property_id, charge_id, resident_id, lease_id, unit_number, charge_code, description, category, category_known, period, charge_date, due_date, amount, amount_paid, balance FROM unified_charges;
            DROP TABLE unified_charges;
            ALTER TABLE unified_charges_new RENAME TO unified_charges;
            CREATE INDEX unified_charges_by_resident ON unified_charges (unified_property_id, resident_id, period);
            CREATE INDEX unified_charges_by_lease
                ON unified_charges (unified_property_id, lease_id, period, charge_code, amount, resident_id);

            -- unified_payments
            CREATE TABLE unified_payments_new (
                unified_property_id TEXT NOT NULL REFERENCES unified_properties (unified_property_id) ON DELETE CASCADE,
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
            INSERT INTO unified_payments_new (unified_property_id, payment_id, resident_id, lease_id, unit_number, payment_date, period, amount, reference, payment_type)
                SELECT unified_property_id, payment_id, resident_id, lease_id, unit_number, payment_date, period, amount, reference, payment_type FROM unified_payments;
            DROP TABLE unified_payments;
            ALTER TABLE unified_payments_new RENAME TO unified_payments;
            CREATE INDEX unified_payments_by_resident ON unified_payments (unified_property_id, resident_id, period);

            -- unified_recurring_charges
            CREATE TABLE unified_recurring_charges_new (
                unified_property_id TEXT NOT NULL REFERENCES unified_properties (unified_property_id) ON DELETE CASCADE,
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
            INSERT INTO unified_recurring_charges_new (unified_property_id, lease_id, resident_id, unit_number, charge_code, description, category, category_known, amount, start_date, end_date)
                SELECT unified_property_id, lease_id, resident_id, unit_number, charge_code, description, category, category_known, amount, start_date, end_date FROM unified_recurring_charges;
            DROP TABLE unified_recurring_charges;
            ALTER TABLE unified_recurring_charges_new RENAME TO unified_recurring_charges;

            -- audit_run_properties
            CREATE TABLE audit_run_properties_new (
                run_id              INTEGER NOT NULL REFERENCES audit_runs (run_id) ON DELETE CASCADE,
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
                not_audited         INTEGER,
                not_audited_reason  TEXT,
                PRIMARY KEY (run_id, unified_property_id)
            ) STRICT;
            INSERT INTO audit_run_properties_new (run_id, unified_property_id, has_ledger, as_of_date, leases, lines, matched, missing, unexpected, undercharge, overcharge, undercharge_total, overcharge_total, not_audited, not_audited_reason)
                SELECT run_id, unified_property_id, has_ledger, as_of_date, leases, lines, matched, missing, unexpected, undercharge, overcharge, undercharge_total, overcharge_total, not_audited, not_audited_reason FROM audit_run_properties;
            DROP TABLE audit_run_properties;
            ALTER TABLE audit_run_properties_new RENAME TO audit_run_properties;

            -- audit_lease_charges
            CREATE TABLE audit_lease_charges_new (
                run_id              INTEGER NOT NULL REFERENCES audit_runs (run_id) ON DELETE CASCADE,
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
            INSERT INTO audit_lease_charges_new (run_id, unified_property_id, lease_id, resident_id, unit_number, charge_code, months, matched, exceptions, expected_total, posted_total)
                SELECT run_id, unified_property_id, lease_id, resident_id, unit_number, charge_code, months, matched, exceptions, expected_total, posted_total FROM audit_lease_charges;
            DROP TABLE audit_lease_charges;
            ALTER TABLE audit_lease_charges_new RENAME TO audit_lease_charges;

            -- audit_results
            CREATE TABLE audit_results_new (
                run_id              INTEGER NOT NULL REFERENCES audit_runs (run_id) ON DELETE CASCADE,
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
            INSERT INTO audit_results_new (run_id, unified_property_id, lease_id, resident_id, unit_number, charge_code, month, expected, posted, variance, kind)
                SELECT run_id, unified_property_id, lease_id, resident_id, unit_number, charge_code, month, expected, posted, variance, kind FROM audit_results;
            DROP TABLE audit_results;
            ALTER TABLE audit_results_new RENAME TO audit_results;
            CREATE INDEX audit_results_by_key ON audit_results (unified_property_id, lease_id, charge_code, month);

            -- audit_resolutions
            CREATE TABLE audit_resolutions_new (
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
                run_id              INTEGER NOT NULL REFERENCES audit_runs (run_id),
                CHECK (event = 'reopened' OR (fix IS NOT NULL AND action IS NOT NULL))
            ) STRICT;
            INSERT INTO audit_resolutions_new (event_id, unified_property_id, lease_id, charge_code, month, event, fix, action, by_name, at, note, run_id)
                SELECT event_id, unified_property_id, lease_id, charge_code, month, event, fix, action, by_name, at, note, run_id FROM audit_resolutions;
            -- AUTOINCREMENT: the new table continues the old one's sequence, so no event id is ever handed out twice.
            DELETE FROM sqlite_sequence WHERE name = 'audit_resolutions_new';
            INSERT INTO sqlite_sequence (name, seq) SELECT 'audit_resolutions_new', seq FROM sqlite_sequence WHERE name = 'audit_resolutions';
            DROP TABLE audit_resolutions;
            ALTER TABLE audit_resolutions_new RENAME TO audit_resolutions;
            CREATE INDEX audit_resolutions_by_key ON audit_resolutions (unified_property_id, lease_id, charge_code, month, event_id);

            -- unified_work_orders
            CREATE TABLE unified_work_orders_new (
                unified_property_id TEXT    NOT NULL REFERENCES unified_properties (unified_property_id) ON DELETE CASCADE,
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
            INSERT INTO unified_work_orders_new (unified_property_id, work_order_id, unit_number, category, description, status, pms_status, opened_date, due_date, completed_date, days_to_complete, source)
                SELECT unified_property_id, work_order_id, unit_number, category, description, status, pms_status, opened_date, due_date, completed_date, days_to_complete, source FROM unified_work_orders;
            DROP TABLE unified_work_orders;
            ALTER TABLE unified_work_orders_new RENAME TO unified_work_orders;
            CREATE INDEX unified_work_orders_by_status ON unified_work_orders (unified_property_id, status, completed_date);

            -- unified_expenses
            CREATE TABLE unified_expenses_new (
                unified_property_id TEXT    NOT NULL REFERENCES unified_properties (unified_property_id) ON DELETE CASCADE,
                month               TEXT    NOT NULL,
                gl_account          TEXT    NOT NULL,
                account_name        TEXT,
                gl_category         TEXT    NOT NULL,
                category_known      INTEGER NOT NULL CHECK (category_known IN (0, 1)),
                amount              REAL    NOT NULL,
                source              TEXT    NOT NULL,
                PRIMARY KEY (unified_property_id, month, gl_account)
            ) STRICT;
            INSERT INTO unified_expenses_new (unified_property_id, month, gl_account, account_name, gl_category, category_known, amount, source)
                SELECT unified_property_id, month, gl_account, account_name, gl_category, category_known, amount, source FROM unified_expenses;
            DROP TABLE unified_expenses;
            ALTER TABLE unified_expenses_new RENAME TO unified_expenses;

            -- unified_ledger_balances
            CREATE TABLE unified_ledger_balances_new (
                unified_property_id TEXT NOT NULL REFERENCES unified_properties (unified_property_id) ON DELETE CASCADE,
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
            INSERT INTO unified_ledger_balances_new (unified_property_id, resident_id, unit_number, charge_code, description, category, category_known, as_of_date, balance, delinquent, balance_0_30, balance_31_60, balance_61_90, balance_over_90, prepaid, source)
                SELECT unified_property_id, resident_id, unit_number, charge_code, description, category, category_known, as_of_date, balance, delinquent, balance_0_30, balance_31_60, balance_61_90, balance_over_90, prepaid, source FROM unified_ledger_balances;
            DROP TABLE unified_ledger_balances;
            ALTER TABLE unified_ledger_balances_new RENAME TO unified_ledger_balances;

            -- unified_household_balances
            CREATE TABLE unified_household_balances_new (
                unified_property_id TEXT NOT NULL REFERENCES unified_properties (unified_property_id) ON DELETE CASCADE,
                resident_id         TEXT NOT NULL,
                as_of_date          TEXT NOT NULL,
                charges             REAL NOT NULL,
                payments            REAL NOT NULL,
                balance             REAL NOT NULL,
                PRIMARY KEY (unified_property_id, resident_id)
            ) STRICT;
            INSERT INTO unified_household_balances_new (unified_property_id, resident_id, as_of_date, charges, payments, balance)
                SELECT unified_property_id, resident_id, as_of_date, charges, payments, balance FROM unified_household_balances;
            DROP TABLE unified_household_balances;
            ALTER TABLE unified_household_balances_new RENAME TO unified_household_balances;
            """, rebuildsTables: true),
        Migration(version: 31, name: "analyst views", sql: """
            -- What analysts ask first, answered once (docs/analysts.md, "unified.db for analysts"). Money in the views is
            -- rounded to cents, and every sum is taken in integer cents (`sum(CAST(round(x * 100) AS INTEGER)) / 100.0`), so
            -- a total is exact to the cent instead of carrying the float noise of `SUM(REAL)`.

            -- Every unit with its property and the status flags; days_vacant counted to the property's date.
            CREATE VIEW v_units AS
            SELECT u.unified_property_id, p.name AS property_name, p.as_of_date, u.unit_number, u.building, u.floor,
                   u.floorplan, u.floorplan_name, u.bedrooms, u.bathrooms, u.sqft, u.status, u.pms_status,
                   u.is_occupied, u.is_leased, u.is_on_notice, u.is_model, u.is_down, u.is_ready,
                   round(u.market_rent, 2) AS market_rent, round(u.actual_rent, 2) AS actual_rent,
                   u.resident_id, u.lease_id, u.notice_for_date, u.available_date, u.made_ready_date, u.vacant_since,
                   CAST(julianday(p.as_of_date) - julianday(u.vacant_since) AS INTEGER) AS days_vacant
            FROM unified_units u
            JOIN unified_properties p ON p.unified_property_id = u.unified_property_id;

            -- Each property's latest occupancy snapshot: one row per property.
            CREATE VIEW v_occupancy_latest AS
            SELECT o.unified_property_id, p.name AS property_name, p.pms_source, o.as_of_date, o.total_units,
                   o.occupied_units, o.vacant_units, o.vacant_leased, o.vacant_not_leased, o.vacant_ready, o.vacant_not_ready,
                   o.aged_vacant_90, round(o.aged_vacancy_cost, 2) AS aged_vacancy_cost, o.on_notice, o.notice_leased,
                   o.notice_not_leased, o.pre_leased, o.model_units, o.down_units, o.leased_units, o.physical_occupancy,
                   o.leased_pct, o.exposure_now, o.exposure_30, o.exposure_60, o.exposure_now_pct, o.exposure_30_pct,
                   o.exposure_60_pct, o.source, o.run_id
            FROM unified_occupancy_metrics o
            JOIN unified_properties p ON p.unified_property_id = o.unified_property_id
            WHERE o.as_of_date = (SELECT max(latest.as_of_date) FROM unified_occupancy_metrics latest
                                  WHERE latest.unified_property_id = o.unified_property_id);

            -- Each property's latest pricing snapshot: one row per property and floor plan.
            CREATE VIEW v_pricing_latest AS
            SELECT r.unified_property_id, p.name AS property_name, r.as_of_date, r.floorplan, r.floorplan_name, r.bedrooms,
                   r.units, r.occupied_units, r.avg_sqft, round(r.in_place_rent, 2) AS in_place_rent, r.in_place_psf,
                   round(r.asking_rent, 2) AS asking_rent, r.asking_psf, round(r.loss_to_lease, 2) AS loss_to_lease, r.run_id
            FROM unified_pricing_metrics r
            JOIN unified_properties p ON p.unified_property_id = r.unified_property_id
            WHERE r.as_of_date = (SELECT max(latest.as_of_date) FROM unified_pricing_metrics latest
                                  WHERE latest.unified_property_id = r.unified_property_id);

            -- Each property's latest delinquency snapshot: one row per household that owes or is in credit.
            CREATE VIEW v_delinquency_latest AS
            SELECT d.unified_property_id, p.name AS property_name, d.as_of_date, d.resident_id, d.unit_number, d.name,
                   d.resident_status, round(d.current_balance, 2) AS current_balance, round(d.balance_0_30, 2) AS balance_0_30,
                   round(d.balance_31_60, 2) AS balance_31_60, round(d.balance_61_90, 2) AS balance_61_90,
                   round(d.balance_over_90, 2) AS balance_over_90, round(d.prepaid, 2) AS prepaid, d.source, d.run_id
            FROM unified_delinquency d
            JOIN unified_properties p ON p.unified_property_id = d.unified_property_id
            WHERE d.as_of_date = (SELECT max(latest.as_of_date) FROM unified_delinquency latest
                                  WHERE latest.unified_property_id = d.unified_property_id);

            -- The latest delinquency snapshot totalled per property, exact to the cent.
            CREATE VIEW v_delinquency_totals_latest AS
            SELECT unified_property_id, property_name, as_of_date, count(*) AS households,
                   sum(current_balance > 0) AS households_owing,
                   sum(CAST(round(current_balance * 100) AS INTEGER)) / 100.0 AS current_balance,
                   sum(CAST(round(balance_0_30 * 100) AS INTEGER)) / 100.0 AS balance_0_30,
                   sum(CAST(round(balance_31_60 * 100) AS INTEGER)) / 100.0 AS balance_31_60,
                   sum(CAST(round(balance_61_90 * 100) AS INTEGER)) / 100.0 AS balance_61_90,
                   sum(CAST(round(balance_over_90 * 100) AS INTEGER)) / 100.0 AS balance_over_90,
                   sum(CAST(round(prepaid * 100) AS INTEGER)) / 100.0 AS prepaid
            FROM v_delinquency_latest
            GROUP BY unified_property_id, property_name, as_of_date;

            -- The tenant ledger per property and month: what was charged (by the charge's period) and what was paid (by the
            -- payment's period), exact to the cent. Months with only charges or only payments have 0 for the other.
            CREATE VIEW v_ledger_monthly AS
            SELECT unified_property_id, month,
                   sum(charges) AS charges,
                   sum(CAST(round(charged * 100) AS INTEGER)) / 100.0 AS charged,
                   sum(CAST(round(rent_charged * 100) AS INTEGER)) / 100.0 AS rent_charged,
                   sum(payments) AS payments,
                   sum(CAST(round(paid * 100) AS INTEGER)) / 100.0 AS paid,
                   (sum(CAST(round(charged * 100) AS INTEGER)) - sum(CAST(round(paid * 100) AS INTEGER))) / 100.0 AS net
            FROM (SELECT unified_property_id, period AS month, 1 AS charges, amount AS charged,
                         CASE WHEN category = 'RENT' THEN amount ELSE 0 END AS rent_charged, 0 AS payments, 0 AS paid
                  FROM unified_charges
                  UNION ALL
                  SELECT unified_property_id, period, 0, 0, 0, 1, amount
                  FROM unified_payments)
            GROUP BY unified_property_id, month;

            -- Operating expenses per property, month and GL category, exact to the cent.
            CREATE VIEW v_expenses_monthly AS
            SELECT unified_property_id, month, gl_category, count(*) AS accounts,
                   sum(CAST(round(amount * 100) AS INTEGER)) / 100.0 AS amount
            FROM unified_expenses
            GROUP BY unified_property_id, month, gl_category;

            -- Each property in one row: its sources, its date and its latest occupancy and delinquency figures.
            CREATE VIEW v_properties AS
            SELECT p.unified_property_id, p.name, p.pms_source, p.pms_property_id, p.address, p.total_units, p.as_of_date,
                   p.last_synced_at, p.last_run_id, p.ledger_source, p.ledger_coverage, p.work_order_source, p.expense_source,
                   o.physical_occupancy, o.leased_pct, o.exposure_30_pct,
                   d.households AS delinquent_households, d.current_balance AS delinquent_balance
            FROM unified_properties p
            LEFT JOIN v_occupancy_latest o ON o.unified_property_id = p.unified_property_id
            LEFT JOIN v_delinquency_totals_latest d ON d.unified_property_id = p.unified_property_id;
            """),
        // The same view with its subquery named, as PostgreSQL 15 requires of a subquery in FROM, so the one definition
        // serves both engines (PostgresUnified's schema is generated from this one). Its rows are unchanged.
        Migration(version: 46, name: "v_ledger_monthly names its subquery", sql: """
            DROP VIEW v_ledger_monthly;
            CREATE VIEW v_ledger_monthly AS
            SELECT unified_property_id, month,
                   sum(charges) AS charges,
                   sum(CAST(round(charged * 100) AS INTEGER)) / 100.0 AS charged,
                   sum(CAST(round(rent_charged * 100) AS INTEGER)) / 100.0 AS rent_charged,
                   sum(payments) AS payments,
                   sum(CAST(round(paid * 100) AS INTEGER)) / 100.0 AS paid,
                   (sum(CAST(round(charged * 100) AS INTEGER)) - sum(CAST(round(paid * 100) AS INTEGER))) / 100.0 AS net
            FROM (SELECT unified_property_id, period AS month, 1 AS charges, amount AS charged,
                         CASE WHEN category = 'RENT' THEN amount ELSE 0 END AS rent_charged, 0 AS payments, 0 AS paid
                  FROM unified_charges
                  UNION ALL
                  SELECT unified_property_id, period, 0, 0, 0, 1, amount
                  FROM unified_payments) AS ledger_lines
            GROUP BY unified_property_id, month;
            """),
    ]
}
