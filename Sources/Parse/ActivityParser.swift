import OwnerDashCore
import XLSXKit

/// Activity (report 3837): one `ActivityRow` per contact or event.
///
/// Layout (docs/onesite-reports.md, "Activity (3837) and Leasing Activity Detail"): rows with a date and an activity
/// type, optionally grouped (a label row such as a consultant's name or an activity type, then `Total <group>: N`,
/// whose count is checked against the rows read). A row without a date is a continuation (notes, address) and is
/// skipped. Parsing stops at the `Follow-Up Activity` section, which lists scheduled tasks, not things that happened.
/// The time of day a Date cell prints (a date-time cell, a serial with a fraction, `01/03/2026 09:15:00AM`) is kept
/// as activity_time (`HH:MM`, 24-hour). The Leasing Activity Detail (`LEA-236-001`), which prints a contact per row too, is a
/// report of its own (`LeasingActivityDetailParser`).
///
/// | raw field (realpage_activity) | column | OneSite header texts |
/// |---|---|---|
/// | activity_date, activity_time | Date* | Date, Activity Date, Contact Date, Event Date |
/// | activity_type | Type* | Type, Activity Type, Contact Type, Event Type |
/// | unit_number | Unit | Unit, Bldg/Unit |
/// | party_name | Name | Name, Prospect Name, Resident Name, Guest Name, Name (Last, First) |
/// | source | Source | Source, Ad Source, Lead Source |
/// | agent | Leasing Consultant | Leasing Consultant, Agent, Leasing Agent, Consultant |
///
/// `*` = required.
struct ActivityParser: OneSiteReportParser {
    static let layouts = [
        HeaderLayout(report: .activity, name: "activity", columns: [
            ColumnSpec("Date", .date, required: true, synonyms: ["Activity Date", "Contact Date", "Event Date"]),
            ColumnSpec("Type", .text, required: true, synonyms: ["Activity Type", "Contact Type", "Event Type"]),
            ColumnSpec("Unit", .text, synonyms: ["Bldg/Unit"]),
            ColumnSpec("Name", .text, synonyms: ["Prospect Name", "Resident Name", "Guest Name", "Name (Last, First)"]),
            ColumnSpec("Source", .text, synonyms: ["Ad Source", "Lead Source"]),
            ColumnSpec("Leasing Consultant", .text, synonyms: ["Agent", "Leasing Agent", "Consultant"]),
        ]),
    ]

    static let endSections = ["Follow-Up Activity", "Follow Up Activity"]

    let header: HeaderMap
    let context: ParseContext
    private var counter = GroupCounter()

    init(layoutIndex: Int, header: HeaderMap, context: ParseContext) {
        self.header = header; self.context = context
    }

    mutating func consume(_ row: SheetRow, kind: ContentKind, into records: inout [ReportRecord]) throws -> Bool {
        let view = RowView(row: row, header: header, context: context)
        switch kind {
        case .continuation:
            return true
        case .label(let text):
            if text.isSectionTitle(Self.endSections) { return false }
            counter.startGroup()
            return true
        case .total(let label, let count):
            counter.check(count, label: label, row: row.number, what: "activities", context: context)
            return true
        case .data:
            guard let date = try view.date("Date") else { return true }
            guard let type = view.text("Type") else {
                context.warn("row \(row.number): no activity type; stored as Unknown")
                return try store(view, date: date, type: "Unknown", into: &records)
            }
            return try store(view, date: date, type: type, into: &records)
        }
    }

    private mutating func store(_ view: RowView, date: LocalDate, type: String,
                                into records: inout [ReportRecord]) throws -> Bool {
        counter.add()
        var record = ActivityRow(
            activityDate: date, activityType: type, unitNumber: view.text("Unit"), partyName: view.firstLine("Name"),
            source: view.text("Source"), agent: view.text("Leasing Consultant"), sourceRow: view.number)
        record.activityTime = view.cell("Date").timeOfDay
        records.append(.activity(record))
        return true
    }

    mutating func finish(into records: inout [ReportRecord]) throws {}
}
