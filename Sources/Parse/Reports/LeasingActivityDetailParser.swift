import OwnerDashCore
import XLSXKit

extension ReportType {
    public static let leasingActivityDetail = ReportType(declaring: "leasing_activity_detail")
}

/// Leasing Activity Detail (`LEA-236-001`, OneSite Prospect Management): one row per prospect contact of a period —
/// the consultant, the date, this contact's type, return visits, whether it converted an off-site prospect, the
/// prospect's name, initial contact type and ad source, the floor plan wanted, the guest card's current status, and
/// for lease, waitlist and cancel rows a 0/1 in their own column (such rows print no contact type).
///
/// Layout (docs/onesite-reports.md, "Activity (3837) and Leasing Activity Detail"; checked on two real downloads):
/// the Crystal export puts each consultant's rows under a `Leasing Consultant:  Name` label and ends them with a
/// `Totals for Name  :` block of `Label: count` cells (`Phone Call: 75`, `Leases: 5`), the last one
/// `Totals for Property:`; the data-only export has a Leasing Consultant column and prints the same counts per
/// consultant on a second sheet (held against the stored rows by the loader, `LeadDetailTally.printedTotals`).
/// Every block's figures are held against the rows it covers (`LeadDetailTally`) and kept as printed totals, which
/// the sync reconciles (`leasing_activity_totals`).
struct LeasingActivityDetailParser: OneSiteReportParser {
    static let table = RawTable("realpage_leasing_activity_detail", since: 41, columns: [
        .read("leasing_consultant", .text, header: "Leasing Consultant"),
        .read("contact_date", .date, header: "Date", key: true),
        .read("contact_type", .text, header: "This contact type", synonyms: ["Contact Type"]),
        .read("return_visits", .integer, header: "# Of Return Visits", synonyms: ["Return Visits"]),
        .read("off_site_conversion", .text, header: "Off-Site Conversion This Period",
              synonyms: ["Off-Site Conversion"]),
        .read("prospect_name", .text, header: "Prospect Name"),
        .read("initial_contact_type", .text, header: "Initial Contact Type"),
        .read("ad_source", .text, header: "Ad Source"),
        .read("floor_plan_group", .text, header: "Floor Plan Group"),
        .read("floor_plan", .text, header: "Floor Plan"),
        .read("date_needed", .date, header: "Date Needed"),
        .read("next_follow_up", .date, header: "Next Scheduled Follow Up"),
        .read("guest_card_status", .text, header: "Current Guest Card Status"),
        .derived("leases", .integer),
        .derived("waitlist", .integer),
        .derived("cancelled_denied", .integer),
        .read("results", .text, header: "Results/Lost Reason", synonyms: ["Results/ Lost Reason"]),
    ])

    static let descriptor = ReportDescriptor(
        .leasingActivityDetail, "leasing activity detail", titles: ["LEASING ACTIVITY DETAIL"],
        codes: ["lea-236-001"], table: table, parser: LeasingActivityDetailParser.self)

    /// The table's read columns, the date, contact type and prospect name required to find the header.
    static var layouts: [HeaderLayout] {
        let required: Set<String> = ["Date", "This contact type", "Prospect Name"]
        return [HeaderLayout(report: .leasingActivityDetail, name: "contacts", columns: table.columns.compactMap {
            $0.header.map { ColumnSpec($0.name, $0.kind, required: required.contains($0.name), synonyms: $0.synonyms) }
        })]
    }

    /// The 0/1 columns that stand for the contact type on rows that print none, and the type each gives.
    static let outcomeColumns = [("leases", "Lease"), ("waitlist", "Waitlist"), ("cancelled_denied", "Cancelled/Denied")]

    let header: HeaderMap
    let context: ParseContext
    /// The consultant named by the last `Leasing Consultant:  Name` label (Crystal export).
    private var consultant: String?
    /// Rows counted since the last `Totals for ...` block, and over the whole report.
    private var sinceTotals = LeadDetailTally()
    private var all = LeadDetailTally()
    /// The `Totals for ...` block being read: its label, row, whether it covers the property, and its counts.
    private var totalsBlock: (label: String, row: Int, property: Bool, printed: [String: Int])?

    init(layoutIndex: Int, header: HeaderMap, context: ParseContext) {
        self.header = header; self.context = context
        consultant = context.title.consultantLabel.flatMap(Self.consultantLabel)
    }

