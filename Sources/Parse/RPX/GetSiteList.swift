import OwnerDashCore
import SOAP

/// One `Site` of getsitelist: a property the license key reaches, with its property date.
public struct RPXSite: Sendable, Equatable {
    public var sourceIndex: Int
    public var siteID: String
    public var siteNumber: String?
    public var siteName: String?
    public var pmcName: String?
    public var address1: String?
    public var city: String?
    public var state: String?
    public var zip: String?
    public var phone: String?
    public var email: String?
    /// The property date (`SysDate`, ISO with offset): reports need end dates on or before it.
    public var sysDate: LocalDate?
    public var arAccountingDate: LocalDate?
    /// `AR_AccountingPeriod` (`MMYYYY`) as `YYYY-MM`.
    public var arAccountingPeriod: String?
}

/// Decodes getsitelist (`SiteList/Site`).
public enum GetSiteList {
    /// The operation whose response this reads.
    public static let operation = RPXOperation.getsitelist

    /// Checks the response for every error shape (a `SOAPError`), then reads its records in document order.
    public static func decode(_ bytes: [UInt8]) throws -> [RPXSite] {
        let response = try SOAPResponse.rpx(bytes, operation)
        return try response.payload.children(named: "Site").enumerated().map { offset, element in
            let f = SOAPFields(element, operation: operation.name, record: "Site \(offset + 1)")
            return RPXSite(sourceIndex: offset + 1, siteID: try f.required("SiteID"), siteNumber: f.text("SiteNumber"),
                           siteName: f.text("SiteName"), pmcName: f.text("PMCName"), address1: f.text("Adr1"),
                           city: f.text("City"), state: f.text("State"), zip: f.text("Zip"), phone: f.text("Phone1"),
                           email: f.text("Email"), sysDate: try f.date("SysDate"), arAccountingDate: try f.date("AR_AccountingDate"),
                           arAccountingPeriod: try f.month("AR_AccountingPeriod"))
        }
    }
}
