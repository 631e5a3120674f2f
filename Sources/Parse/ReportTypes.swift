import OwnerDashCore

/// The RealPage OneSite reports OwnerDash parses; raw values are the `parser` names of report_definitions.json.
public enum ReportType: String, Sendable, CaseIterable {
    case boxScore = "box_score"
    case rentRoll = "rent_roll"
    case delinquency = "delinquency"
    case activity = "activity"
    case monthlySummary = "monthly_summary"
    case leaseExpiration = "lease_expiration"

    /// The raw table of realpage_raw.db this report fills.
    public var rawTable: String {
        switch self {
        case .boxScore: return "realpage_box_score"
        case .rentRoll: return "realpage_rent_roll"
        case .delinquency: return "realpage_delinquency"
        case .activity: return "realpage_activity"
        case .monthlySummary: return "realpage_monthly_summary"
        case .leaseExpiration: return "realpage_lease_expirations"
        }
    }
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

    public init(reportType: ReportType, propertyName: String? = nil, asOf: LocalDate? = nil,
                periodStart: LocalDate? = nil) {
        self.reportType = reportType; self.propertyName = propertyName
        self.asOf = asOf; self.periodStart = periodStart
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

    public init(metadata: ReportMetadata, recordCount: Int, warnings: [String]) {
        self.metadata = metadata; self.recordCount = recordCount; self.warnings = warnings
    }
}