    mutating func consume(_ row: SheetRow, kind: ContentKind, into records: inout [ReportRecord]) throws -> Bool {
        if totalsBlock != nil {
            let pairs = LeadDetailTally.labelledCounts(in: row)
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
            if let name = Self.consultantLabel(text) { consultant = name }
            return true
        case .total(let label, _):
            if HeaderText.key(label).hasPrefix("totalsfor") {
                // `Totals for Admin, Admin  :` / `Totals for Property:`: counts follow in the next rows.
                totalsBlock = (label, row.number, HeaderText.key(label).hasPrefix("totalsforproperty"), [:])
            }
            return true
        case .data:
            let view = RowView(row: row, header: header, context: context)
            guard var record = try Self.record(view) else { return true }
            let outcomes = Self.outcomeCounts(view)
            for (index, (column, _)) in Self.outcomeColumns.enumerated() where record[column] == .null {
                record[column] = RawValue(outcomes?[index])
            }
            if record["contact_type"] == .null {
                let type = outcomes.flatMap { counts in Self.outcomeColumns.indices.first { counts[$0] > 0 } }
                    .map { Self.outcomeColumns[$0].1 }
                if type == nil {
                    context.warn("row \(row.number): no contact type and no lease, waitlist or cancel mark; stored as Unknown")
                }
                record["contact_type"] = .text(type ?? "Unknown")
            }
            if record["leasing_consultant"] == .null { record["leasing_consultant"] = RawValue(consultant) }
            sinceTotals.add(record)
            all.add(record)
            records.append(.row(record))
            return true
        }
    }

    /// The row's record; nil for a row without a date. The Crystal export draws its values up to five columns
    /// left of their merged headers, differently per field, so its rows are read by order (`pageImageRecord`).
    static func record(_ view: RowView) throws -> RawRow? {
        view.has("Leasing Consultant") ? try columnRecord(view) : try pageImageRecord(view)
    }

    /// A Crystal row by the order of its values: date, contact type (none on lease, waitlist and cancel rows),
    /// return visits (a count, mostly blank), off-site conversion (Yes / No), then prospect name, initial contact
    /// type, ad source, floor plan group and floor plan; from the right end: results, the three 0/1 outcome marks,
    /// the guest card status, and before it the date needed and next follow-up (dates).
    static func pageImageRecord(_ view: RowView) throws -> RawRow? {
        var cells = view.row.cells.filter { !$0.isBlank }[...]
        guard let first = cells.first, let date = try? first.date() else { return nil }
        var record = RawRow(table, sourceRow: view.number)
        record["contact_date"] = .date(date)
        cells = cells.dropFirst()
        func isCount(_ cell: CellValue) -> Bool {
            switch cell {
            case .number: return (try? cell.count()) != nil
            case .text(let text): return !text.isEmpty && text.allSatisfy(\.isASCIIDigit)
            default: return false
            }
        }
        func isYesNo(_ cell: CellValue) -> Bool { ["yes", "no"].contains(cell.text?.trimmingWhitespace.lowercased() ?? "") }
        if let cell = cells.first, !isCount(cell), !isYesNo(cell) {
            record["contact_type"] = RawValue(cell.text); cells = cells.dropFirst()
        }
        if let cell = cells.first, isCount(cell), cells.dropFirst().first.map(isYesNo) == true {
            record["return_visits"] = RawValue(try? cell.count()); cells = cells.dropFirst()
        }
        if let cell = cells.first, isYesNo(cell) {
            record["off_site_conversion"] = RawValue(cell.text); cells = cells.dropFirst()
        }
        if let last = cells.last, !isCount(last), status(last.text ?? "") == nil, (try? last.date()) == nil {
            record["results"] = RawValue(last.text); cells = cells.dropLast()
        }
        var marks: [Int] = []
        while marks.count < 3, let last = cells.last, isCount(last) {
            marks.insert((try? last.count()) ?? 0, at: 0); cells = cells.dropLast()
        }
        if marks.count == 3 {
            for (index, (column, _)) in outcomeColumns.enumerated() { record[column] = .integer(marks[index]) }
        }
        if let last = cells.last, let text = last.text, let status = status(text) {
            record["guest_card_status"] = .text(status); cells = cells.dropLast()
        }
        var dates: [LocalDate] = []
        while dates.count < 2, let last = cells.last, let day = try? last.date() {
            dates.insert(day, at: 0); cells = cells.dropLast()
        }
        record["date_needed"] = RawValue(dates.first)
        record["next_follow_up"] = RawValue(dates.count > 1 ? dates[1] : nil)
        for (column, cell) in zip(["prospect_name", "initial_contact_type", "ad_source", "floor_plan_group", "floor_plan"],
                                  cells) {
            record[column] = RawValue(cell.text)
        }
        return record
    }

