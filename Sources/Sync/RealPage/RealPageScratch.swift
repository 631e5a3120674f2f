import SQLiteKit

/// What several RealPage rules read, computed once per property: the unitlist's units (`rpx_unit`), the residents
/// snapshot's members and household heads (`rpx_member`, `rpx_household`), every lease (`rpx_lease`), the Rent
/// Roll's units (`rent_roll_unit`, RealPageUnits.rentRollUnit), the Activity reports' rows each day is read from
/// (`report_activity`, RealPageActivity.activityRows: made later, `makeReportActivity`), the households under each unit number a report may print
/// (`household_unit`, RealPageDelinquency.householdUnit) and the Delinquent and Prepaid report's accounts
/// (`delinquency_account`, RealPageDelinquency.accounts: the delinquency rule, its aging check and the partial
/// ledger's balances read them), each a TEMP table the rules name unqualified.
///
/// They were common table expressions, materialized again by each of the six statements that named them (the units,
/// residents, leases, lease residents, resident events and delinquency rules, and a cross-check): 22 % of the rules'
/// time, the largest single cost of a night's sync. Each is a function of the raw snapshots the property's sync reads
/// (`RealPageSnapshots`), made again at the start of every RealPage property's sync, inside its transaction.
enum RealPageScratch {
    /// In the order they are made (each may read the ones before it), with the indexes their readers look rows up by.
    static let tables: [ScratchTable] = [
        ScratchTable(name: "rpx_unit", shape: .query(RealPageUnits.rpxUnit), indexes: ["rpx_unit_unit_id": "unit_id"]),
        ScratchTable(name: "rpx_member", shape: .query(RealPageResidents.rpxMember),
                     indexes: ["rpx_member_household_id": "household_id"]),
        ScratchTable(name: "rpx_household", shape: .query(RealPageResidents.rpxHousehold),
                     indexes: ["rpx_household_household_id": "household_id"]),
        ScratchTable(name: "rpx_lease", shape: .query(RealPageLeases.rpxLease), indexes: ["rpx_lease_household_id": "household_id"]),
        ScratchTable(name: "rent_roll_unit", shape: .query("WITH \(RealPageUnits.rentRollUnit) SELECT * FROM rent_roll_unit"),
                     indexes: ["rent_roll_unit_unit_number": "unit_number", "rent_roll_unit_id": "id"]),
        ScratchTable(name: "household_unit", shape: .query(RealPageDelinquency.householdUnit),
                     indexes: ["household_unit_unit_key_name_key": "unit_key, name_key"]),
        ScratchTable(name: "delinquency_account", shape: .query("WITH \(RealPageDelinquency.accounts) SELECT * FROM account"),
                     indexes: ["delinquency_account_source_row": "source_row"]),
    ]

    /// The Activity reports' rows of the days the sync computes (RealPageActivityDays), made once those are known,
    /// after the units rule: `makeReportActivity`.
    static let reportActivity = ScratchTable(name: "report_activity", shape: .query(
        "WITH \(RealPageActivity.activityRows) SELECT * FROM activity"))

    /// Fills the tables for the property `realpage` syncs, in place of the previous property's (`TempTables`).
    static func make(_ realpage: RealPageSync) throws {
        for table in tables {
            try TempTables.refill(table, in: realpage.context.database) { _ = try realpage.run($0) }
        }
    }

    /// Fills `report_activity` with the rows of the days `realpage.activityFrom` says.
    static func makeReportActivity(_ realpage: RealPageSync) throws {
        try TempTables.refill(reportActivity, in: realpage.context.database) { _ = try realpage.run($0) }
    }
}
