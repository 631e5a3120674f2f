import Foundation
import OwnerDashCore

// MARK: - Request bodies (docs/onesite-reports.md, "Reporting REST API": the JSON the OneSite web UI sends)

/// `{name, label, value}`: one report parameter.
struct ReportParameter: Encodable, Equatable {
    var name: String
    var label: String
    var value: String
}

/// The parameters each catalogue report is requested with, for an as-of date.
public enum RealPageReportParameters {
    /// Months of completed turns each Closed Make Ready request covers (the as-of month and the 11 before).
    public static let closedMakeReadyMonths = 12
    /// Days of Activity report read before the funnel's 30, so a prospect's first contact shortly before them is known.
    public static let activityLeadInDays = 30

    /// Dates as `MM/DD/YYYY`, fiscal periods `MMYYYY`, months `MM/YYYY`, as the reporting API expects.
    static func parameters(for report: ReportDefinition, asOf: LocalDate) -> [ReportParameter] {
        let day = usDate(asOf)
        let monthStart = usDate(LocalDate(year: asOf.year, month: asOf.month, day: 1) ?? asOf)
        func p(_ name: String, _ value: String) -> ReportParameter { ReportParameter(name: name, label: name, value: value) }
        switch report.parser {
        case "box_score":
            // End_Date must not pass the property date: that is what triggers the error-as-report.
            return [p("SubProperty", "ALL"), p("Start_Date", monthStart), p("End_Date", day), p("ShowUnitDesignations", "Yes")]
        case "rent_roll":
            return [p("AsOfDate", day), p("SubProperty", "ALL"), p("ReportType", "Details + Summary"),
                    p("MarketRentType", "Market + Addl."), p("ExclFormers", "Yes")]
        case "delinquency":
            return [p("FiscalPeriod", fiscalPeriod(asOf)), p("reportType", "Details"), p("PeriodType", "Fiscal")]
        case "activity":
            // The leasing funnel's 30 days ending on the as-of date and `activityLeadInDays` before them: a lead is a
            // prospect's earliest contact in the rows read, so without the lead-in a follow-up inside the 30 days
            // whose first contact came just before them counted as a lead on a fresh data directory (the nightly
            // one, holding the older snapshots, did not: the year benchmark's leads_30d differed by 1-3).
            return [p("startdate", usDate(asOf.adding(days: -29 - activityLeadInDays))), p("enddate", day),
                    p("OccStatus", "Prospect")]
        case "leasing_activity_detail":
            // The same 30 days (parameter names as the Activity report's: this report's own were never seen).
            return [p("startdate", usDate(asOf.adding(days: -29))), p("enddate", day)]
        case "monthly_summary":
            return [p("AccStartDate", monthStart), p("OccStartDate", monthStart), p("AccEndDate", day),
                    p("SubTotal", "Floorplan Name")]
        case "lease_expiration":
            let end = LocalDate(year: asOf.year + (asOf.month + 10) / 12, month: (asOf.month + 10) % 12 + 1, day: 1) ?? asOf
            return [p("startmonth", month(asOf)), p("endmonth", month(end))]
        case "make_ready_summary":
            // Vacant units in the turn pipeline as of the date (notice units print with negative Days Vacant).
            return [p("AsOfDate", day), p("UnitStatus", "Vacant"), p("SortBy", "Unit")]
        case "closed_make_ready":
            // Turns completed from the first of the month `closedMakeReadyMonths` − 1 before the as-of month: each
            // run's snapshot covers that year, so one run holds the work-order history the maintenance report reads.
            let months = asOf.year * 12 + asOf.month - 1 - (closedMakeReadyMonths - 1)
            let first = LocalDate(year: months / 12, month: months % 12 + 1, day: 1) ?? asOf
            return [p("StartDate", usDate(first)), p("EndDate", day), p("DateType", "Date completed"), p("SortBy", "Unit")]
        case "income_statement":
            // The as-of month's statement (month to date): unified_expenses keeps every month loaded.
            return [p("FiscalPeriod", fiscalPeriod(asOf)), p("BookType", "Accrual"),
                    p("ReportFormat", "Income Statement by G/L")]
        case "renewal_detail":
            // Leases ending from the first of the as-of month to the first of the month four later, as the observed
            // download (4156) was run.
            let end = LocalDate(year: asOf.year + (asOf.month + 3) / 12, month: (asOf.month + 3) % 12 + 1, day: 1) ?? asOf
            return [p("IPVC_LEABEGINDATE", monthStart), p("IPVC_LEAENDDATE", usDate(end))]
        case "projected_occupancy":
            return [p("weeksProjectedCount", "12")]
        case "monthly_transaction_summary", "lost_rent_summary":
            return [p("AR_FiscalPeriodSelect", fiscalPeriod(asOf))]
        default:
            return [p("AsOfDate", day)]
        }
    }

