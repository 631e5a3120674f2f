import OwnerDashCore

/// Every OneSite report type OwnerDash reads: the one list a new report type is added to.
public enum ReportCatalog {
    /// Every descriptor, in the order detection breaks ties (earlier first).
    public static let all: [ReportDescriptor] = legacy + [
        LeaseSummaryReport.descriptor,
        LeasingActivitySummaryParser.descriptor,
        LeasingActivityDetailParser.descriptor,
        MakeReadyAnalysisReport.descriptor,
        ManagementFeeSummaryReport.descriptor,
        ConcessionsReport.descriptor,
        TransactionDetailReport.descriptor,
        TransactionDetailSummaryReport.descriptor,
        TransactionDetailGLNetReport.descriptor,
        ChargeJournalReport.descriptor,
        CashBasisGLReport.descriptor,
        MonthlyIncomeSummaryReport.descriptor,
        CollectionsReport.descriptor,
    ]

    /// Descriptors by type name.
    static let byName: [String: ReportDescriptor] = Dictionary(all.map { ($0.type.rawValue, $0) },
                                                               uniquingKeysWith: { first, _ in first })

    /// Normalized printed titles and the report each names.
    static let titles: [String: ReportType] = index(all.map { ($0.type, $0.titles.map(HeaderText.key)) })

    /// Lowercased report codes and the report each names.
    static let codes: [String: ReportType] = index(all.map { ($0.type, $0.codes.map { $0.lowercased() }) })

    /// The descriptor of a type; every `ReportType` value is declared by one.
    public static func descriptor(for type: ReportType) -> ReportDescriptor {
        guard let descriptor = byName[type.rawValue] else { preconditionFailure("no descriptor for \(type)") }
        return descriptor
    }

    private static func index(_ entries: [(ReportType, [String])]) -> [String: ReportType] {
        var index: [String: ReportType] = [:]
        for (type, keys) in entries {
            for key in keys {
                precondition(index[key] == nil, "\"\(key)\" names two report types")
                index[key] = type
            }
        }
        return index
    }

    // MARK: - The first sixteen types: typed records, tables in RealPageRawSchema's numbered migrations

    // Their header layouts also identify them on a sheet without a title (`detectionLayouts: nil`), as they always
    // have; later types are recognised by their printed title or code only.

