/// The Yardi Voyager operations OwnerDash fetches (docs/yardi-soap.md): interface, parameters, payload root.
public enum YardiOperation: String, CaseIterable, Sendable {
    case getPropertyConfigurations = "GetPropertyConfigurations"
    case getUnitInformation = "GetUnitInformation"
    case getResidentsByStatus = "GetResidentsByStatus"
    case getResidentLeaseCharges = "GetResidentLeaseCharges_Login"
    case getResidentTransactions = "GetResidentTransactions_Login"
    /// The ledger's transactions dated within a window (an incremental night: `FromDate`..`ToDate`, at most 31 days).
    case getResidentTransactionsByChargeDate = "GetResidentTransactions_ByChargeDate_Login"
    /// The ledger's transactions a payment or credit was applied to within a window (old charges paid tonight).
    case getResidentTransactionsByApplicationDate = "GetResidentTransactions_ByApplicationDate_Login"
    case availableUnits = "AvailableUnits_Login"
    case getYardiGuestActivity = "GetYardiGuestActivity_Login"
    case getServiceRequests = "GetServiceRequest_Search"
    case getInvoiceRegister = "GetInvoiceRegister"

    /// Which interface hosts the operation, as a key of the configuration's `yardi.interfaces`.
    public enum Interface: String, Sendable, CaseIterable {
        case residentData = "resident_data"
        case residentTransactions = "resident_transactions"
        case ilsGuestCard = "ils_guest_card"
        case serviceRequests = "service_requests"
        case vendorInvoicing = "vendor_invoicing"

        /// The `.asmx` name used when the configuration does not name one.
        public var defaultName: String {
            switch self {
            case .residentData: "ItfResidentData"
            case .residentTransactions: "ItfResidentTransactions20"
            case .ilsGuestCard: "ItfILSGuestCard"
            case .serviceRequests: "ItfServiceRequests"
            case .vendorInvoicing: "ItfVendorInvoicing"
            }
        }

        /// Licensed apart from the resident interfaces: an entity without the license has no such data, and the
        /// operation's artifact is skipped rather than failed.
        public var isLicensedApart: Bool { self == .serviceRequests || self == .vendorInvoicing }
    }

    /// The operation's name on the wire, the SOAPAction suffix and the landed file's stem.
    public var name: String { rawValue }

    /// GetPropertyConfigurations is on every interface; ItfResidentData is the one every license has.
    public var interface: Interface {
        switch self {
        case .getPropertyConfigurations, .getUnitInformation, .getResidentsByStatus: .residentData
        case .getResidentLeaseCharges, .getResidentTransactions, .getResidentTransactionsByChargeDate,
             .getResidentTransactionsByApplicationDate: .residentTransactions
        case .availableUnits, .getYardiGuestActivity: .ilsGuestCard
        case .getServiceRequests: .serviceRequests
        case .getInvoiceRegister: .vendorInvoicing
        }
    }

    /// The element the Result must hold (docs/yardi-soap.md, "Payloads").
    public var payloadRoot: String {
        switch self {
        case .getPropertyConfigurations: "Properties"
        case .getUnitInformation: "UnitInformation"
        case .getResidentsByStatus: "MITS-ResidentData"
        case .getResidentLeaseCharges, .getResidentTransactions, .getResidentTransactionsByChargeDate,
             .getResidentTransactionsByApplicationDate: "ResidentTransactions"
        case .availableUnits: "PhysicalProperty"
        case .getYardiGuestActivity: "LeadManagement"
        case .getServiceRequests: "ServiceRequests"
        case .getInvoiceRegister: "InvoiceRegister"
        }
    }

    /// The element a ledger answer lists its households in (`RT_Customer`, side by side in the Property): the fetch's
    /// check frames the answer by it (`SOAPResponse.check(path:records:)`) and the load reads the ledger by household
    /// (LedgerHouseholds); nil for the other answers.
    public var listedRecord: String? {
        switch self {
        case .getResidentTransactions, .getResidentTransactionsByChargeDate, .getResidentTransactionsByApplicationDate,
             .getResidentLeaseCharges: "RT_Customer"
        default: nil
        }
    }

    /// The operations a run selects by name (`--reports`, the default run): the windowed ledger calls are not among
    /// them, they are how GetResidentTransactions_Login is fetched on an incremental night (`LedgerPlanner`).
    public static var catalogue: [YardiOperation] { allCases.filter { !$0.isLedgerWindow } }

    /// A windowed ledger call (`FromDate`/`ToDate`), answering for part of the ledger only.
    public var isLedgerWindow: Bool {
        self == .getResidentTransactionsByChargeDate || self == .getResidentTransactionsByApplicationDate
    }

    /// The longest window the windowed ledger calls accept, in days from `FromDate` to `ToDate` (the WSDL's
    /// documentation: "Date range cannot exceed 31 days"); a longer span is asked in several calls.
    public static let ledgerWindowDays = 31

    /// Whether the operation takes `YardiPropertyId` (all but GetPropertyConfigurations).
    public var isPerProperty: Bool { self != .getPropertyConfigurations }

    /// Residents of every status a household in place or owing money can have: current, notice and eviction (a
    /// household under eviction is still in possession and billed: in-place rent, household counts and lease
    /// expirations need it), future for pre-leasing, past for balances owed. Yardi returns only the statuses named
    /// (Current, Future, Past, Notice, Applicant, Eviction, Denied, Canceled); applicants, denied and canceled ones
    /// are not households.
    public static let residentStatuses = "Current^Notice^Eviction^Future^Past"