    /// A data-only row: every value under its header. The Crystal export prints no return visits on most rows and
    /// its `No` / `Yes` of Off-Site Conversion may drift under the return visits header: read there, it is the
    /// conversion, not a count.
    static func columnRecord(_ view: RowView) throws -> RawRow? {
        var record = RawRow(table, sourceRow: view.number)
        let lenient: Set<String> = ["return_visits", "off_site_conversion", "date_needed", "next_follow_up",
                                    "guest_card_status"]
        for column in table.columns where !lenient.contains(column.name) {
            guard let spec = column.header else { continue }
            let value = try view.value(spec.name, as: column.kind)
            if column.isKey, value == .null { return nil }
            record[column.name] = value
        }
        let returns = view.text("# Of Return Visits").map { String($0.trimmingWhitespace) }
        var offSite = view.text("Off-Site Conversion This Period")
        if offSite == nil, let returns, ["yes", "no"].contains(returns.lowercased()) { offSite = returns }
        record["off_site_conversion"] = RawValue(offSite)
        record["return_visits"] = RawValue(try? view.count("# Of Return Visits"))
        // Dates and the status drift by a column or two over the merged headers: a date column holding the status
        // is no date, and the status is the one cell holding a guest card status.
        record["date_needed"] = RawValue((try? view.date("Date Needed")) ?? nil)
        record["next_follow_up"] = RawValue((try? view.date("Next Scheduled Follow Up")) ?? nil)
        record["guest_card_status"] = RawValue(view.text("Current Guest Card Status").flatMap(Self.status)
            ?? view.row.cells.lazy.compactMap { $0.text.flatMap(Self.status) }.first)
        return record
    }

    /// The guest card statuses OneSite prints (`Active`, `Leased`, `Lost`, `Unqualified`, ...), as printed.
    static let statuses: Set<String> = ["active", "leased", "lost", "unqualified", "applicant", "waitlist",
                                        "cancelled", "denied", "inactive"]

    static func status(_ text: String) -> String? {
        statuses.contains(text.trimmingWhitespace.lowercased()) ? String(text.trimmingWhitespace) : nil
    }

    /// Leases, Waitlist and Cancelled/Denied of a row, read by order, not by header: they are the row's last three
    /// whole numbers (right of the guest card status), and the Crystal export drifts them over merged headers.
    static func outcomeCounts(_ view: RowView) -> [Int]? {
        let counts = view.row.cells.compactMap { cell -> Int? in
            switch cell {
            case .number: return try? cell.count()
            case .text(let text): return !text.isEmpty && text.allSatisfy(\.isASCIIDigit) ? Int(text) : nil
            default: return nil
            }
        }
        return counts.count >= 3 ? Array(counts.suffix(3)) : nil
    }

