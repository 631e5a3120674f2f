import SQLiteKit

/// Which households' resident events (unified_activity from RPX: RealPageActivity.insertResidentEvents) a RealPage
/// property's incremental sync computes: those whose getresidentlistinfo or getleaseinfo rows moved since the
/// snapshots its last sync read, and those with an event dated after that sync's property date; every household
/// otherwise (docs/sync-rules.md, "The resident events by household").
///
/// Why that is enough: a household's events are a function of its head row (rpx_household: its rows of the residents
/// snapshot), the rows chosen for its leases (rpx_lease: the rows of both lists naming the lease), the unit numbers
/// its unit ids are matched to (in the activity mark's inputs: a change makes every day and household computed), and
/// the property date (an event is kept once dated on or before it). A load by record keeps on each copied row the
/// date of the snapshot that decoded its record (realpage_raw `changed_on`, RecordLoad), so the rows unchanged since
/// the marked snapshot are known without reading that snapshot whole: per household, as many rows tonight dated on
/// or before it as it had then means the same rows, in the same order (a record copied out of order is dated
/// tonight). A lease whose rows moved brings in every household any of its rows names, tonight or then (the lease's
/// chosen row may pass from one to another).
///
/// The twin holds those households' events alone; the diff compares main's resident events of the same households
/// (`RealPageActivityDays.scope`), and the monthly summary check counts main's others beside the twin's.
struct RealPageEventHouseholds {
    /// The households whose events this sync computes, when not every household's.
    static let table = ScratchTable(name: "event_households", shape: .definition("(household_id TEXT PRIMARY KEY) WITHOUT ROWID"))

    /// Tonight's residents and leases snapshots (the rows' date, lowest and highest row id, rows), one line each: what
    /// the mark records for the next sync to compare with.
    let lists: String
    /// Only the households of `table` are computed.
    let byHousehold: Bool

    /// `marked`: the last sync's mark (its lists and property date) when the activity days go by change; nil
    /// computes every household.
    init(_ realpage: RealPageSync, marked: (lists: String?, asOf: String)?) throws {
        let tonight = (residents: realpage.parameters[":residents_snapshot"] ?? .null,
                       leases: realpage.parameters[":leases_snapshot"] ?? .null)
        lists = try Self.lines(realpage, residents: tonight.residents, leases: tonight.leases)
        guard realpage.hasResidents, let marked, let stored = marked.lists else {
            byHousehold = false
            return
        }
        // The marked snapshots still hold the rows they held (not pruned, not reloaded), and tonight's are not older.
        let fields = stored.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
        guard fields.count == 2, fields.allSatisfy({ $0.count == 5 && $0[1] != "-" }),
              case .text(let residentsDate) = tonight.residents, case .text(let leasesDate) = tonight.leases,
              fields[0][1] <= residentsDate, fields[1][1] <= leasesDate,
              try Self.lines(realpage, residents: .text(fields[0][1]), leases: .text(fields[1][1])) == stored else {
            byHousehold = false
            return
        }
        try TempTables.empty(Self.table, in: realpage.context.database)
        try realpage.run(Self.fill, [
            ":marked_residents": .text(fields[0][1]), ":marked_leases": .text(fields[1][1]), ":marked_as_of": .text(marked.asOf),
        ])
        byHousehold = true
    }

    private static func lines(_ realpage: RealPageSync, residents: SQLValue, leases: SQLValue) throws -> String {
        try realpage.context.rows(listLines, [":residents_date": residents, ":leases_date": leases]).map { row in
            row.map { $0.textValue ?? $0.integerValue.map(String.init) ?? "-" }.joined(separator: " ")
        }.joined(separator: "\n")
    }

    /// A residents and a leases snapshot by its rows' date: list, date, lowest and highest row id, rows.
    static let listLines = """
        SELECT 'residents', :residents_date, min(id), max(id), count(*) FROM realpage_raw.realpage_residents
        WHERE property_id = :property AND as_of_date = :residents_date
        UNION ALL
        SELECT 'leases', :leases_date, min(id), max(id), count(*) FROM realpage_raw.realpage_leases
        WHERE property_id = :property AND as_of_date = :leases_date
        """

    /// The households to compute: those with a row decoded since the marked snapshot, those with fewer rows kept from
    /// it than it had, every household named by a row of a lease one of those rows names, and those with an event
    /// dated after the marked property date, up to tonight's.
    static let fill = """
        WITH
        -- Each list's rows, tonight's and the marked snapshot's, read once: household ('' for none), lease, and whether
        -- tonight's row was decoded since the marked snapshot.
        tonight_rows AS MATERIALIZED (
            SELECT 'residents' AS list, coalesce(household_id, '') AS household_id, lease_id,
                   coalesce(changed_on, as_of_date) > :marked_residents AS moved
            FROM realpage_raw.realpage_residents WHERE property_id = :property AND as_of_date = :residents_snapshot
            UNION ALL
            SELECT 'leases', coalesce(resh_id, ''), lease_id, coalesce(changed_on, as_of_date) > :marked_leases
            FROM realpage_raw.realpage_leases WHERE property_id = :property AND as_of_date = :leases_snapshot
        ),
        marked_rows AS MATERIALIZED (
            SELECT 'residents' AS list, coalesce(household_id, '') AS household_id, lease_id
            FROM realpage_raw.realpage_residents WHERE property_id = :property AND as_of_date = :marked_residents
            UNION ALL
            SELECT 'leases', coalesce(resh_id, ''), lease_id
            FROM realpage_raw.realpage_leases WHERE property_id = :property AND as_of_date = :marked_leases
        ),
        marked AS MATERIALIZED (SELECT list, household_id, count(*) AS rows FROM marked_rows GROUP BY 1, 2),
        kept AS MATERIALIZED (SELECT list, household_id, count(*) AS rows FROM tonight_rows WHERE NOT moved GROUP BY 1, 2),
        moved AS MATERIALIZED (
            SELECT household_id FROM tonight_rows WHERE moved
            UNION
            SELECT m.household_id FROM marked m
            LEFT JOIN kept k ON k.household_id = m.household_id AND k.list = m.list
            WHERE k.rows IS NOT m.rows
        ),
        -- Every lease a row of those households names, tonight or in the marked snapshots.
        lease_moved AS MATERIALIZED (
            SELECT lease_id FROM tonight_rows WHERE household_id IN moved AND lease_id IS NOT NULL
            UNION
            SELECT lease_id FROM marked_rows WHERE household_id IN moved AND lease_id IS NOT NULL
        )
        INSERT INTO temp.event_households (household_id)
        SELECT household_id FROM (
            SELECT household_id FROM moved
            UNION
            SELECT household_id FROM tonight_rows WHERE lease_id IN lease_moved
            UNION
            SELECT household_id FROM marked_rows WHERE lease_id IN lease_moved
            UNION
            SELECT household_id FROM rpx_household
            WHERE (move_in_date > :marked_as_of AND move_in_date <= :as_of)
               OR (move_out_date > :marked_as_of AND move_out_date <= :as_of)
               OR (notice_given_date > :marked_as_of AND notice_given_date <= :as_of)
            UNION
            SELECT household_id FROM rpx_lease WHERE signed_date > :marked_as_of AND signed_date <= :as_of
        )
        WHERE household_id IS NOT NULL AND household_id <> ''
        """
}
