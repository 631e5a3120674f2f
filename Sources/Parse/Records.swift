import OwnerDashCore

// Typed rows of the six RealPage OneSite reports, one struct per raw table of
// realpage_raw.db (DESIGN section 4). Optional fields are ones a report may lack or
// leave blank; they are stored as NULL, never as a made-up zero.
// `sourceRow` is the 1-based sheet row the record was read from (lineage).

/// One floorplan line of the Box Score "Unit Status" section.
public struct BoxScoreRow: Sendable, Equatable {
    public var floorplanGroup: String?
    public var floorplan: String
    public var totalUnits: Int
    public var vacantUnits: Int
    public var vacantNotLeased: Int?
    public var vacantLeased: Int
    public var modelUnits: Int
    public var downUnits: Int
    public var occupiedUnits: Int
    public var occupiedNoNotice: Int?
    /// Occupied with a notice to vacate, leased or not (NTV-NL + NTV-L).
    public var occupiedOnNotice: Int
    /// Occupied on notice and pre-leased (NTV-L).
    public var noticeLeased: Int
    /// Percent, 0-100, as printed.
    public var occupancyPct: Double?
    /// RealPage "Net Leased Percent", 0-100, as printed.
    public var leasedPct: Double?
    public var avgSqft: Double?
    public var avgMarketRent: Money?
    public var avgActualRent: Money?
    public var sourceRow: Int

    public init(floorplanGroup: String? = nil, floorplan: String, totalUnits: Int, vacantUnits: Int,
                vacantNotLeased: Int? = nil, vacantLeased: Int, modelUnits: Int, downUnits: Int,
                occupiedUnits: Int, occupiedNoNotice: Int? = nil, occupiedOnNotice: Int, noticeLeased: Int,
                occupancyPct: Double? = nil, leasedPct: Double? = nil, avgSqft: Double? = nil,
                avgMarketRent: Money? = nil, avgActualRent: Money? = nil, sourceRow: Int) {
        self.floorplanGroup = floorplanGroup; self.floorplan = floorplan; self.totalUnits = totalUnits
        self.vacantUnits = vacantUnits; self.vacantNotLeased = vacantNotLeased; self.vacantLeased = vacantLeased
        self.modelUnits = modelUnits; self.downUnits = downUnits; self.occupiedUnits = occupiedUnits
        self.occupiedNoNotice = occupiedNoNotice; self.occupiedOnNotice = occupiedOnNotice
        self.noticeLeased = noticeLeased; self.occupancyPct = occupancyPct; self.leasedPct = leasedPct
        self.avgSqft = avgSqft; self.avgMarketRent = avgMarketRent; self.avgActualRent = avgActualRent
        self.sourceRow = sourceRow
    }
}

/// One unit/lease line of the Rent Roll detail (the first row per unit is the current lease).
public struct RentRollRow: Sendable, Equatable {
    public var unitNumber: String
    public var building: String?
    public var floorplan: String?
    public var sqft: Int?
    public var residentID: String?
    public var residentName: String?
    public var status: String?
    public var marketRent: Money?
    public var actualRent: Money?
    public var moveInDate: LocalDate?
    public var leaseStart: LocalDate?
    public var leaseEnd: LocalDate?
    public var moveOutDate: LocalDate?
    public var balance: Money?
    public var sourceRow: Int

    public init(unitNumber: String, building: String? = nil, floorplan: String? = nil, sqft: Int? = nil,
                residentID: String? = nil, residentName: String? = nil, status: String? = nil,
                marketRent: Money? = nil, actualRent: Money? = nil, moveInDate: LocalDate? = nil,
                leaseStart: LocalDate? = nil, leaseEnd: LocalDate? = nil, moveOutDate: LocalDate? = nil,
                balance: Money? = nil, sourceRow: Int) {
        self.unitNumber = unitNumber; self.building = building; self.floorplan = floorplan; self.sqft = sqft
        self.residentID = residentID; self.residentName = residentName; self.status = status
        self.marketRent = marketRent; self.actualRent = actualRent; self.moveInDate = moveInDate
        self.leaseStart = leaseStart; self.leaseEnd = leaseEnd; self.moveOutDate = moveOutDate
        self.balance = balance; self.sourceRow = sourceRow
    }
}

