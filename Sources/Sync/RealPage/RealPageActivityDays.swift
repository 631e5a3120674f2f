import LibCryptoKit
import OwnerDashCore
import SQLiteKit

/// Which days of a RealPage property's report events (unified_activity from the Activity report and the Leasing
/// Activity Detail: RealPageActivity.activityRows, insertReportEvents) a sync computes: on an incremental sync the
/// days on or after `from`, the first day of any snapshot loaded, reloaded or pruned since the last sync; every day
/// otherwise (docs/sync-rules.md, "The report events by day").
///
/// Why that is enough: a day's report events come from the newest snapshot holding the day, and a snapshot holds no
/// day before its first, so a snapshot that appears, changes or goes moves no day before its first day; nor do the
/// property date moving on (the days after the last sync's date are computed), nor the Leasing Activity Detail's
/// cover of a day (a snapshot's own days). What would move every day makes the sync whole: another build, the units
/// the events' Bldg/Unit is matched to, RPX starting or ceasing to give the residents, the property date going back.
/// Two readers of earlier days are served from the mark instead: the lead rank (a prospect's first contact is a lead,
/// their later ones are not: `sync_activity_prospects` keeps each prospect's first day) and the unknown-type check
/// (`sync_activity_marks.unknown_types`, its counts by day).
///
/// Main keeps the days before `from` as the last sync wrote them: the twin holds only the days computed and the
/// resident events (RPX's: every household's, or only those of the households whose rows moved,
/// RealPageEventHouseholds), and the diff compares main's rows of those alone (`scope`). The full sync computes every
/// day and every household and names any row that differs.
struct RealPageActivityDays {
    /// The first day whose report events this sync computes; "" (before every day) when it computes them all.
    let from: String
    /// Tonight's digest of what moves every day (`inputs`), the property date and the snapshots read
    /// (`snapshotLines`): the mark `record` writes.
    let inputs: String
    let asOf: String
    let snapshots: [String]
    /// The households whose resident events this sync computes (every one's unless `households.byHousehold`).
    let households: RealPageEventHouseholds

    /// Every day is computed.
    var isWhole: Bool { from.isEmpty }

    /// One line of the mark (`snapshots`, `resident_lists`): a snapshot's fields, space-separated, "-" for NULL.
    static func markLine(_ row: [SQLValue]) -> String {
        row.map { $0.textValue ?? $0.integerValue.map(String.init) ?? "-" }.joined(separator: " ")
    }

    /// `:activity_from`, the parameter of the rules and the checks that read the days computed.
    var parameters: [String: SQLValue] { [":activity_from": .text(from)] }

    /// Main's unified_activity rows the diff compares with the twin when only some days were computed: those days'
    /// events and every resident event (RPX's, which name their household in `party_id`; report events name none);
    /// nil when every day was computed.
    var scope: CurrentStateDiff.Scope? {
        isWhole ? nil : CurrentStateDiff.Scope(
            conditions: households.byHousehold ? Self.householdScopeConditions : Self.scopeConditions,
            parameters: parameters)
    }

    /// The scope's rows: the resident events before the days computed, off their own index (unified migration 64; a
    /// resident event always has its date), and every event of those days, off the date index.
    static let scopeConditions = [" AND party_id IS NOT NULL AND event_date < :activity_from",
                                  " AND event_date >= :activity_from"]

    /// The scope's rows when the resident events were computed by household: those households' resident events,
    /// off their own index, and the report events (which name no household) of the days computed, off the date index.
    static let householdScopeConditions = [
        " AND party_id IS NOT NULL AND party_id IN (SELECT household_id FROM temp.event_households)",
        " AND party_id IS NULL AND event_date >= :activity_from",
    ]

