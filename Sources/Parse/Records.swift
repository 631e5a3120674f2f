import OwnerDashCore

// Typed rows of the RealPage OneSite reports, one struct per raw table of
// realpage_raw.db (docs/contracts.md, "Databases"). Optional fields are ones a report may lack or
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
    /// `Residential`, `Corporate`, `Employee`, `Model` ... as printed under Unit Designation.
    public var unitDesignation: String?
    /// The head of household's phone and e-mail (the charge-code-column layout prints them).
    public var phone: String?
    public var email: String?
    /// The date a resident on notice is to move out, as printed under Notice For Date.
    public var noticeForDate: LocalDate?
    /// Deposits held (Dep on Hand).
    public var depositsOnHand: Money?
    /// What the lease bills a month over every code (Total Charges); nil where the layout prints none.
    public var totalCharges: Money?
    public var sourceRow: Int

    public init(unitNumber: String, building: String? = nil, floorplan: String? = nil, sqft: Int? = nil,
                residentID: String? = nil, residentName: String? = nil, status: String? = nil,
                marketRent: Money? = nil, actualRent: Money? = nil, moveInDate: LocalDate? = nil,
                leaseStart: LocalDate? = nil, leaseEnd: LocalDate? = nil, moveOutDate: LocalDate? = nil,
                balance: Money? = nil, unitDesignation: String? = nil, phone: String? = nil, email: String? = nil,
                noticeForDate: LocalDate? = nil, depositsOnHand: Money? = nil, totalCharges: Money? = nil,
                sourceRow: Int) {
        self.unitNumber = unitNumber; self.building = building; self.floorplan = floorplan; self.sqft = sqft
        self.residentID = residentID; self.residentName = residentName; self.status = status
        self.marketRent = marketRent; self.actualRent = actualRent; self.moveInDate = moveInDate
        self.leaseStart = leaseStart; self.leaseEnd = leaseEnd; self.moveOutDate = moveOutDate
        self.balance = balance; self.unitDesignation = unitDesignation; self.phone = phone; self.email = email
        self.noticeForDate = noticeForDate; self.depositsOnHand = depositsOnHand; self.totalCharges = totalCharges
        self.sourceRow = sourceRow
    }
}

/// One transaction code of a unit's current lease on the Rent Roll (RENT, WATER, PARK ...): what the lease bills
/// every month under that code, a child of the unit's `RentRollRow`.
public struct RentRollChargeRow: Sendable, Equatable {
    public var unitNumber: String
    public var residentID: String?
    /// The sheet row of the unit the charge belongs to.
    public var unitRow: Int
    public var code: String
    /// The amount printed under Lease Rent (the RENT line), else nil.
    public var leaseRent: Money?
    /// The amount printed under Other Charges/Credits (every other code), else nil.
    public var otherCharges: Money?
    public var sourceRow: Int
    /// The amount printed under the code's own column (the layout with one column per code), else nil: that layout
    /// does not say which codes are rent, so the sync's charge categories decide (RealPageUnits.rentRollLeaseRent).
    public var codeAmount: Money? = nil

    /// What the code bills a month: its own column's amount, else Lease Rent plus Other Charges/Credits.
    public var amount: Money { codeAmount ?? ((leaseRent ?? .zero) + (otherCharges ?? .zero)) }
}

/// One transaction code's line under a Delinquent and Prepaid account (RENT, LATEFEE ...): a child of that account.
public struct DelinquencyCodeRow: Sendable, Equatable {
    public var unitNumber: String
    public var residentID: String?
    /// The sheet row of the account the code belongs to.
    public var accountRow: Int
    public var code: String
    public var description: String?
    /// Prepaid credit as a positive amount.
    public var prepaid: Money
    public var delinquent: Money
    public var balance0to30: Money
    public var balance31to60: Money
    public var balance61to90: Money
    public var balanceOver90: Money
    public var sourceRow: Int
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
    /// From the lines stacked under the name (`Name / Phone Number / Email`).
    public var phone: String?
    public var email: String?
    /// The legend's `*` printed beside the name (resident under eviction); nil where the layout prints no legend.
    public var underEviction: Bool?
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
    /// The time of day the Date cell prints, `HH:MM` (24-hour); nil when it prints a date alone.
    public var activityTime: String?
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

/// One floor plan of the Monthly Activity Summary's occupancy section: its units by status at the as-of date.
public struct MonthlySummaryFloorPlanRow: Sendable, Equatable {
    public var floorplan: String
    public var marketRent: Money?
    public var totalBaseRent: Money?
    public var totalSqft: Int?
    public var totalUnits: Int?
    public var occupiedNoNotice: Int?
    public var vacantNotLeased: Int?
    public var vacantLeased: Int?
    public var noticeNotLeased: Int?
    public var noticeLeased: Int?
    public var vacantAdministrative: Int?
    public var vacantDown: Int?
    public var sourceRow: Int

