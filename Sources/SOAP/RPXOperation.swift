import OwnerDashCore

/// The RealPage RPX gateway operations OwnerDash fetches (docs/rpx-soap.md, "Operations"): arguments and payload root.
public enum RPXOperation: String, CaseIterable, Sendable {
    case getsitelist, getbuildings, unitlist, getunitlist, getresidentlistinfo, getleaseinfo, getrentableitems
    case getresidentledger, getscheduledcharges

    /// Months of posted charges and payments getresidentledger asks for, the as-of month included (the audit and
    /// the ledger reports look back two years).
    public static let ledgerMonths = 24

    /// The tenant-ledger operations (getresidentledger, getscheduledcharges).
    public var isLedger: Bool { self == .getresidentledger || self == .getscheduledcharges }

    /// The operations a property can be synced without. Which operations a license key may call is per partner
    /// contract, so one rule holds for all of them: a refusal ("LicenseKey is not authorized to call the method.")
    /// of an optional operation means the site has no such data (the fetch entry is skipped, the sync names what is
    /// missing), never a failure of the run. Required: getsitelist (the property date), unitlist (the units) and
    /// getresidentlistinfo (the households); a refusal of those fails the property, since every figure needs them.
    public var isOptional: Bool {
        switch self {
        case .getsitelist, .unitlist, .getresidentlistinfo: false
        case .getbuildings, .getunitlist, .getleaseinfo, .getrentableitems, .getresidentledger, .getscheduledcharges: true
        }
    }

    /// Whether a default `fetch` and the nightly `ingest` ask for it, as the report catalogue's `nightly` says for the
    /// OneSite reports: getbuildings and getrentableitems load raw tables (realpage_buildings, realpage_rentable_items)
    /// that no sync rule, metric or report reads, so a night does not spend two calls a property on them; `--reports`
    /// fetches them by name (or `rpx`, every operation).
    public var fetchedNightly: Bool {
        switch self {
        case .getbuildings, .getrentableitems: false
        default: true
        }
    }

    /// The operations a default `fetch` and the nightly `ingest` leave out, as the help texts name them
    /// (`getbuildings and getrentableitems`).
    public static var leftOutNightly: String {
        allCases.filter { !$0.fetchedNightly }.map(\.name).listedInProse
    }

    /// The operation's name on the wire (all lower-case), the SOAPAction suffix and the landed file's stem.
    public var name: String { rawValue }

    /// The element inside `<opResult>` that holds the records.
    public var payloadRoot: String {
        switch self {
        case .getsitelist: "SiteList"
        case .getbuildings: "BuildingList"
        case .unitlist: "UnitList"
        case .getunitlist: "GetUnitList"
        case .getresidentlistinfo: "residentlist"
        case .getleaseinfo: "GetLeaseInfo"
        case .getrentableitems: "GetRentableItemsResponse"
        case .getresidentledger: "ResidentLedger"
        case .getscheduledcharges: "ScheduledCharges"
        }
    }

    /// The record element of an answer that lists the property's whole current state every night (one record per
    /// raw row, in order): what the decoder reads and what a load by record cuts the answer into (`RecordSplit`).
    /// Nil for the site and ledger answers and for those not fetched nightly.
    public var wholeStateRecord: String? {
        switch self {
        case .unitlist: "Unit"
        case .getunitlist: "UnitObject"
        case .getresidentlistinfo: "resident"
        case .getleaseinfo: "Lease"
        case .getscheduledcharges: "ScheduledCharge"
        case .getsitelist, .getbuildings, .getrentableitems, .getresidentledger: nil
        }
    }

    /// The element an answer lists its records in, side by side in the payload: the whole-state record, and a ledger's
    /// household (`Resident`). The fetch's check frames an answer by it (`SOAPResponse.check(path:records:)`) and the
    /// load reads a ledger by household (LedgerHouseholds); nil for the answers too small to be worth it.
    public var listedRecord: String? {
        self == .getresidentledger ? "Resident" : wholeStateRecord
    }

    /// The request namespace of every RPX operation.
    public static let namespace = "http://tempuri.org/"
    /// SOAPAction = this prefix + the operation name.
    public static let actionPrefix = "http://tempuri.org/IRPXService/"