    static let legacy: [ReportDescriptor] = [
        ReportDescriptor(.boxScore, "box score", titles: ["boxscore", "boxscorereport"], codes: ["120.080.305"],
                         table: RawTable("realpage_box_score"), parser: BoxScoreParser.self, detectionLayouts: nil),
        ReportDescriptor(.rentRoll, "rent roll",
                         titles: ["rentroll", "rentrolldetail", "rentrolldetailexcel", "rentrollwithleasecharges"],
                         table: RawTable("realpage_rent_roll"), childTables: [RawTable("realpage_rent_roll_charges")],
                         parser: RentRollParser.self, detectionLayouts: nil),
        ReportDescriptor(.delinquency, "delinquency",
                         titles: ["delinquentandprepaid", "delinquentandprepaidreport", "delinquency",
                                  "delinquencyreport"],
                         codes: ["120.080.106"], table: RawTable("realpage_delinquency"),
                         childTables: [RawTable("realpage_delinquency_codes")], parser: DelinquencyParser.self, detectionLayouts: nil),
        ReportDescriptor(.activity, "activity", titles: ["activity", "activityreport"],
                         table: RawTable("realpage_activity"), parser: ActivityParser.self, detectionLayouts: nil),
        ReportDescriptor(.monthlySummary, "monthly activity summary", titles: ["monthlyactivitysummary"],
                         codes: ["mgt-542-001"], table: RawTable("realpage_monthly_summary"),
                         childTables: [RawTable("realpage_monthly_summary_floorplans")],
                         parser: MonthlySummaryParser.self, detectionLayouts: nil),
        ReportDescriptor(.leaseExpiration, "lease expiration",
                         titles: ["leaseexpirationdetail", "leaseexpiration", "leaseexpirations",
                                  "leaseexpiration/renewaldetail", "leaseexpirationdetailexcel"],
                         codes: ["rpt-001-702"], table: RawTable("realpage_lease_expirations"),
                         parser: LeaseExpirationParser.self, detectionLayouts: nil),
        ReportDescriptor(.incomeStatement, "income statement",
                         titles: ["incomestatement", "incomestatementworksheet", "incomestatementbygl"],
                         codes: ["120.080.131"], table: RawTable("realpage_income_statement"),
                         parser: IncomeStatementParser.self, detectionLayouts: nil),
        ReportDescriptor(.makeReady, "make ready summary", titles: ["makereadysummary", "makeready"],
                         table: RawTable("realpage_make_ready"), parser: MakeReadyParser.self, detectionLayouts: nil),
        ReportDescriptor(.closedMakeReady, "closed make ready", titles: ["closedmakeready", "closedmakereadysummary"],
                         table: RawTable("realpage_closed_make_ready"),
                         childTables: [RawTable("realpage_closed_make_ready_work_orders")], parser: ClosedMakeReadyParser.self, detectionLayouts: nil),
        ReportDescriptor(.monthlyTransactionSummary, "monthly transaction summary",
                         titles: ["monthlytransactionsummary"], table: RawTable("realpage_monthly_transactions"),
                         parser: MonthlyTransactionSummaryParser.self, detectionLayouts: nil),
        ReportDescriptor(.renewalDetail, "renewal detail", titles: ["renewaldetail"],
                         table: RawTable("realpage_renewal_detail"), parser: RenewalDetailParser.self, detectionLayouts: nil),
        ReportDescriptor(.projectedOccupancy, "projected occupancy", titles: ["projectedoccupancy"],
                         table: RawTable("realpage_projected_occupancy"), parser: ProjectedOccupancyParser.self, detectionLayouts: nil),
        ReportDescriptor(.lostRent, "lost rent summary", titles: ["lostrentsummary", "lostrentsummaryexcel"],
                         table: RawTable("realpage_lost_rent"), parser: LostRentSummaryParser.self, detectionLayouts: nil),
        ReportDescriptor(.advertisingSource, "primary advertising source",
                         titles: ["primaryadvertisingsource", "primaryadvertisingsourceevaluation"],
                         table: RawTable("realpage_advertising_source"), parser: AdvertisingSourceParser.self, detectionLayouts: nil),
        // A list of units with move-out dates would claim other reports' headers: only the reasons table detects.
        ReportDescriptor(.moveOutReasons, "reasons for move out",
                         titles: ["reasonsformoveout", "reasonsformoveouts", "moveoutreasons"],
                         table: RawTable("realpage_move_out_reasons"), parser: MoveOutReasonsParser.self,
                         detectionLayouts: [MoveOutReasonsParser.layouts[0]]),
        // Lease Details chosen by unit is as generic as a list of leases: only its lease-id layout detects.
        ReportDescriptor(.leaseDetails, "lease details", titles: ["leasedetails", "leasedetail"],
                         table: RawTable("realpage_lease_details"), parser: LeaseDetailsParser.self,
                         detectionLayouts: [LeaseDetailsParser.layouts[1]]),
    ]
}

extension ReportType {
    public static let boxScore = ReportType(declaring: "box_score")
    public static let rentRoll = ReportType(declaring: "rent_roll")
    public static let delinquency = ReportType(declaring: "delinquency")
    public static let activity = ReportType(declaring: "activity")
    public static let monthlySummary = ReportType(declaring: "monthly_summary")
    public static let leaseExpiration = ReportType(declaring: "lease_expiration")
    public static let incomeStatement = ReportType(declaring: "income_statement")
    public static let makeReady = ReportType(declaring: "make_ready_summary")
    public static let closedMakeReady = ReportType(declaring: "closed_make_ready")
    public static let monthlyTransactionSummary = ReportType(declaring: "monthly_transaction_summary")
    public static let renewalDetail = ReportType(declaring: "renewal_detail")
    public static let projectedOccupancy = ReportType(declaring: "projected_occupancy")
    public static let lostRent = ReportType(declaring: "lost_rent_summary")
    public static let advertisingSource = ReportType(declaring: "primary_advertising_source")
    public static let moveOutReasons = ReportType(declaring: "move_out_reasons")
    public static let leaseDetails = ReportType(declaring: "lease_details")
}