    public init(floorplan: String, marketRent: Money? = nil, totalBaseRent: Money? = nil, totalSqft: Int? = nil,
                totalUnits: Int? = nil, occupiedNoNotice: Int? = nil, vacantNotLeased: Int? = nil,
                vacantLeased: Int? = nil, noticeNotLeased: Int? = nil, noticeLeased: Int? = nil,
                vacantAdministrative: Int? = nil, vacantDown: Int? = nil, sourceRow: Int) {
        self.floorplan = floorplan; self.marketRent = marketRent; self.totalBaseRent = totalBaseRent
        self.totalSqft = totalSqft; self.totalUnits = totalUnits; self.occupiedNoNotice = occupiedNoNotice
        self.vacantNotLeased = vacantNotLeased; self.vacantLeased = vacantLeased; self.noticeNotLeased = noticeNotLeased
        self.noticeLeased = noticeLeased; self.vacantAdministrative = vacantAdministrative; self.vacantDown = vacantDown
        self.sourceRow = sourceRow
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
    /// From the record's `Phone/email` continuation row, folded into it.
    public var phone: String?
    public var email: String?
    public var sourceRow: Int

    public init(unitNumber: String, residentName: String? = nil, leaseEnd: LocalDate? = nil,
                currentRent: Money? = nil, marketRent: Money? = nil, renewalStatus: String? = nil,
                phone: String? = nil, email: String? = nil, sourceRow: Int) {
        self.unitNumber = unitNumber; self.residentName = residentName; self.leaseEnd = leaseEnd
        self.currentRent = currentRent; self.marketRent = marketRent; self.renewalStatus = renewalStatus
        self.phone = phone; self.email = email; self.sourceRow = sourceRow
    }
}

/// One GL account line of the Income Statement (or the Income Statement Worksheet).
public struct IncomeStatementRow: Sendable, Equatable {
    /// The outermost heading the line sits under (`INCOME`, `EXPENSES`), as printed.
    public var section: String?
    /// The innermost heading, when it is not the section itself (`POTENTIAL INCOME`, `Repairs & Maintenance`).
    public var category: String?
    /// GL account number (`5100-0001`), or the transaction type a worksheet line names instead (`PZ`).
    public var accountNumber: String
    public var accountName: String?
    /// The fiscal period's amount, signed (a worksheet line marked `-` is stored negative).
    public var periodAmount: Money?
    public var ytdAmount: Money?
    public var budgetAmount: Money?
    public var ytdBudgetAmount: Money?
    /// `YYYY-MM` from the title block's `Fiscal Period`, when it prints one.
    public var fiscalPeriod: String?
    public var sourceRow: Int

    public init(section: String? = nil, category: String? = nil, accountNumber: String, accountName: String? = nil,
                periodAmount: Money? = nil, ytdAmount: Money? = nil, budgetAmount: Money? = nil,
                ytdBudgetAmount: Money? = nil, fiscalPeriod: String? = nil, sourceRow: Int) {
        self.section = section; self.category = category; self.accountNumber = accountNumber
        self.accountName = accountName; self.periodAmount = periodAmount; self.ytdAmount = ytdAmount
        self.budgetAmount = budgetAmount; self.ytdBudgetAmount = ytdBudgetAmount; self.fiscalPeriod = fiscalPeriod
        self.sourceRow = sourceRow
    }
}

/// One unit in the make-ready (turn) pipeline of the Make Ready Summary.
public struct MakeReadyRow: Sendable, Equatable {
    public var unitNumber: String
    public var floorplan: String?
    public var sqft: Int?
    public var unitStatus: String?
    public var leaseStatus: String?
    /// The day the unit was vacated (the make-ready opens).
    public var moveOutDate: LocalDate?
    /// Negative while the unit is still on notice; nil when OneSite prints `*`.
    public var daysVacant: Int?
    /// The make-ready's due date.
    public var dueDate: LocalDate?
    public var workOrders: Int?
    public var assignedTo: String?
    /// The make-ready status as printed (`Not Started`, `In Progress`).
    public var status: String?
    public var sourceRow: Int

