import SQLiteKit

/// What several RealPage rules read, computed once per property: the unitlist's units (`rpx_unit`), the residents
/// snapshot's members and household heads (`rpx_member`, `rpx_household`), every lease (`rpx_lease`), the Rent
/// Roll's units (`rent_roll_unit`, RealPageUnits.rentRollUnit), the Activity reports' rows each day is read from
/// (`report_activity`, RealPageActivity.activityRows), the households under each unit number a report may print
/// (`household_unit`, RealPageDelinquency.householdUnit) and the Delinquent and Prepaid report's accounts
/// (`delinquency_account`, RealPageDelinquency.accounts: the delinquency rule, its aging check and the partial
/// ledger's balances read them), each a TEMP table the rules name unqualified.
///
/// They were common table expressions, materialized again by each of the six statements that named them (the units,
/// residents, leases, lease residents, resident events and delinquency rules, and a cross-check): 22 % of the rules'
/// time, the largest single cost of a night's sync. Each is a function of the raw snapshots the property's sync reads
/// (`RealPageSnapshots`), made again at the start of every RealPage property's sync, inside its transaction.
enum RealPageScratch {
    /// In the order they are made (each may read the ones before it), with the columns their readers look rows up by
    /// (each an index; `a, b` one index on both).
    static let tables: [(name: String, query: String, lookups: [String])] = [
        ("rpx_unit", RealPageUnits.rpxUnit, ["unit_id"]),
        ("rpx_member", RealPageResidents.rpxMember, ["household_id"]),
        ("rpx_household", RealPageResidents.rpxHousehold, ["household_id"]),
        ("rpx_lease", RealPageLeases.rpxLease, ["household_id"]),
        ("rent_roll_unit", "WITH \(RealPageUnits.rentRollUnit) SELECT * FROM rent_roll_unit",
         ["unit_number", "id"]),
        ("report_activity", "WITH \(RealPageActivity.activityVocabulary), \(RealPageActivity.activityRows) SELECT * FROM activity", []),
        ("household_unit", RealPageDelinquency.householdUnit, ["unit_key, name_key"]),
        ("delinquency_account", "WITH \(RealPageDelinquency.accounts) SELECT * FROM account", ["source_row"]),
    ]

    /// Fills the tables for the property `realpage` syncs, in place of the previous property's (`TempTables`).
    static func make(_ realpage: RealPageSync) throws {
        let database = realpage.context.database
        for table in tables {
            let indexes = table.lookups.map { (name: table.name + "_" + $0.replacingOccurrences(of: ", ", with: "_"), columns: $0) }
            try TempTables.refill(table.name, with: table.query, indexes: indexes, in: database) { _ = try realpage.run($0) }
        }
    }
}