    static func usDate(_ date: LocalDate) -> String {
        "\(pad(date.month))/\(pad(date.day))/\(date.year)"
    }

    static func fiscalPeriod(_ date: LocalDate) -> String { "\(pad(date.month))\(date.year)" }
    static func month(_ date: LocalDate) -> String { "\(pad(date.month))/\(date.year)" }

    private static func pad(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}

/// `POST /reports/{reportId}/report-instances`.
struct CreateInstanceBody: Encodable {
    struct PropertyDetail: Encodable {
        var propertyId: String
        var propertyName: String
        var country = "US"
    }

    var reportKey: String
    var sourceId = "OS"
    var scheduledType = 1
    var scheduledDate = ""
    var scheduledTime = ""
    var scheduleDateTime: String? = nil
    var reportFormat: String
    var reportFormatName = "Excel"
    /// Spelled as the web UI spells it.
    var emaiTo = ""
    var properties: [String]
    var propertyDetailList: [PropertyDetail]
    var parameters: [ReportParameter]
    var users: [String] = []
    var cloudServiceAccountId: String? = nil

    init(report: ReportDefinition, reportKey: String, property: Property, siteID: String, parameters: [ReportParameter]) {
        self.reportKey = reportKey
        reportFormat = report.formatCode ?? "3"
        properties = [siteID]
        propertyDetailList = [PropertyDetail(propertyId: siteID, propertyName: property.name)]
        self.parameters = parameters
    }

    func encode(to encoder: any Encoder) throws {
        // The UI sends explicit nulls; synthesized Encodable would drop them.
        enum Key: String, CodingKey {
            case reportKey, sourceId, scheduledType, scheduledDate, scheduledTime, scheduleDateTime, reportFormat,
                 reportFormatName, emaiTo, properties, propertyDetailList, parameters, users, cloudServiceAccountId
        }
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(reportKey, forKey: .reportKey)
        try c.encode(sourceId, forKey: .sourceId)
        try c.encode(scheduledType, forKey: .scheduledType)
        try c.encode(scheduledDate, forKey: .scheduledDate)
        try c.encode(scheduledTime, forKey: .scheduledTime)
        try c.encode(scheduleDateTime, forKey: .scheduleDateTime)
        try c.encode(reportFormat, forKey: .reportFormat)
        try c.encode(reportFormatName, forKey: .reportFormatName)
        try c.encode(emaiTo, forKey: .emaiTo)
        try c.encode(properties, forKey: .properties)
        try c.encode(propertyDetailList, forKey: .propertyDetailList)
        try c.encode(parameters, forKey: .parameters)
        try c.encode(users, forKey: .users)
        try c.encode(cloudServiceAccountId, forKey: .cloudServiceAccountId)
    }
}

/// `POST /my/report-instances`.
struct ListInstancesBody: Encodable {
    var pageSize = 100
    var pageNumber: Int
    var searchText = ""
    var reportProductList: [String] = []
    var reportAreaList: [String] = []
    var startDate: String
    var endDate: String
    var favorite = false
    var PropertiesList: [String] = []
    var OrderBy = "CreatedDate"
    var OrderByDesc = true

    init(pageNumber: Int, startDate: String, endDate: String) {
        self.pageNumber = pageNumber; self.startDate = startDate; self.endDate = endDate
    }
}

/// `POST /reports/{reportId}/report-instances/{instanceId}/files`.
struct DownloadBody: Encodable {
    var reportId: Int
    var parameters: String
    var fileId: String
    var propertyName: String

    init(reportId: Int, reportKey: String, fileId: String, propertyName: String) {
        self.reportId = reportId
        parameters = "reportKey=\(reportKey)&sourceId=OS&fileID=\(fileId)&View=2"
        self.fileId = fileId
        self.propertyName = propertyName
    }
}

// MARK: - Responses

/// An id the API sends as a string or as a number.
struct FlexibleID: Decodable, Equatable {
    var value: String

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let text = try? container.decode(String.self) {
            value = text
        } else {
            value = String(try container.decode(Int64.self))
        }
    }
}

struct CreatedInstance: Decodable {
    var instanceId: FlexibleID?
    var reportInstanceId: FlexibleID?
}

struct InstanceList: Decodable {
    struct Item: Decodable {
        var sourceReportInstanceId: FlexibleID?
        var reportInstanceId: FlexibleID?
        var reportFileId: FlexibleID?
        var status: Int?
    }

    var data: [Item]
    var totalCount: Int?
}
