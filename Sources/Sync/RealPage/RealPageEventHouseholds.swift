import OwnerDashCore
import SQLiteKit

/// Which households' resident events (unified_activity from RPX: RealPageActivity.insertResidentEvents), residents and
/// leases (unified_residents, unified_leases, unified_lease_residents: RealPageResidents, RealPageLeases, where the RPX
/// ledger is read) a RealPage property's incremental sync computes: those whose getresidentlistinfo or getleaseinfo
/// rows moved since the snapshots its last sync read, and those with an event or a lease date crossed since that
/// sync's property date; every household otherwise (docs/sync-rules.md, "The resident events by household", "The
/// residents and leases by household").
///
/// Why that is enough: a household's events are a function of its head row (rpx_household: its rows of the residents
/// snapshot), the rows chosen for its leases (rpx_lease: the rows of both lists naming the lease), the unit numbers
/// its unit ids are matched to (in the activity mark's inputs: a change makes every day and household computed), and
/// the property date (an event is kept once dated on or before it). What moved is known without reading the marked
/// snapshots again: a load by record keeps on each copied row the date of the snapshot that decoded its record
/// (realpage_raw `changed_on`; a record copied out of its order, or copied twice, is dated tonight) and notes the
/// household and lease of each row of the night before it did not copy (`list_rows_dropped`). So a household with no
/// row decoded since the marked snapshot and none dropped since has, tonight, the rows it had then, in the same order
/// (each of its marked rows was copied in order every night since). That holds only when every snapshot written since
/// was written by record with its dropped rows noted (`droppedNoted`), else every household is computed. The same
/// rows, not at the same places: a member without a ResidentMemberID is keyed by its place, so its household is
/// computed every night. A lease whose rows moved brings in every household a row of it names (the lease's chosen row
/// may pass from one to another): its rows tonight, and its rows then, which are tonight's not decoded since or were
/// dropped since.
///
/// A lease is a function of the same rows (its chosen row, its household's head row for the unit number), the unit
/// numbers, and the property date through `is_month_to_month` (its end date passed, its month-to-month date reached:
/// crossings brought in as the events' are); its members' rows are their household's. A resident row is a function
/// of its household's rows, the unit numbers and the leases rows naming its lease (its rent: a lease whose rows moved
/// brings in every household naming it).
///
/// The twin holds those households' events alone; the diff compares main's resident events of the same households
/// (`RealPageActivityDays.scope`), and the monthly summary check counts main's others beside the twin's. The residents'
/// and leases' twins likewise (`RealPageResidents.householdScope`, `RealPageLeases.householdScopes`).
struct RealPageEventHouseholds {
    /// The households whose events this sync computes, when not every household's.
    static let table = ScratchTable(name: "event_households", shape: .definition("(household_id TEXT PRIMARY KEY) WITHOUT ROWID"))