    public init(unitNumber: String, floorplan: String? = nil, sqft: Int? = nil, unitStatus: String? = nil,
                leaseStatus: String? = nil, moveOutDate: LocalDate? = nil, daysVacant: Int? = nil,
                dueDate: LocalDate? = nil, workOrders: Int? = nil, assignedTo: String? = nil, status: String? = nil,
                sourceRow: Int) {
        self.unitNumber = unitNumber; self.floorplan = floorplan; self.sqft = sqft; self.unitStatus = unitStatus
        self.leaseStatus = leaseStatus; self.moveOutDate = moveOutDate; self.daysVacant = daysVacant
        self.dueDate = dueDate; self.workOrders = workOrders; self.assignedTo = assignedTo; self.status = status
        self.sourceRow = sourceRow
    }
}

/// One unit whose make-ready was completed, from the Closed Make Ready Summary.
public struct ClosedMakeReadyRow: Sendable, Equatable {
    public var unitNumber: String
    public var floorplan: String?
    public var moveOutDate: LocalDate?
    public var dueDate: LocalDate?
    public var completedDate: LocalDate?
    public var daysToComplete: Int?
    public var workOrders: Int?
    public var amountCharged: Money?
    public var completedBy: String?
    public var sourceRow: Int

    public init(unitNumber: String, floorplan: String? = nil, moveOutDate: LocalDate? = nil, dueDate: LocalDate? = nil,
                completedDate: LocalDate? = nil, daysToComplete: Int? = nil, workOrders: Int? = nil,
                amountCharged: Money? = nil, completedBy: String? = nil, sourceRow: Int) {
        self.unitNumber = unitNumber; self.floorplan = floorplan; self.moveOutDate = moveOutDate
        self.dueDate = dueDate; self.completedDate = completedDate; self.daysToComplete = daysToComplete
        self.workOrders = workOrders; self.amountCharged = amountCharged; self.completedBy = completedBy
        self.sourceRow = sourceRow
    }
}

/// One closed work order of a unit's make-ready, from the Closed Make Ready Summary (its lines under the unit).
public struct ClosedMakeReadyWorkOrderRow: Sendable, Equatable {
    public var unitNumber: String
    /// The sheet row of the unit's `ClosedMakeReadyRow`.
    public var unitRow: Int
    /// OneSite's work order number (`2088-1`).
    public var workOrder: String
    public var serviceIssue: String?
    public var worker: String?
    public var closedDate: LocalDate?
    public var amountCharged: Money?
    /// Who logged the time, and the minutes logged (`Hrs:Min` `0:1` is 1).
    public var timeWorkedBy: String?
    public var minutesWorked: Int?
    public var sourceRow: Int

    public init(unitNumber: String, unitRow: Int, workOrder: String, serviceIssue: String? = nil, worker: String? = nil,
                closedDate: LocalDate? = nil, amountCharged: Money? = nil, timeWorkedBy: String? = nil,
                minutesWorked: Int? = nil, sourceRow: Int) {
        self.unitNumber = unitNumber; self.unitRow = unitRow; self.workOrder = workOrder
        self.serviceIssue = serviceIssue; self.worker = worker; self.closedDate = closedDate
        self.amountCharged = amountCharged; self.timeWorkedBy = timeWorkedBy; self.minutesWorked = minutesWorked
        self.sourceRow = sourceRow
    }
}

/// One transaction code of the Monthly Transaction Summary's detail.
public struct MonthlyTransactionRow: Sendable, Equatable {
    /// The heading the code is listed under (`CHARGES`, `CREDITS`, `PAYMENTS`), as printed.
    public var category: String?
    /// OneSite's transaction group (`CA` rent-type charges, `CO` other charges, `PZ` payments).
    public var transactionGroup: String?
    public var code: String
    public var description: String?
    public var glAccount: String?
    /// Year to date through the month before the fiscal period.
    public var ytdPriorAmount: Money?
    /// The fiscal period's amount (`This Month`), as printed: credits and payments negative.
    public var periodAmount: Money?
    /// Year to date through the fiscal period.
    public var ytdAmount: Money?
    /// `YYYY-MM` from the title block's `Fiscal Period`, when it prints one.
    public var fiscalPeriod: String?
    public var sourceRow: Int

