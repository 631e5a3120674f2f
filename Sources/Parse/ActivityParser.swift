import OwnerDashCore
import XLSXKit

/// Activity (report 3837) and Leasing Activity Detail (code `LEA-236-001`): one `ActivityRow` per contact or event.
///
/// Layout (docs/onesite-reports.md, "Activity (3837) and Leasing Activity Detail"): rows with a date and an activity
/// type, optionally grouped (a label row such as a consultant's name or an activity type, then `Total <group>: N`,
/// whose count is checked against the rows read). A row without a date is a continuation (notes, address) and is
/// skipped. Parsing stops at the `Follow-Up Activity` section, which lists scheduled tasks, not things that happened.
/// Times of day are dropped.
///
/// | raw field (realpage_activity) | column | OneSite header texts |
/// |---|---|---|
/// | activity_date | Date* | Date, Activity Date, Contact Date, Event Date |
/// | activity_type | Type* | Type, Activity Type, This contact type, Contact Type, Event Type |
/// | unit_number | Unit | Unit, Bldg/Unit |
/// | party_name | Name | Name, Prospect Name, Resident Name, Guest Name, Name (Last, First) |
/// | source | Source | Source, Ad Source, Lead Source, Initial Contact Type |
/// | agent | Leasing Consultant | Leasing Consultant, Agent, Leasing Agent, Consultant |
///
/// `*` = required.
///
/// Real exports: lease, waitlist and cancel rows print no contact type; their type is `Lease`, `Waitlist` or
/// `Cancelled/Denied` from the row's 0/1 column of that name. The Crystal page-image export (`LEA-236-001`) puts
/// each consultant's rows under a `Leasing Consultant:  Name` label (the agent of the rows that follow) and ends
/// them with a `Totals for Name  :` block of `Label: count` cells (`Phone Call: 75`, `Leases: 5`), the last one
/// `Totals for Property:`; the data-only export prints the same counts per consultant on its second sheet, which
/// the loader holds against the stored rows (`printedTotals`). Every contact-type count a block prints is checked
/// against the rows it covers.
struct ActivityParser: OneSiteReportParser {
    static let layouts = [
        HeaderLayout(report: .activity, name: "activity", columns: [
            ColumnSpec("Date", .date, required: true, synonyms: ["Activity Date", "Contact Date", "Event Date"]),
            ColumnSpec("Type", .text, required: true,
                       synonyms: ["Activity Type", "This contact type", "Contact Type", "Event Type"]),
            ColumnSpec("Unit", .text, synonyms: ["Bldg/Unit"]),
            ColumnSpec("Name", .text, synonyms: ["Prospect Name", "Resident Name", "Guest Name", "Name (Last, First)"]),
            ColumnSpec("Source", .text, synonyms: ["Ad Source", "Lead Source", "Initial Contact Type"]),
            ColumnSpec("Leasing Consultant", .text, synonyms: ["Agent", "Leasing Agent", "Consultant"]),
            ColumnSpec("Leases", .count),
            ColumnSpec("Waitlist", .count),
            ColumnSpec("Cancelled/Denied", .count, synonyms: ["Cancelled/ Denied"]),
        ]),
    ]

    /// The 0/1 columns that stand for the contact type on rows that print none, and the type each gives.
    static let outcomeColumns = [("Leases", "Lease"), ("Waitlist", "Waitlist"), ("Cancelled/Denied", "Cancelled/Denied")]

    static let endSections = ["Follow-Up Activity", "Follow Up Activity"]

    let header: HeaderMap
    let context: ParseContext
    private var counter = GroupCounter()
    /// The consultant named by the last `Leasing Consultant:  Name` label (Crystal export).
    private var consultant: String?
    /// Contact types counted since the last `Totals for ...` block, and over the whole report.
    private var sinceTotals = ContactTypeTally()
    private var all = ContactTypeTally()
    /// The `Totals for ...` block being read: its label, row, whether it covers the property, and its counts.
    private var totalsBlock: (label: String, row: Int, property: Bool, printed: [String: Int])?

    init(layoutIndex: Int, header: HeaderMap, context: ParseContext) {
        self.header = header; self.context = context
    }

    mutating func consume(_ row: SheetRow, kind: ContentKind, into records: inout [ReportRecord]) throws -> Bool {
        let view = RowView(row: row, header: header, context: context)
        if totalsBlock != nil {
            let pairs = ContactTypeTally.labelledCounts(in: row)
            if !pairs.isEmpty {
                for (label, count) in pairs { totalsBlock?.printed[label] = count }
                return true
            }
            closeTotalsBlock()
        }
        switch kind {
        case .continuation:
            return true
        case .label(let text):
            if text.isSectionTitle(Self.endSections) { return false }
            if let name = Self.consultantLabel(text) { consultant = name }
            counter.startGroup()
            return true
        case .total(let label, let count):
            let key = HeaderText.key(label)
            if key.hasPrefix("totalsfor") {
                // `Totals for Admin, Admin  :` / `Totals for Property:`: counts follow in the next rows.
                totalsBlock = (label, row.number, key.hasPrefix("totalsforproperty"), [:])
                return true
            }
            counter.check(count, label: label, row: row.number, what: "activities", context: context)
            return true
        case .data:
            guard let date = try view.date("Date") else { return true }
            guard let type = try view.text("Type") ?? outcomeType(view) else {
                context.warn("row \(row.number): no contact type and no lease, waitlist or cancel mark; stored as Unknown")
                return try store(view, date: date, type: "Unknown", into: &records)
            }
            return try store(view, date: date, type: type, into: &records)
        }
    }

