import OwnerDashCore

/// A RealPage OneSite report type, named as report_definitions.json's `parser` names it (`box_score`, ...).
///
/// Each type is declared by its `ReportDescriptor` (raw table, columns, titles, parser) and listed once in
/// `ReportCatalog.all`; this value is only its name. Reports the fetch catalogue does not request are loaded
/// from files (`ownerdash load FILE`).
public struct ReportType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String

    /// A type some descriptor declares; nil for any other name.
    public init?(rawValue: String) {
        guard ReportCatalog.byName[rawValue] != nil else { return nil }
        self.rawValue = rawValue
    }

    /// Declares a type's name; only descriptors call this.
    init(declaring name: String) { rawValue = name }

    /// Every known report type, in catalogue order.
    public static var allCases: [ReportType] { ReportCatalog.all.map(\.type) }

    /// Everything known about this type.
    public var descriptor: ReportDescriptor { ReportCatalog.descriptor(for: self) }

    /// The raw table of realpage_raw.db this report fills.
    public var rawTable: String { descriptor.table.name }

    /// Tables holding the children of this report's records (cleared with its snapshot).
    public var childTables: [String] { descriptor.childTables.map(\.name) }

    /// The report's name as a person says it, for messages.
    public var displayName: String { descriptor.displayName }

    public var description: String { rawValue }
}

/// What the title block of a report says about itself.
public struct ReportMetadata: Sendable, Equatable {
    public var reportType: ReportType
    /// Property name from the `<Management company> - <Property name>` line, if present.
    public var propertyName: String?
    /// The "As of" date, or the end of the report's date range.
    public var asOf: LocalDate?
    /// Start of the report's date range, when it has one.
    public var periodStart: LocalDate?
    /// The OneSite site number printed beside the property name (`... - The Northern - 5375283`), if any.
    public var siteNumber: String?

    public init(reportType: ReportType, propertyName: String? = nil, asOf: LocalDate? = nil,
                periodStart: LocalDate? = nil, siteNumber: String? = nil) {
        self.reportType = reportType; self.propertyName = propertyName
        self.asOf = asOf; self.periodStart = periodStart; self.siteNumber = siteNumber
    }
}

/// Receives a report's metadata once, before its first record, then every record in sheet order.
public protocol ReportSink {
    mutating func begin(_ metadata: ReportMetadata) throws
    mutating func emit(_ record: ReportRecord) throws
}

/// What a finished parse tells the caller besides the records.
public struct ReportSummary: Sendable, Equatable {
    public var metadata: ReportMetadata
    public var recordCount: Int
    /// Non-fatal findings for the run output, e.g. data rows that do not add up to the totals row.
    public var warnings: [String]
    /// What a user should know that is not a fault: the report holds no records, and why.
    public var notes: [String]
    /// The report's own printed totals beside the sums of its records: what the sync later reconciles with.
    public var totals: [PrintedTotal]
    /// The header the parse chose from its first rows, to check against merged cells read only after the rows.
    public var headerCheck: HeaderCheck?

    public init(metadata: ReportMetadata, recordCount: Int, warnings: [String], notes: [String] = [],
                totals: [PrintedTotal] = []) {
        self.metadata = metadata; self.recordCount = recordCount; self.warnings = warnings; self.notes = notes
        self.totals = totals
    }
}

/// One figure a report's totals row prints (`Property Totals`, units: 352) and the sum of the records under it.
public struct PrintedTotal: Sendable, Equatable {
    /// The totals row's label as printed.
    public var label: String
    /// Its sheet row.
    public var row: Int
    /// What is totalled (`units`, `net balance`).
    public var measure: String
    /// Dollars for money, the count or minutes otherwise.
    public var printed: Double
    public var computed: Double

    public init(label: String, row: Int, measure: String, printed: Double, computed: Double) {
        self.label = label; self.row = row; self.measure = measure; self.printed = printed; self.computed = computed
    }
}

/// A figure a totals row can print: a count, an amount, a duration.
public protocol TotalFigure: Equatable, CustomStringConvertible {
    /// The figure as stored (dollars for money).
    var figure: Double { get }
}

extension Int: TotalFigure {
    public var figure: Double { Double(self) }
}

extension Money: TotalFigure {
    public var figure: Double { dollars }
}