    /// Tonight's residents and leases snapshots (the rows' date, lowest and highest row id, rows), one line each: what
    /// the mark records for the next sync to compare with.
    let lists: String
    /// Only the households of `table` are computed.
    let byHousehold: Bool
    /// No household id of tonight's residents snapshot or the marked one holds a `-`, so a unified resident_id names
    /// its household unambiguously (`household` or `household-member`: RealPageResidents.householdScope).
    private(set) var undashed = false

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
        let parameters: [String: SQLValue] = [
            ":marked_residents": .text(fields[0][1]), ":marked_leases": .text(fields[1][1]), ":marked_as_of": .text(marked.asOf),
        ]
        // Every snapshot written since the marked ones was written by record and its dropped rows are all noted.
        guard try realpage.context.rows(Self.droppedNoted, realpage.parameters.merging(parameters) { $1 })
            .first?.first?.integerValue == 1 else {
            byHousehold = false
            return
        }
        try TempTables.empty(Self.table, in: realpage.context.database)
        try realpage.run(Self.fill, parameters)
        byHousehold = true
        undashed = try realpage.context.rows(Self.dashedHouseholds, realpage.parameters.merging(parameters) { $1 })
            .first?.first?.integerValue == 0
    }

    /// The RPX scratch table `scratch` (keyed by `household_id`), or (`byHousehold`) its rows of the households of
    /// `table` alone, each looked up by its household.
    static func rows(of scratch: String, byHousehold: Bool) -> String {
        byHousehold ? """
            (SELECT s.* FROM temp.event_households x CROSS JOIN \(scratch) s ON s.household_id = x.household_id)
            """ : scratch
    }

    /// Whether a household id of tonight's residents snapshot or the marked one holds a `-`.
    static let dashedHouseholds = """
        SELECT EXISTS (SELECT 1 FROM realpage_raw.realpage_residents
                       WHERE property_id = :property AND as_of_date IN (:marked_residents, :residents_snapshot)
                         AND instr(household_id, '-') > 0)
        """

    private static func lines(_ realpage: RealPageSync, residents: SQLValue, leases: SQLValue) throws -> String {
        try realpage.context.rows(listLines, [":residents_date": residents, ":leases_date": leases])
            .map(RealPageActivityDays.markLine).joined(separator: "\n")
    }

    /// A residents and a leases snapshot by its rows' date: list, date, lowest and highest row id, rows.
    static let listLines = """
        SELECT 'residents', :residents_date, min(id), max(id), count(*) FROM realpage_raw.realpage_residents
        WHERE property_id = :property AND as_of_date = :residents_date
        UNION ALL
        SELECT 'leases', :leases_date, min(id), max(id), count(*) FROM realpage_raw.realpage_leases
        WHERE property_id = :property AND as_of_date = :leases_date
        """

    /// Whether every residents and leases snapshot whose rows were written after the marked ones, up to tonight's,
    /// was written by record (`loaded_artifacts.rows_dropped` set) and `list_rows_dropped` holds every row each noted.
    static let droppedNoted = """
        WITH written (list, unnoted, noted) AS (
            SELECT \(FollowedLists.table(ofOperation: "report_type")),
                   count(*) - count(rows_dropped), coalesce(sum(rows_dropped), 0)
            FROM realpage_raw.loaded_artifacts
            WHERE property_id = :property AND stored_as_of IS NULL
              AND ((report_type = 'getresidentlistinfo' AND as_of_date > :marked_residents AND as_of_date <= :residents_snapshot)
                OR (report_type = 'getleaseinfo' AND as_of_date > :marked_leases AND as_of_date <= :leases_snapshot))
            GROUP BY 1
        ),
        listed (list, noted) AS (
            SELECT list, count(*) FROM realpage_raw.list_rows_dropped
            WHERE property_id = :property
              AND ((list = 'realpage_residents' AND as_of_date > :marked_residents AND as_of_date <= :residents_snapshot)
                OR (list = 'realpage_leases' AND as_of_date > :marked_leases AND as_of_date <= :leases_snapshot))
            GROUP BY 1
        )
        SELECT NOT EXISTS (
            SELECT 1 FROM written w LEFT JOIN listed l ON l.list = w.list
            WHERE w.unnoted > 0 OR w.noted <> coalesce(l.noted, 0))
           AND NOT EXISTS (
            SELECT 1 FROM listed l WHERE NOT EXISTS (SELECT 1 FROM written w WHERE w.list = l.list))
        """

    /// The households to compute: those with a row tonight decoded since the marked snapshot or a row dropped since
    /// (`list_rows_dropped`: its record changed or left the list), or a member keyed by its place in the list (no
    /// ResidentMemberID: its resident_id follows the rows before it), every household named by tonight's rows of a lease
    /// one of those rows names, and those with an event dated, or a lease date crossed (`is_month_to_month`), after the
    /// marked property date, up to tonight's.
    static let fill = """
        WITH
        -- Tonight's rows of each list, read once: household ('' for none), lease, and whether decoded since. A member
        -- without a ResidentMemberID counts as moved: it is keyed by its place in the list (RealPageResidents.rpxMember's
        -- `'row' || source_row`), which a row added or dropped before it moves while its own row is copied unchanged.
        tonight_rows AS MATERIALIZED (
            SELECT coalesce(household_id, '') AS household_id, lease_id,
                   coalesce(changed_on, as_of_date) > :marked_residents OR resident_member_id IS NULL AS moved
            FROM realpage_raw.realpage_residents WHERE property_id = :property AND as_of_date = :residents_snapshot
            UNION ALL
            SELECT coalesce(resh_id, ''), lease_id, coalesce(changed_on, as_of_date) > :marked_leases
            FROM realpage_raw.realpage_leases WHERE property_id = :property AND as_of_date = :leases_snapshot
        ),
        dropped AS MATERIALIZED (
            SELECT coalesce(household_id, '') AS household_id, lease_id FROM realpage_raw.list_rows_dropped
            WHERE list = 'realpage_residents' AND property_id = :property
              AND as_of_date > :marked_residents AND as_of_date <= :residents_snapshot
            UNION ALL
            SELECT coalesce(household_id, ''), lease_id FROM realpage_raw.list_rows_dropped
            WHERE list = 'realpage_leases' AND property_id = :property
              AND as_of_date > :marked_leases AND as_of_date <= :leases_snapshot
        ),
        moved AS MATERIALIZED (
            SELECT household_id FROM tonight_rows WHERE moved
            UNION
            SELECT household_id FROM dropped
        ),
        -- Every lease a row of those households names: tonight's rows, and the marked snapshot's, which are tonight's
        -- not decoded since or were dropped since.
        lease_moved AS MATERIALIZED (
            SELECT lease_id FROM tonight_rows WHERE household_id IN moved AND lease_id IS NOT NULL
            UNION
            SELECT lease_id FROM dropped WHERE lease_id IS NOT NULL
        )
        INSERT INTO temp.event_households (household_id)
        SELECT household_id FROM (
            SELECT household_id FROM moved
            UNION
            SELECT household_id FROM tonight_rows WHERE lease_id IN lease_moved
            UNION
            SELECT household_id FROM rpx_household
            WHERE (move_in_date > :marked_as_of AND move_in_date <= :as_of)
               OR (move_out_date > :marked_as_of AND move_out_date <= :as_of)
               OR (notice_given_date > :marked_as_of AND notice_given_date <= :as_of)
            UNION
            SELECT household_id FROM rpx_lease WHERE signed_date > :marked_as_of AND signed_date <= :as_of
            UNION
            -- A lease's is_month_to_month follows the property date (RealPageLeases.rpxLease): its end date passed,
            -- or its month-to-month date reached.
            SELECT household_id FROM rpx_lease WHERE end_date >= :marked_as_of AND end_date < :as_of
            UNION
            SELECT resh_id FROM realpage_raw.realpage_leases
            WHERE property_id = :property AND as_of_date = :leases_snapshot
              AND month_to_month_date > :marked_as_of AND month_to_month_date <= :as_of
        )
        WHERE household_id IS NOT NULL AND household_id <> ''
        """
}