    /// Every service request, open and closed: the work-order history is one call ([I]: the WSDL names
    /// `OpenOrClosed`, no capture shows its values; the simulator takes Open, Closed and All).
    public static let serviceRequestFilter = "All"

    /// The months GetResidentLeaseCharges_Login is fetched for, ending with the as-of month: the ledger's window
    /// (as RPX's `ledgerMonths`). The operation answers for one required `PostMonth` only, with the leases in effect
    /// on its first day (no date range, no "every month"), so a lease renewed within the window has its earlier
    /// schedule only in the answers for its own months: one request per month is the only way to have them all.
    public static let leaseChargeMonths = 24

    /// The post months GetInvoiceRegister asks for, ending with the as-of month: a year of operating expenses.
    public static let invoiceMonths = 12

    /// Parameters after `YardiPropertyId`, in WSDL order. `asOf` sets PostMonth (the first of its month) and
    /// GetInvoiceRegister's post-month range (`invoiceMonths` months ending with it).
    public func operationParameters(asOf year: Int, month: Int) -> [SOAPParameter] {
        switch self {
        case .getResidentsByStatus:
            return [.value("Status", Self.residentStatuses)]
        case .getResidentLeaseCharges:
            let mm = month < 10 ? "0\(month)" : "\(month)"
            return [.value("PostMonth", "\(year)-\(mm)-01T00:00:00")]
        case .availableUnits:
            return [.value("ExcludePricing", "false")]
        case .getServiceRequests:
            return [.value("OpenOrClosed", Self.serviceRequestFilter)]
        case .getInvoiceRegister:
            // Post months as MM/DD/YYYY, the first of the month ([I]: the WSDL's parameters are strings and no capture
            // shows a value; Voyager's interfaces read MM/DD/YYYY date strings). The other ranges are sent empty: the
            // post month is what the general ledger counts.
            let first = year * 12 + month - 1 - (Self.invoiceMonths - 1)
            func mdy(_ index: Int) -> String {
                let m = index % 12 + 1
                return "\(m < 10 ? "0" : "")\(m)/01/\(index / 12)"
            }
            return [
                .value("InvoicePostMonthFrom", mdy(first)), .value("InvoicePostMonthTo", mdy(year * 12 + month - 1)),
                .value("InvoiceFromDate", ""), .value("InvoiceToDate", ""),
                .value("InvoiceCreationFromDate", ""), .value("InvoiceCreationToDate", ""),
                .value("InvoiceLastModifiedFromDate", ""), .value("InvoiceLastModifiedToDate", ""),
            ]
        default:
            return []
        }
    }

    /// `http://tempuri.org/YSI.Interfaces.WebServices/<Interface>`, the request namespace.
    public static func namespace(interfaceName: String) -> String {
        "http://tempuri.org/YSI.Interfaces.WebServices/\(interfaceName)"
    }
}

/// The Yardi credential block (docs/yardi-soap.md); `interfaceEntity`/`interfaceLicense` are the ones for this
/// interface.
public struct YardiLogin: Sendable, Equatable {
    public var username: String
    public var password: String
    public var serverName: String
    public var database: String
    public var platform: String
    public var interfaceEntity: String
    public var interfaceLicense: String

    /// The credential block; Platform is `SQL Server` unless the Voyager database is on Oracle.
    public init(username: String, password: String, serverName: String, database: String, platform: String = "SQL Server",
                interfaceEntity: String, interfaceLicense: String) {
        self.username = username; self.password = password; self.serverName = serverName; self.database = database
        self.platform = platform; self.interfaceEntity = interfaceEntity; self.interfaceLicense = interfaceLicense
    }
}

extension YardiOperation {
    /// The request for one property: `<base>/<Interface>.asmx`, SOAPAction `<namespace>/<Operation>`, and the
    /// body with the credential block in WSDL order (UserName ... Platform, YardiPropertyId, parameters,
    /// InterfaceEntity, InterfaceLicense; GetInvoiceRegister's WSDL has InterfaceEntity, InterfaceLicense before
    /// YardiPropertyId).
    public func request(baseURL: String, interfaceName: String, login: YardiLogin, propertyCode: String,
                        asOfYear: Int, asOfMonth: Int, window: (from: String, to: String)? = nil) -> SOAPRequest {
        var base = baseURL
        while base.hasSuffix("/") { base.removeLast() }
        let namespace = Self.namespace(interfaceName: interfaceName)
        var parameters: [SOAPParameter] = [
            .value("UserName", login.username), .value("Password", login.password),
            .value("ServerName", login.serverName), .value("Database", login.database), .value("Platform", login.platform),
        ]
        let license: [SOAPParameter] = [.value("InterfaceEntity", login.interfaceEntity),
                                        .value("InterfaceLicense", login.interfaceLicense)]
        let licenseFirst = self == .getInvoiceRegister
        if licenseFirst { parameters += license }
        if isPerProperty { parameters.append(.value("YardiPropertyId", propertyCode)) }
        if isLedgerWindow, let window {
            // dateTime values, midnight: both ends are included (a transaction dated ToDate is in the answer).
            parameters += [.value("FromDate", window.from + "T00:00:00"), .value("ToDate", window.to + "T00:00:00")]
        } else {
            parameters += operationParameters(asOf: asOfYear, month: asOfMonth)
        }
        if !licenseFirst { parameters += license }
        return SOAPRequest(url: "\(base)/\(interfaceName).asmx", operation: name, soapAction: "\(namespace)/\(name)",
                           body: SOAPEnvelope.build(operation: name, namespace: namespace, parameters: parameters))
    }
}