    /// Arguments after `auth`: getunitlist's list criteria (every unit as of the date, `LimitResults` false: not only
    /// the available ones), every resident and household member (one row per member), leases of current,
    /// future and recently former residents (held the status within a year), rentable items as of the date, every
    /// household's ledger over the `ledgerMonths` ending with the as-of date (`reshid` 0 = all; `allopen` false = every
    /// transaction of the window, paid or not), current residents' scheduled charges (`postmonth` is echoed and
    /// ignored by RPX, sent as MMYYYY like `AR_AccountingPeriod`).
    public func arguments(asOf iso: String) -> [SOAPParameter] {
        switch self {
        case .getsitelist, .getbuildings, .unitlist:
            return []
        case .getunitlist:
            return [.group("listCriteria", [
                .group("ListCriterion", [.value("name", "DateNeeded"), .value("singlevalue", iso)]),
                .group("ListCriterion", [.value("name", "LimitResults"), .value("singlevalue", "false")]),
            ])]
        case .getresidentlistinfo:
            return [.group("getresidentlistinfo", [.value("status", "ALL"), .value("headofhousehold", "0")])]
        case .getleaseinfo:
            return [.group("getleaseinfo", [.value("residentstatus", "ALL"), .value("residentheldthestatus", "365")])]
        case .getrentableitems:
            return [.group("getrentableitemRequest", [.value("unitid", "0"), .value("dateneeded", iso), .value("leaseid", "0")])]
        case .getresidentledger:
            return [.group("getresidentledger", [.value("reshid", "0"), .value("startdate", Self.ledgerStart(asOf: iso)),
                                                 .value("enddate", iso), .value("allopen", "false")])]
        case .getscheduledcharges:
            let month = iso.count >= 7 ? String(iso.dropFirst(5).prefix(2)) + String(iso.prefix(4)) : iso
            return [.group("getscheduledcharge", [.value("residentstatus", "C"), .value("postmonth", month)])]
        }
    }

    /// getresidentledger's arguments for part of the ledger: every transaction dated `from`...`to` (an incremental
    /// night), or with `openItems` every charge still open whatever its date (`allopen` true: RPX then ignores the
    /// dates), which is how a charge paid tonight but posted months ago gets its new open amount. `household`: one
    /// household's transactions only (its ReshID; `reshid` 0 asks for every household).
    public static func ledgerArguments(from: String, to: String, openItems: Bool, household: String? = nil) -> [SOAPParameter] {
        [.group("getresidentledger", [.value("reshid", household ?? "0"), .value("startdate", from), .value("enddate", to),
                                      .value("allopen", openItems ? "true" : "false")])]
    }

    /// The first day of the ledger window: the first of the month `ledgerMonths - 1` months before the as-of month.
    public static func ledgerStart(asOf iso: String) -> String {
        let parts = iso.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3 else { return iso }
        let index = parts[0] * 12 + (parts[1] - 1) - (ledgerMonths - 1)
        let year = index / 12, month = index % 12 + 1
        return "\(year)-\(month < 10 ? "0" : "")\(month)-01"
    }
}

/// The RPX `auth` block: management company, site, partner license key, optional username/password.
public struct RPXAuth: Sendable, Equatable {
    public var pmcID: String
    public var siteID: String
    public var licenseKey: String
    public var system: String
    public var username: String?
    public var password: String?

    /// The auth block; username and password only for partner contracts that use them.
    public init(pmcID: String, siteID: String, licenseKey: String, system: String = "OneSite",
                username: String? = nil, password: String? = nil) {
        self.pmcID = pmcID; self.siteID = siteID; self.licenseKey = licenseKey; self.system = system
        self.username = username; self.password = password
    }

    var parameters: [SOAPParameter] {
        var fields: [SOAPParameter] = [.value("pmcid", pmcID), .value("siteid", siteID), .value("licensekey", licenseKey),
                                       .value("system", system)]
        if let username { fields.append(.value("username", username)) }
        if let password { fields.append(.value("password", password)) }
        return [.group("auth", fields)]
    }
}

extension RPXOperation {
    /// The request: POST to the partner endpoint, SOAPAction `http://tempuri.org/IRPXService/<op>`, `auth` first.
    public func request(url: String, auth: RPXAuth, asOf iso: String, arguments custom: [SOAPParameter]? = nil) -> SOAPRequest {
        SOAPRequest(url: url, operation: name, soapAction: Self.actionPrefix + name,
                    body: SOAPEnvelope.build(operation: name, namespace: Self.namespace,
                                             parameters: auth.parameters + (custom ?? arguments(asOf: iso))))
    }
}