    public init(category: String? = nil, transactionGroup: String? = nil, code: String, description: String? = nil,
                glAccount: String? = nil, ytdPriorAmount: Money? = nil, periodAmount: Money? = nil,
                ytdAmount: Money? = nil, fiscalPeriod: String? = nil, sourceRow: Int) {
        self.category = category; self.transactionGroup = transactionGroup; self.code = code
        self.description = description; self.glAccount = glAccount; self.ytdPriorAmount = ytdPriorAmount
        self.periodAmount = periodAmount; self.ytdAmount = ytdAmount; self.fiscalPeriod = fiscalPeriod
        self.sourceRow = sourceRow
    }
}

/// One expiring lease of the Renewal Detail sheet (Lease Expiration/Renewal Detail (Excel)), with the renewal's terms.
public struct RenewalDetailRow: Sendable, Equatable {
    public var unitNumber: String
    public var floorplan: String?
    public var residentName: String?
    /// The current lease's rent.
    public var actualRent: Money?
    public var otherBillings: Money?
    public var lastIncreaseDate: LocalDate?
    public var lastIncreaseAmount: Money?
    public var marketRent: Money?
    public var moveInDate: LocalDate?
    public var leaseEndDate: LocalDate?
    /// `Renewed`, `Vacating`, `Unknown`, `Moved out`, as printed.
    public var decision: String?
    public var newLeaseStart: LocalDate?
    /// Months.
    public var newLeaseTerm: Int?
    public var newRent: Money?
    public var newOtherBillings: Money?
    public var leasingConsultant: String?
    public var sourceRow: Int

    public init(unitNumber: String, floorplan: String? = nil, residentName: String? = nil, actualRent: Money? = nil,
                otherBillings: Money? = nil, lastIncreaseDate: LocalDate? = nil, lastIncreaseAmount: Money? = nil,
                marketRent: Money? = nil, moveInDate: LocalDate? = nil, leaseEndDate: LocalDate? = nil,
                decision: String? = nil, newLeaseStart: LocalDate? = nil, newLeaseTerm: Int? = nil,
                newRent: Money? = nil, newOtherBillings: Money? = nil, leasingConsultant: String? = nil,
                sourceRow: Int) {
        self.unitNumber = unitNumber; self.floorplan = floorplan; self.residentName = residentName
        self.actualRent = actualRent; self.otherBillings = otherBillings; self.lastIncreaseDate = lastIncreaseDate
        self.lastIncreaseAmount = lastIncreaseAmount; self.marketRent = marketRent; self.moveInDate = moveInDate
        self.leaseEndDate = leaseEndDate; self.decision = decision; self.newLeaseStart = newLeaseStart
        self.newLeaseTerm = newLeaseTerm; self.newRent = newRent; self.newOtherBillings = newOtherBillings
        self.leasingConsultant = leasingConsultant; self.sourceRow = sourceRow
    }
}

/// One week of the Projected Occupancy report.
public struct ProjectedOccupancyRow: Sendable, Equatable {
    public var weekStart: LocalDate
    public var weekEnd: LocalDate
    /// Occupied units at the week's beginning.
    public var occupiedBegin: Int
    /// Percent, 0-100, as printed.
    public var occupiedBeginPct: Double?
    public var scheduledMoveIns: Int
    /// Includes transfers out (docs/onesite-reports.md, "Projected Occupancy (3842) and other definitions").
    public var scheduledMoveOuts: Int
    /// Occupied units projected at the week's end (= occupied + move-ins - move-outs).
    public var projectedOccupied: Int
    /// Percent, 0-100, as printed (projected occupied / total units).
    public var projectedPct: Double?
    /// The property's units, from the title block's `Total Units:`.
    public var totalUnits: Int?
    public var sourceRow: Int

