/// The RPX whole-state lists whose households the sync follows by change: a load by record notes, in realpage_raw's
/// `list_rows_dropped` under the list's table name, the household and lease of each of the night before's rows it did
/// not copy (RecordLoad), and the sync reads those notes beside `loaded_artifacts`, which names each snapshot by its
/// operation (RealPageEventHouseholds). Both must name a list alike, so the lists are written once, here.
public enum FollowedLists {
    /// One followed list: its RPX operation, its raw table, and that table's household and lease columns.
    public struct List: Sendable {
        public let operation: String
        public let table: String
        public let household: String
        public let lease: String
    }

    /// getresidentlistinfo's residents and getleaseinfo's leases.
    public static let lists = [
        List(operation: "getresidentlistinfo", table: "realpage_residents", household: "household_id", lease: "lease_id"),
        List(operation: "getleaseinfo", table: "realpage_leases", household: "resh_id", lease: "lease_id"),
    ]

    /// The followed list stored in `table`; nil for another table.
    public static func list(table: String) -> List? {
        lists.first { $0.table == table }
    }

    /// SQL: the table (`list_rows_dropped.list`) of the followed list whose operation the column `operation` holds
    /// (`loaded_artifacts.report_type`); NULL for another operation.
    public static func table(ofOperation operation: String) -> String {
        "CASE \(operation) " + lists.map { "WHEN '\($0.operation)' THEN '\($0.table)'" }.joined(separator: " ") + " END"
    }
}
