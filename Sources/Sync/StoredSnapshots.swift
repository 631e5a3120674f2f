import SQLiteKit

/// Resolves a snapshot recorded as unchanged to the rows that hold it.
///
/// The loaders store a unit, resident or lease list, or a report, only when it differs from the previous snapshot
/// of the same (report or operation, property); an identical one has a `loaded_artifacts` row whose `stored_as_of`
/// names the as-of date whose rows it shares (realpage_raw.db migration 35, yardi_raw.db migration 7). The rules
/// read raw rows by `as_of_date = :<kind>_snapshot`, so each snapshot parameter is bound to that rows date, and
/// `:<kind>_snapshot_date` to the snapshot's own date for the checks that compare dates.
enum StoredSnapshots {
    /// The SQL expression of a `loaded_artifacts` row's rows date (alias `l`): its `stored_as_of`, else its own
    /// as-of date. A raw database not yet migrated to unchanged snapshots (a `sync` before any `load` by this
    /// version) has no such column: every snapshot holds its own rows.
    static func rowsDate(_ database: Database, schema: String) throws -> String {
        let hasColumn = try database.scalar("""
            SELECT count(*) FROM \(schema).pragma_table_info('loaded_artifacts') WHERE name = 'stored_as_of'
            """)?.integerValue == 1
        return hasColumn ? "coalesce(l.stored_as_of, l.as_of_date)" : "l.as_of_date"
    }

    /// A subquery giving the rows date of (`keyColumn` = `key`, :property, `date`), NULL when there is no such
    /// snapshot: for checks that read a raw table at the property date.
    static func rowsDate(of key: String, keyColumn: String, schema: String, date: String, rowsDate: String) -> String {
        """
        (SELECT \(rowsDate) FROM \(schema).loaded_artifacts l
         WHERE l.\(keyColumn) = '\(key)' AND l.property_id = :property AND l.as_of_date = \(date))
        """
    }
}