    public init(weekStart: LocalDate, weekEnd: LocalDate, occupiedBegin: Int, occupiedBeginPct: Double? = nil,
                scheduledMoveIns: Int, scheduledMoveOuts: Int, projectedOccupied: Int, projectedPct: Double? = nil,
                totalUnits: Int? = nil, sourceRow: Int) {
        self.weekStart = weekStart; self.weekEnd = weekEnd; self.occupiedBegin = occupiedBegin
        self.occupiedBeginPct = occupiedBeginPct; self.scheduledMoveIns = scheduledMoveIns
        self.scheduledMoveOuts = scheduledMoveOuts; self.projectedOccupied = projectedOccupied
        self.projectedPct = projectedPct; self.totalUnits = totalUnits; self.sourceRow = sourceRow
    }
}

/// One unit (or floor plan) of the Lost Rent Summary: market rent and the losses that separate it from rent charged.
public struct LostRentRow: Sendable, Equatable {
    /// Nil in a report summarized by floor plan.
    public var unitNumber: String?
    public var floorplan: String?
    public var residentName: String?
    public var moveInDate: LocalDate?
    public var moveOutDate: LocalDate?
    public var daysOccupied: Int?
    public var marketRent: Money?
    public var leaseRent: Money?
    public var rentCharged: Money?
    public var lossToLease: Money?
    public var gainToLease: Money?
    public var vacancyLoss: Money?
    public var vacancyAdjustments: Money?
    public var concessions: Money?
    public var otherLosses: Money?
    public var totalLostRent: Money?
    public var sourceRow: Int

    public init(unitNumber: String? = nil, floorplan: String? = nil, residentName: String? = nil,
                moveInDate: LocalDate? = nil, moveOutDate: LocalDate? = nil, daysOccupied: Int? = nil,
                marketRent: Money? = nil, leaseRent: Money? = nil, rentCharged: Money? = nil,
                lossToLease: Money? = nil, gainToLease: Money? = nil, vacancyLoss: Money? = nil,
                vacancyAdjustments: Money? = nil, concessions: Money? = nil, otherLosses: Money? = nil,
                totalLostRent: Money? = nil, sourceRow: Int) {
        self.unitNumber = unitNumber; self.floorplan = floorplan; self.residentName = residentName
        self.moveInDate = moveInDate; self.moveOutDate = moveOutDate; self.daysOccupied = daysOccupied
        self.marketRent = marketRent; self.leaseRent = leaseRent; self.rentCharged = rentCharged
        self.lossToLease = lossToLease; self.gainToLease = gainToLease; self.vacancyLoss = vacancyLoss
        self.vacancyAdjustments = vacancyAdjustments; self.concessions = concessions; self.otherLosses = otherLosses
        self.totalLostRent = totalLostRent; self.sourceRow = sourceRow
    }
}

/// One advertising source of the Primary Advertising Source Evaluation: first contacts, leasing, conversion.
public struct AdvertisingSourceRow: Sendable, Equatable {
    public var source: String
    /// First-time contacts (leads).
    public var newProspects: Int?
    public var phoneCalls: Int?
    /// Visits among the first-time contacts.
    public var firstVisits: Int?
    /// Visits in the leasing activity (first and return).
    public var visits: Int?
    public var returnVisits: Int?
    public var applications: Int?
    public var waitlist: Int?
    public var cancelledDenied: Int?
    /// Lease applications + waitlist - cancelled/denied.
    public var netLeases: Int?
    /// Prospects converted to lease applications, percent 0-100 as printed.
    public var prospectConversionPct: Double?
    /// Visits converted to lease applications, percent 0-100 as printed.
    public var visitConversionPct: Double?
    public var sourceRow: Int

    public init(source: String, newProspects: Int? = nil, phoneCalls: Int? = nil, firstVisits: Int? = nil,
                visits: Int? = nil, returnVisits: Int? = nil, applications: Int? = nil, waitlist: Int? = nil,
                cancelledDenied: Int? = nil, netLeases: Int? = nil, prospectConversionPct: Double? = nil,
                visitConversionPct: Double? = nil, sourceRow: Int) {
        self.source = source; self.newProspects = newProspects; self.phoneCalls = phoneCalls
        self.firstVisits = firstVisits; self.visits = visits; self.returnVisits = returnVisits
        self.applications = applications; self.waitlist = waitlist; self.cancelledDenied = cancelledDenied
        self.netLeases = netLeases; self.prospectConversionPct = prospectConversionPct
        self.visitConversionPct = visitConversionPct; self.sourceRow = sourceRow
    }
}

/// One line of Reasons for Move Out: a reason with its count (`lineType` `reason`), or a resident of the move-out
/// list (`lineType` `resident`).
public struct MoveOutReasonRow: Sendable, Equatable {
    /// `reason` or `resident`.
    public var lineType: String
    public var category: String?
    public var reason: String?
    /// Move-outs giving the reason (reason lines).
    public var count: Int?
    /// Percent of all move-outs, 0-100 as printed (reason lines).
    public var percent: Double?
    /// The resident's unit, name and move-out (resident lines).
    public var unitNumber: String?
    public var residentName: String?
    public var moveOutDate: LocalDate?
    public var sourceRow: Int

