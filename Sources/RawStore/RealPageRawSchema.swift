import SQLiteKit

/// The schema of realpage_raw.db (DESIGN section 4), as forward-only migrations.
///
/// Raw tables are shaped like the reports. Every row carries its lineage: the run that
/// loaded it, the property and as-of date of the report, the artifact (file path) and its
/// sha256, and the sheet row it came from. Money is REAL dollars rounded to cents; dates
/// are `YYYY-MM-DD` text. A report is a snapshot: one (property, as_of_date) per report
/// table holds the rows of exactly one artifact (see `loaded_artifacts`).
public enum RealPageRawSchema {
    /// Columns every raw table starts with.
    static let lineage = """
        id              INTEGER PRIMARY KEY,
        run_id          TEXT    NOT NULL,
        property_id     TEXT    NOT NULL,
        as_of_date      TEXT    NOT NULL,
        artifact        TEXT    NOT NULL,
        artifact_sha256 TEXT    NOT NULL,
        source_row      INTEGER NOT NULL,
        """

    /// Unique natural key shared by the report tables: one row per sheet row of one snapshot.
    static func naturalKey(_ table: String) -> String {
        """
        CREATE UNIQUE INDEX \(table)_snapshot_row ON \(table) (property_id, as_of_date, source_row);
        """
    }

    public static let migrations: [Migration] = [
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
            CREATE INDEX realpage_rent_roll_unit ON realpage_rent_roll (property_id, as_of_date, unit_number);

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
    ]
}
