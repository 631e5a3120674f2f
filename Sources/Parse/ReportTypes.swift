import OwnerDashCore

/// The RealPage OneSite reports OwnerDash parses; raw values are the `parser` names of report_definitions.json
/// (the reports the fetch catalogue does not request yet are loaded from files: `ownerdash load FILE`).
public enum ReportType: String, Sendable, CaseIterable {
    case boxScore = "box_score"
    case rentRoll = "rent_roll"
    case delinquency = "delinquency"
    case activity = "activity"
    case monthlySummary = "monthly_summary"
    case leaseExpiration = "lease_expiration"
    case incomeStatement = "income_statement"
    case makeReady = "make_ready_summary"
    case closedMakeReady = "closed_make_ready"
    case monthlyTransactionSummary = "monthly_transaction_summary"
    case renewalDetail = "renewal_detail"
    case projectedOccupancy = "projected_occupancy"
    case lostRent = "lost_rent_summary"
    case advertisingSource = "primary_advertising_source"
    case moveOutReasons = "move_out_reasons"
    case leaseDetails = "lease_details"

    /// The raw table of realpage_raw.db this report fills.
    /// Tables holding the children of this report's records (cleared with its snapshot).
    public var childTables: [String] {
        switch self {
        case .delinquency: ["realpage_delinquency_codes"]
        case .rentRoll: ["realpage_rent_roll_charges"]
        case .closedMakeReady: ["realpage_closed_make_ready_work_orders"]
        case .monthlySummary: ["realpage_monthly_summary_floorplans"]
        default: []
        }
    }

    public var rawTable: String {
        switch self {
        case .boxScore: return "realpage_box_score"
        case .rentRoll: return "realpage_rent_roll"
        case .delinquency: return "realpage_delinquency"
        case .activity: return "realpage_activity"
        case .monthlySummary: return "realpage_monthly_summary"
        case .leaseExpiration: return "realpage_lease_expirations"
        case .incomeStatement: return "realpage_income_statement"
        case .makeReady: return "realpage_make_ready"
        case .closedMakeReady: return "realpage_closed_make_ready"
        case .monthlyTransactionSummary: return "realpage_monthly_transactions"
        case .renewalDetail: return "realpage_renewal_detail"
        case .projectedOccupancy: return "realpage_projected_occupancy"
        case .lostRent: return "realpage_lost_rent"
        case .advertisingSource: return "realpage_advertising_source"
        case .moveOutReasons: return "realpage_move_out_reasons"
        case .leaseDetails: return "realpage_lease_details"
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

    public init(metadata: ReportMetadata, recordCount: Int, warnings: [String]) {
        self.metadata = metadata; self.recordCount = recordCount; self.warnings = warnings
    }
}
