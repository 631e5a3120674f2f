import OwnerDashCore

// A report type in one place: its name, how it is recognised, the raw table it fills and the parser that reads it.
// `ReportCatalog.all` lists every descriptor; RawStore creates the tables they declare (`RealPageRawSchema`) and
// writes their rows without knowing any report by name.

/// Everything OwnerDash knows about one OneSite report type.
public struct ReportDescriptor: Sendable {
    public let type: ReportType
    /// The report's name as a person says it, for messages (`box score`).
    public let displayName: String
    /// Titles as printed above the header (`BOXSCORE`, `Lease summary`), compared normalized (`HeaderText.key`).
    let titles: [String]
    /// Report codes printed beside the title (`120.080.305`, `a/r-702-001`), compared case-insensitively.
    let codes: [String]
    /// The raw table of realpage_raw.db its records fill.
    public let table: RawTable
    /// Tables holding its records' children (cleared with the snapshot).
    public let childTables: [RawTable]
    /// Reads one sheet of the report.
    let parser: any OneSiteReportParser.Type
    /// Header layouts that identify the report on a sheet without a title; nil: every layout of the parser; none
    /// (the default) when only its printed title or code identifies it: a header of a name and a few counts
    /// proves nothing on its own.
    let detectionLayouts: [HeaderLayout]?
    /// The property is named on the last line above the header (a site block: `Ridian` over the Lease Summary
    /// table), not on the `<Company> - <Property>` line.
    let propertyAboveHeader: Bool

    init(_ type: ReportType, _ displayName: String, titles: [String], codes: [String] = [], table: RawTable,
         childTables: [RawTable] = [], parser: any OneSiteReportParser.Type, detectionLayouts: [HeaderLayout]? = [],
         propertyAboveHeader: Bool = false) {
        self.type = type; self.displayName = displayName; self.titles = titles; self.codes = codes
        self.table = table; self.childTables = childTables; self.parser = parser
        self.detectionLayouts = detectionLayouts; self.propertyAboveHeader = propertyAboveHeader
    }
}

/// How a raw column's values are read from a cell and stored: money as REAL dollars, dates as `YYYY-MM-DD` text.
public enum RawColumnKind: Sendable {
    case text, integer, number, money, date
    /// Percent points (`85.29`), whether the cell holds text (`85.29%`) or a percent-formatted fraction.
    case percent
    /// A duration printed as `H:MM` (Hrs:Min columns), stored as whole minutes.
    case minutes

    /// The SQLite column type.
    public var sqlType: String {
        switch self {
        case .text, .date: "TEXT"
        case .integer, .minutes: "INTEGER"
        case .number, .money, .percent: "REAL"
        }
    }

    var cellKind: ColumnKind {
        switch self {
        case .text: .text
        case .integer: .count
        case .number: .number
        case .money: .money
        case .date: .date
        case .percent: .percent
        case .minutes: .text
        }
    }
}

/// One column of a report's raw table, with the header OneSite prints over it.
public struct RawColumn: Sendable {
    public let name: String
    public let kind: RawColumnKind
    /// The header as printed and its other spellings; nil for a column the parser fills itself (a group, a section).
    let header: ColumnSpec?
    /// Summed over the data rows and held against every totals row that prints a figure under it.
    let summed: Bool
    /// A row without a value here is not a record (a label, a page footer); the column is NOT NULL.
    public let isKey: Bool
    /// The realpage_raw migration that added the column to an existing table; nil: created with the table.
    public let since: Int?

    /// A column read from the cell under `header` (or one of its `synonyms`).
    static func read(_ name: String, _ kind: RawColumnKind, header: String, synonyms: [String] = [],
                     key: Bool = false, summed: Bool = false, since: Int? = nil) -> RawColumn {
        precondition(!summed || [.money, .integer, .minutes].contains(kind), "\(name): only amounts, counts and "
                     + "durations are summed against totals rows")
        return RawColumn(name: name, kind: kind,
                  header: ColumnSpec(header, kind.cellKind, required: key, synonyms: synonyms),
                  summed: summed, isKey: key, since: since)
    }

    /// A column the parser fills from something other than the cell under one header (a group label, a section).
    static func derived(_ name: String, _ kind: RawColumnKind, key: Bool = false, since: Int? = nil) -> RawColumn {
        RawColumn(name: name, kind: kind, header: nil, summed: false, isKey: key, since: since)
    }
}

/// A raw table of realpage_raw.db: lineage columns (see `RealPageRawSchema.lineage`) and then `columns`.
public struct RawTable: Sendable {
    public let name: String
    /// The realpage_raw migration that creates the table; nil for tables of the hand-written migrations, whose
    /// records are typed (`ReportRecord` cases) and mapped in `RawReportWriter.columns(of:)`.
    public let since: Int?
    public let columns: [RawColumn]
    private let positions: [String: Int]

    init(_ name: String, since: Int? = nil, columns: [RawColumn] = []) {
        self.name = name; self.since = since; self.columns = columns
        var positions: [String: Int] = [:]
        for (index, column) in columns.enumerated() {
            precondition(positions[column.name] == nil, "\(name).\(column.name) declared twice")
            positions[column.name] = index
        }
        self.positions = positions
    }

    /// The position of a declared column; a name the table does not declare is a programming error.
    func position(of column: String) -> Int {
        guard let position = positions[column] else { preconditionFailure("\(name) has no column \(column)") }
        return position
    }

    /// The one header layout its read columns make.
    func layout(for report: ReportType, name: String) -> HeaderLayout {
        HeaderLayout(report: report, name: name, columns: columns.compactMap(\.header))
    }
}

/// A value of a descriptor-declared raw column, before it becomes an SQLite value.
public enum RawValue: Sendable, Equatable {
    case null
    case text(String)
    case integer(Int)
    case number(Double)
    case money(Money)
    case date(LocalDate)
}

/// A record of a descriptor-declared table: one value per column, in the table's column order.
public struct RawRow: Sendable, Equatable {
    public let table: RawTable
    public private(set) var values: [RawValue]
    /// 1-based sheet row (as Excel shows it) of the record's first line.
    public let sourceRow: Int

    init(_ table: RawTable, sourceRow: Int) {
        self.table = table; self.sourceRow = sourceRow
        values = Array(repeating: .null, count: table.columns.count)
    }

    /// The value of a column by name.
    public subscript(column: String) -> RawValue {
        get { values[table.position(of: column)] }
        set { values[table.position(of: column)] = newValue }
    }

    public static func == (lhs: RawRow, rhs: RawRow) -> Bool {
        lhs.table.name == rhs.table.name && lhs.sourceRow == rhs.sourceRow && lhs.values == rhs.values
    }
}

extension RawValue {
    init(_ text: String?) { self = text.map(RawValue.text) ?? .null }
    init(_ value: Int?) { self = value.map(RawValue.integer) ?? .null }
    init(_ value: Double?) { self = value.map(RawValue.number) ?? .null }
    init(_ value: Money?) { self = value.map(RawValue.money) ?? .null }
    init(_ value: LocalDate?) { self = value.map(RawValue.date) ?? .null }

    /// The amount, for sums; nil for anything that is not money.
    var money: Money? { if case .money(let amount) = self { amount } else { nil } }
}