    private mutating func closeTotalsBlock() {
        guard let block = totalsBlock else { return }
        let covered = block.property ? all : sinceTotals
        for total in covered.totals(block.printed, label: block.label, row: block.row) {
            context.keep(total, warn: LeadDetailTally.derivedFromRows(total.measure))
        }
        sinceTotals = LeadDetailTally()
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

/// Leasing Activity Detail rows counted as its totals count them, held against a totals block's `Label: count`
/// figures: contacts by type, visits, return visits, off-site conversions, leases, waitlist, cancelled/denied and
/// net leases from the rows; new prospects as OwnerDash's lead rule counts them (docs/metrics.md).
public struct LeadDetailTally: Sendable {
    /// Rows by contact-type key (`phonecall`, `visit`, `lease`, ...).
    private var types: [String: Int] = [:]
    private var returnVisits = 0
    private var offSiteConversions = 0
    /// Per prospect (lower-cased name): the earliest row's date, whether that row is of the initial contact type.
    private var firstContact: [String: (date: LocalDate, isInitial: Bool)] = [:]

    public init() {}

    /// The measures a totals block prints, by label key, and the name each is recorded under.
    static let measures: [String: String] = [
        "newprospect": "new prospects", "returnvisit": "return visits", "offsiteconversion": "off-site conversions",
        "visit": "visits", "notinratio": "not in ratio", "netvisit": "net visits", "lease": "leases",
        "waitlist": "waitlist", "cancelled/denied": "cancelled/denied", "netlease": "net leases",
        "phonecall": "phone call", "chat": "chat", "fax/letter": "fax/letter", "email": "e-mail",
        "callcenter": "call center", "textmessage": "text message", "event": "event",
        "propertyreferral": "property referral", "internet": "internet", "prerecordedtour": "pre-recorded - tour",
        "selfguidedtour": "self-guided - tour", "videotelephonytour": "videotelephony - tour",
    ]

    /// Whether a measure is a count of the rows (a difference is a misread); new prospects are counted by
    /// OneSite from its guest cards, which the rows do not show.
    public static func derivedFromRows(_ measure: String) -> Bool { measure != "new prospects" }

    /// A label or type as compared: `Phone-call`, `¹Phone Call:` and `Phone call` alike; plural `Visits` = `Visit`.
    static func key(_ text: String) -> String {
        var key = HeaderText.key(text.filter { $0.isLetter || $0 == "/" || $0 == " " || $0 == "-" })
        if key.hasSuffix("s"), !key.hasSuffix("ss") { key.removeLast() }
        return key
    }

    /// Counts one stored row (a `realpage_leasing_activity_detail` record).
    mutating func add(_ row: RawRow) {
        guard case .date(let date) = row["contact_date"] else { return }
        func text(_ column: String) -> String? { if case .text(let value) = row[column] { value } else { nil } }
        var returns: Int?
        if case .integer(let value) = row["return_visits"] { returns = value }
        add(type: text("contact_type"), date: date, returnVisits: returns, offSite: text("off_site_conversion"),
            name: text("prospect_name"), initialType: text("initial_contact_type"))
    }

    /// Counts one row by its stored values.
    public mutating func add(type: String?, date: LocalDate, returnVisits: Int?, offSite: String?, name: String?,
                             initialType: String?) {
        let typeKey = type.map(Self.key) ?? ""
        types[typeKey, default: 0] += 1
        self.returnVisits += returnVisits ?? 0
        if offSite?.trimmingWhitespace.lowercased() == "yes" { offSiteConversions += 1 }
        guard let name = name?.trimmingWhitespace.lowercased(), !name.isEmpty,
              !["lease", "waitlist", "cancelled/denied", "unknown"].contains(typeKey) else { return }
        let isInitial = initialType.map { Self.key($0) == typeKey } ?? true
        if let first = firstContact[name], first.date <= date { return }
        firstContact[name] = (date, isInitial)
    }

    /// What the rows give for a measure; nil for one they cannot (not in ratio, close %).
    func computed(_ measure: String, printed: [String: Int]) -> Int? {
        let count = { (key: String) in self.types[key] ?? 0 }
        switch measure {
        case "new prospects": return firstContact.values.filter(\.isInitial).count
        case "return visits": return returnVisits
        case "off-site conversions": return offSiteConversions
        case "net leases": return count("lease") + count("waitlist") - count("cancelled/denied")
        case "net visits": return count("visit") - (printed["not in ratio"] ?? 0)
        case "not in ratio": return nil
        default: return Self.measures.first { $0.value == measure }.map { count($0.key) }
        }
    }

    /// Every printed figure the rows can be held against, as a printed total beside what the rows give.
    public func totals(_ printed: [String: Int], label: String, row: Int) -> [PrintedTotal] {
        var byMeasure: [String: Int] = [:]
        for (name, value) in printed {
            if let measure = Self.measures[Self.key(name)] { byMeasure[measure] = value }
        }
        return byMeasure.sorted { $0.key < $1.key }.compactMap { measure, value in
            computed(measure, printed: byMeasure).map {
                PrintedTotal(label: label, row: row, measure: measure, printed: Double(value), computed: Double($0))
            }
        }
    }

    /// The per-consultant sheet of the data-only export: its `Totals for Property` row's counts, by header; nil when
    /// the rows are not that sheet.
    public static func printedTotals(in rows: [SheetRow]) -> (label: String, row: Int, printed: [String: Int])? {
        guard let headerIndex = rows.firstIndex(where: { row in
            row.cells.first?.text.map(HeaderText.key) == "leasingconsultant"
                && row.cells.contains { $0.text.map(HeaderText.key) == "newprospects" }
        }) else { return nil }
        let names = rows[headerIndex].cells.map { $0.text ?? "" }
        for row in rows[(headerIndex + 1)...] {
            guard let label = row.cells.first?.text, HeaderText.key(label).hasPrefix("totalsforproperty") else { continue }
            var printed: [String: Int] = [:]
            for (column, cell) in row.cells.enumerated() where column > 0 && column < names.count && !names[column].isEmpty {
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