    private mutating func store(_ view: RowView, date: LocalDate, type: String,
                                into records: inout [ReportRecord]) throws -> Bool {
        counter.add()
        sinceTotals.add(type); all.add(type)
        records.append(.activity(ActivityRow(
            activityDate: date, activityType: type, unitNumber: view.text("Unit"), partyName: view.firstLine("Name"),
            source: view.text("Source"), agent: view.text("Leasing Consultant") ?? consultant, sourceRow: view.number)))
        return true
    }

    /// `Lease`, `Waitlist` or `Cancelled/Denied` for a row without a contact type whose column of that name is 1.
    /// Read by order, not by header: they are the row's last three whole numbers (Leases, Waitlist,
    /// Cancelled/Denied, right of the guest card status), and the Crystal export drifts them over merged headers.
    private func outcomeType(_ view: RowView) throws -> String? {
        let counts = view.row.cells.compactMap { cell -> Int? in
            switch cell {
            case .number: return try? cell.count()
            case .text(let text): return text.allSatisfy(\.isASCIIDigit) ? Int(text) : nil
            default: return nil
            }
        }
        guard counts.count >= 3 else { return nil }
        for (index, (_, type)) in Self.outcomeColumns.enumerated() where counts[counts.count - 3 + index] > 0 {
            return type
        }
        return nil
    }

    private mutating func closeTotalsBlock() {
        guard let block = totalsBlock else { return }
        let covered = block.property ? all : sinceTotals
        covered.check(block.printed, label: block.label, row: block.row, context: context)
        sinceTotals = ContactTypeTally()
        totalsBlock = nil
    }

    /// `Leasing Consultant:  Admin, Admin` -> `Admin, Admin`.
    static func consultantLabel(_ text: String) -> String? {
        guard HeaderText.key(text).hasPrefix("leasingconsultant"), let colon = text.firstIndex(of: ":") else { return nil }
        let name = text[text.index(after: colon)...].trimmingWhitespace
        return name.isEmpty ? nil : String(name)
    }

    mutating func finish(into records: inout [ReportRecord]) throws {
        closeTotalsBlock()
    }

}

/// Activity rows counted by contact type, held against a totals block's `Label: count` figures.
public struct ContactTypeTally: Sendable {
    private(set) var counts: [String: Int] = [:]

    public init() {}

    /// The totals' labels that count contact types (others, such as New Prospects or Net Visits, count prospects).
    static let typeLabels: Set<String> = [
        "phonecall", "chat", "fax/letter", "email", "callcenter", "textmessage", "event", "propertyreferral",
        "internet", "prerecordedtour", "selfguidedtour", "videotelephonytour", "visit", "lease", "waitlist",
        "cancelled/denied",
    ]

    /// A label or type as compared: `Phone-call`, `Phone Call:` and `Phone call` alike; plural `Visits` = `Visit`.
    static func key(_ text: String) -> String {
        var key = HeaderText.key(text.filter { $0.isLetter || $0 == "/" || $0 == " " || $0 == "-" })
        if key.hasSuffix("s"), !key.hasSuffix("ss") { key.removeLast() }
        return key
    }

    public mutating func add(_ type: String) { counts[Self.key(type), default: 0] += 1 }

    /// Counts by type key, from stored rows counted elsewhere (the loader's per-sheet check).
    public init(counts: [String: Int]) {
        for (type, count) in counts { self.counts[Self.key(type), default: 0] += count }
    }

    /// Warns for every contact-type count printed in the block that the rows do not add up to.
    func check(_ printed: [String: Int], label: String, row: Int, context: ParseContext) {
        for message in mismatches(printed, label: label, row: row) { context.warn(message) }
    }

    /// One message per printed contact-type count the rows do not add up to.
    public func mismatches(_ printed: [String: Int], label: String, row: Int) -> [String] {
        var messages: [String] = []
        for (name, value) in printed.sorted(by: { $0.key < $1.key }) {
            let key = Self.key(name)
            guard Self.typeLabels.contains(key) else { continue }
            let computed = counts[key] ?? 0
            if computed != value {
                messages.append("data rows count \(computed) \(name.trimmingCharacters(in: ": ")) but \"\(label)\" "
                                + "(row \(row)) says \(value)")
            }
        }
        return messages
    }

    /// The per-consultant sheet of the data-only export: its `Totals for Property` row's contact-type counts, by
    /// header; nil when the rows are not that sheet.
    public static func printedTotals(in rows: [SheetRow]) -> (label: String, row: Int, printed: [String: Int])? {
        guard let headerIndex = rows.firstIndex(where: { row in
            row.cells.first?.text.map(HeaderText.key) == "leasingconsultant"
                && row.cells.contains { $0.text.map(HeaderText.key) == "phonecall" }
        }) else { return nil }
        let names = rows[headerIndex].cells.map { $0.text ?? "" }
        for row in rows[(headerIndex + 1)...] {
            guard let label = row.cells.first?.text, HeaderText.key(label).hasPrefix("totalsforproperty") else { continue }
            var printed: [String: Int] = [:]
            for (column, cell) in row.cells.enumerated() where column > 0 && column < names.count {
                if let count = try? cell.count() { printed[names[column]] = count }
            }
            return (label, row.number, printed)
        }
        return nil
    }

    /// The `Label: count` pairs of a Crystal totals row (`¹New Prospects:` `0` `Phone Call:` `0` ...), in order.
    static func labelledCounts(in row: SheetRow) -> [(String, Int)] {
        var pairs: [(String, Int)] = []
        var label: String?
        for cell in row.cells where !cell.isBlank {
            if case .text(let raw) = cell, raw.trimmingWhitespace.hasSuffix(":") {
                label = String(raw.trimmingWhitespace.dropLast())
                continue
            }
            if let open = label, let count = try? cell.count() { pairs.append((open, count)) }
            label = nil
        }
        return pairs
    }
}