    public init(lineType: String, category: String? = nil, reason: String? = nil, count: Int? = nil,
                percent: Double? = nil, unitNumber: String? = nil, residentName: String? = nil,
                moveOutDate: LocalDate? = nil, sourceRow: Int) {
        self.lineType = lineType; self.category = category; self.reason = reason; self.count = count
        self.percent = percent; self.unitNumber = unitNumber; self.residentName = residentName
        self.moveOutDate = moveOutDate; self.sourceRow = sourceRow
    }
}

/// One lease of Lease Details (custom columns): every field is optional, as the user picks the columns.
public struct LeaseDetailsRow: Sendable, Equatable {
    public var unitNumber: String?
    public var leaseID: String?
    public var residentName: String?
    public var floorplan: String?
    /// Occupancy or lease status, as printed.
    public var status: String?
    public var leaseStart: LocalDate?
    /// Nil for `MTM` as well as blank.
    public var leaseEnd: LocalDate?
    public var moveInDate: LocalDate?
    public var moveOutDate: LocalDate?
    public var appliedDate: LocalDate?
    public var approvedDate: LocalDate?
    public var noticeDate: LocalDate?
    /// As printed (`12`, `12 Months`).
    public var leaseTerm: String?
    public var leaseRent: Money?
    public var leaseTotal: Money?
    public var deposit: Money?
    public var balance: Money?
    public var noticeType: String?
    public var moveOutReason: String?
    public var sourceRow: Int

    public init(unitNumber: String? = nil, leaseID: String? = nil, residentName: String? = nil,
                floorplan: String? = nil, status: String? = nil, leaseStart: LocalDate? = nil,
                leaseEnd: LocalDate? = nil, moveInDate: LocalDate? = nil, moveOutDate: LocalDate? = nil,
                appliedDate: LocalDate? = nil, approvedDate: LocalDate? = nil, noticeDate: LocalDate? = nil,
                leaseTerm: String? = nil, leaseRent: Money? = nil, leaseTotal: Money? = nil, deposit: Money? = nil,
                balance: Money? = nil, noticeType: String? = nil, moveOutReason: String? = nil, sourceRow: Int) {
        self.unitNumber = unitNumber; self.leaseID = leaseID; self.residentName = residentName
        self.floorplan = floorplan; self.status = status; self.leaseStart = leaseStart; self.leaseEnd = leaseEnd
        self.moveInDate = moveInDate; self.moveOutDate = moveOutDate; self.appliedDate = appliedDate
        self.approvedDate = approvedDate; self.noticeDate = noticeDate; self.leaseTerm = leaseTerm
        self.leaseRent = leaseRent; self.leaseTotal = leaseTotal; self.deposit = deposit; self.balance = balance
        self.noticeType = noticeType; self.moveOutReason = moveOutReason; self.sourceRow = sourceRow
    }
}

/// A record of any of the reports, as handed to a `ReportSink`.
public enum ReportRecord: Sendable, Equatable {
    case boxScore(BoxScoreRow)
    case rentRoll(RentRollRow)
    /// Follows its unit's `.rentRoll` record (the current lease's transaction codes).
    case rentRollCharge(RentRollChargeRow)
    case delinquency(DelinquencyRow)
    /// Follows its account's `.delinquency` record (per-code layout only).
    case delinquencyCode(DelinquencyCodeRow)
    case activity(ActivityRow)
    case monthlySummary(MonthlySummaryRow)
    /// The occupancy section's floor plans, before their report's `.monthlySummary` record.
    case monthlySummaryFloorPlan(MonthlySummaryFloorPlanRow)
    case leaseExpiration(LeaseExpirationRow)
    case incomeStatement(IncomeStatementRow)
    case makeReady(MakeReadyRow)
    case closedMakeReady(ClosedMakeReadyRow)
    /// Follows its unit's `.closedMakeReady` record.
    case closedMakeReadyWorkOrder(ClosedMakeReadyWorkOrderRow)
    case monthlyTransactionSummary(MonthlyTransactionRow)
    case renewalDetail(RenewalDetailRow)
    case projectedOccupancy(ProjectedOccupancyRow)
    case lostRent(LostRentRow)
    case advertisingSource(AdvertisingSourceRow)
    case moveOutReasons(MoveOutReasonRow)
    case leaseDetails(LeaseDetailsRow)
    /// A record of a descriptor-declared table (every report type added since the first sixteen).
    case row(RawRow)
}