    /// Decides the days for the property `realpage` syncs, once its units are in unified_units (the twin) and its RPX
    /// scratch tables made; `byChange`: the property has stored rows and the sync is incremental.
    init(_ realpage: RealPageSync, byChange: Bool) throws {
        asOf = realpage.asOf.iso
        snapshots = try realpage.rows(Self.snapshotLines).map(Self.markLine)
        let hasher = SHA256()
        hasher.updateField(Synchronizer.executableDigest)
        hasher.updateField(realpage.hasResidents ? "rpx residents" : "report residents")
        for field in InputMarks.fields(try realpage.rows(Self.unitAliases)) { hasher.updateField(field) }
        // The unit numbers the resident events' unit ids are matched to (insertResidentEvents' `rpx_unit`).
        for field in InputMarks.fields(try realpage.rows(Self.eventUnits)) { hasher.updateField(field) }
        inputs = hasher.finalizeHex()
        let mark = byChange ? try realpage.rows(Self.storedMark).first : nil
        from = try Self.firstDay(realpage, mark: mark, inputs: inputs, snapshots: snapshots) ?? ""
        households = try RealPageEventHouseholds(realpage, marked: from.isEmpty ? nil : mark.map {
            (lists: $0[3].textValue, asOf: $0[1].textValue ?? "")
        })
    }

    /// The first day to compute, nil for every day: the mark's inputs differ, the property date went back, or a
    /// resident event would name no household (the diff could not tell it from a report event).
    private static func firstDay(_ realpage: RealPageSync, mark: [SQLValue]?, inputs: String,
                                 snapshots: [String]) throws -> String? {
        guard let mark, mark[0].textValue == inputs,
              let markedDate = mark[1].textValue.flatMap(LocalDate.init(iso:)), markedDate <= realpage.asOf,
              try realpage.rows(residentEventWithoutHousehold).first?.first?.integerValue == 0 else { return nil }
        let marked = Set((mark[2].textValue ?? "").split(separator: "\n").map(String.init))
        // Each snapshot line that differs, on either side: its first day (field 3; "-" when it holds no dated row).
        var days = marked.symmetricDifference(snapshots).compactMap { line -> String? in
            let fields = line.split(separator: " ")
            return fields.count > 2 && fields[2] != "-" ? String(fields[2]) : nil
        }
        // The days the property date moved past, until tonight's (a day after tonight's is read by no rule).
        days.append(markedDate.adding(days: 1).iso)
        // The check of the latest Leasing Activity Detail counts the leads of its days in unified_activity, which
        // holds, before the write, only the days computed (SyncChecks' leasing_activity_totals).
        if let checked = try realpage.rows(leadDetailCheckFirstDay).first?.first?.textValue { days.append(checked) }
        return days.min()
    }

    /// Records tonight's mark and what the days computed add to it, in the property's write (after `finish` has read
    /// the scratch `report_activity` it describes): the prospects first seen on those days (a prospect seen before
    /// keeps their day) and the unknown types' counts of those days.
    func record(_ context: SyncContext) throws {
        let values = parameters.merging([
            ":inputs": .text(inputs), ":as_of": .text(asOf), ":snapshots": .text(snapshots.joined(separator: "\n")),
            ":resident_lists": .text(households.lists),
        ]) { $1 }
        try context.run(Self.forgetProspects, values)
        try context.run(Self.recordProspects, values)
        try context.run(Self.recordMark, values)
    }

    /// Each snapshot the report rows are read from (RealPageActivity.activityRows' `activity_snapshot`, the same
    /// index): report, as-of date, first day, rows, lowest and highest row id (a reload or a prune changes them).
    static let snapshotLines = """
        SELECT 'activity', as_of_date, min(activity_date), count(*), min(id), max(id)
        FROM realpage_raw.realpage_activity
        WHERE property_id = :property AND as_of_date <= :activity_snapshot
        GROUP BY as_of_date
        UNION ALL
        SELECT 'leasing_activity_detail', as_of_date, min(contact_date), count(*), min(id), max(id)
        FROM realpage_raw.realpage_leasing_activity_detail
        WHERE property_id = :property AND as_of_date <= :lead_detail_snapshot
        GROUP BY as_of_date
        ORDER BY 1, 2
        """