/// One resident account of the Delinquent and Prepaid report (transaction-code rows summed).
public struct DelinquencyRow: Sendable, Equatable {
    public var unitNumber: String
    public var residentID: String?
    public var residentName: String?
    public var residentStatus: String?
    /// Net balance = delinquent - prepaid.
    public var currentBalance: Money
    public var balance0to30: Money
    public var balance31to60: Money
    public var balance61to90: Money
    public var balanceOver90: Money
    /// Prepaid credit as a positive amount; nil when the report has no prepaid column.
    public var prepaid: Money?
    public var sourceRow: Int

    public init(unitNumber: String, residentID: String? = nil, residentName: String? = nil,
                residentStatus: String? = nil, currentBalance: Money, balance0to30: Money,
                balance31to60: Money, balance61to90: Money, balanceOver90: Money, prepaid: Money?,
                sourceRow: Int) {
        self.unitNumber = unitNumber; self.residentID = residentID; self.residentName = residentName
        self.residentStatus = residentStatus; self.currentBalance = currentBalance
        self.balance0to30 = balance0to30; self.balance31to60 = balance31to60
        self.balance61to90 = balance61to90; self.balanceOver90 = balanceOver90; self.prepaid = prepaid
        self.sourceRow = sourceRow
    }
}

/// One contact/event line of the Activity report.
public struct ActivityRow: Sendable, Equatable {
    public var activityDate: LocalDate
    public var activityType: String
    public var unitNumber: String?
    public var partyName: String?
    public var source: String?
    public var agent: String?
    public var sourceRow: Int

    public init(activityDate: LocalDate, activityType: String, unitNumber: String? = nil,
                partyName: String? = nil, source: String? = nil, agent: String? = nil, sourceRow: Int) {
        self.activityDate = activityDate; self.activityType = activityType; self.unitNumber = unitNumber
        self.partyName = partyName; self.source = source; self.agent = agent; self.sourceRow = sourceRow
    }
}

/// One period of the Monthly Activity Summary: the property's movement counts for `month`.
public struct MonthlySummaryRow: Sendable, Equatable {
    /// `YYYY-MM`.
    public var month: String
    public var moveIns: Int
    public var moveOuts: Int
    public var renewals: Int?
    public var notices: Int?
    public var skips: Int?
    public var evictions: Int?
    public var sourceRow: Int

    public init(month: String, moveIns: Int, moveOuts: Int, renewals: Int? = nil, notices: Int? = nil,
                skips: Int? = nil, evictions: Int? = nil, sourceRow: Int) {
        self.month = month; self.moveIns = moveIns; self.moveOuts = moveOuts; self.renewals = renewals
        self.notices = notices; self.skips = skips; self.evictions = evictions; self.sourceRow = sourceRow
    }
}

/// One expiring lease of the Lease Expiration report.
public struct LeaseExpirationRow: Sendable, Equatable {
    public var unitNumber: String
    public var residentName: String?
    public var leaseEnd: LocalDate?
    public var currentRent: Money?
    public var marketRent: Money?
    public var renewalStatus: String?
    public var sourceRow: Int

    public init(unitNumber: String, residentName: String? = nil, leaseEnd: LocalDate? = nil,
                currentRent: Money? = nil, marketRent: Money? = nil, renewalStatus: String? = nil,
                sourceRow: Int) {
        self.unitNumber = unitNumber; self.residentName = residentName; self.leaseEnd = leaseEnd
        self.currentRent = currentRent; self.marketRent = marketRent; self.renewalStatus = renewalStatus
        self.sourceRow = sourceRow
    }
}

/// A record of any of the six reports, as handed to a `ReportSink`.
public enum ReportRecord: Sendable, Equatable {
    case boxScore(BoxScoreRow)
    case rentRoll(RentRollRow)
    case delinquency(DelinquencyRow)
    case activity(ActivityRow)
    case monthlySummary(MonthlySummaryRow)
    case leaseExpiration(LeaseExpirationRow)
}