    /// The units a report's Bldg/Unit is matched to (insertReportEvents' `unit_alias`), from tonight's unified_units.
    static let unitAliases = """
        SELECT unit_number, building FROM unified_units WHERE unified_property_id = :property ORDER BY 1, 2
        """

    /// The RPX unit ids and the unit numbers they are matched to (`rpx_unit`).
    static let eventUnits = "SELECT unit_id, unified_unit FROM rpx_unit ORDER BY 1, 2"

    static let storedMark = """
        SELECT inputs, as_of_date, snapshots, resident_lists FROM main.sync_activity_marks WHERE unified_property_id = :property
        """

    /// A lease whose signing is a resident event (insertResidentEvents) without a household (getleaseinfo's ReshID).
    static let residentEventWithoutHousehold = """
        SELECT EXISTS (SELECT 1 FROM rpx_lease WHERE household_id IS NULL AND signed_date IS NOT NULL)
           AND :residents_from_rpx = 1
        """

    /// The first day of the Leasing Activity Detail snapshot SyncChecks' `leasing_activity_totals` reads (the latest
    /// loaded on or before the property date), whose leads it counts.
    static let leadDetailCheckFirstDay = """
        SELECT min(contact_date) FROM realpage_raw.realpage_leasing_activity_detail
        WHERE property_id = :property AND as_of_date = (
            SELECT max(as_of_date) FROM realpage_raw.loaded_artifacts
            WHERE report_type = 'leasing_activity_detail' AND property_id = :property AND as_of_date <= :as_of)
        """

    static let forgetProspects = """
        DELETE FROM main.sync_activity_prospects WHERE unified_property_id = :property AND first_date >= :activity_from
        """

    /// The prospects of the days computed, by the lead rank's key (insertReportEvents' `lead_rank`); one seen before
    /// those days keeps the day stored.
    static let recordProspects = """
        INSERT OR IGNORE INTO main.sync_activity_prospects (unified_property_id, prospect_key, first_date)
        SELECT :property, lower(trim(party_name)), min(activity_date)
        FROM temp.report_activity
        WHERE mapped_type = 'lead' AND party_name IS NOT NULL
        GROUP BY lower(trim(party_name))
        """

    /// The mark, its unknown types those of the days before the ones computed (the stored mark's) and of the days
    /// computed (RealPageCrossChecks.activityType reads both the same way).
    static let recordMark = """
        INSERT INTO main.sync_activity_marks (unified_property_id, inputs, as_of_date, snapshots, resident_lists,
                                              unknown_types)
        VALUES (:property, :inputs, :as_of, :snapshots, :resident_lists, (
            SELECT json_group_array(json_object('day', day, 'type', type, 'rows', rows)) FROM (
                SELECT day, type, rows FROM (\(unknownTypes))
                ORDER BY day, type)))
        ON CONFLICT (unified_property_id) DO UPDATE SET
            inputs = excluded.inputs, as_of_date = excluded.as_of_date, snapshots = excluded.snapshots,
            resident_lists = excluded.resident_lists, unknown_types = excluded.unknown_types
        """

    /// The Activity report's rows of a type no event type names, counted by day and type: those of the days computed
    /// (`report_activity`) and, before them, the stored mark's.
    static let unknownTypes = """
        SELECT activity_date AS day, activity_type AS type, count(*) AS rows
        FROM temp.report_activity
        WHERE mapped_type IS NULL AND report = 'activity'
        GROUP BY activity_date, activity_type
        UNION ALL
        SELECT j.value ->> 'day', j.value ->> 'type', j.value ->> 'rows'
        FROM main.sync_activity_marks m, json_each(m.unknown_types) j
        WHERE m.unified_property_id = :property AND j.value ->> 'day' < :activity_from
        """
}
