import CFuzzDriver
import Parse

/// libFuzzer entry point over the SOAP decoders (RPX and Yardi): the first byte picks the decoder, the rest is
/// the response body. Seeds are the response fixtures, each prefixed with its decoder's index (scripts/fuzz.sh).
enum FuzzSOAP {
    /// In this order; scripts/fuzz.sh maps fixture names to these indexes.
    static let decoders: [(String, @Sendable ([UInt8]) throws -> Void)] = [
        ("rpx_getbuildings", { _ = try GetBuildings.decode($0) }),
        ("rpx_getleaseinfo", { _ = try GetLeaseInfo.decode($0) }),
        ("rpx_getrentableitems", { _ = try GetRentableItems.decode($0) }),
        ("rpx_getresidentledger", { try GetResidentLedger.decode($0) { _ in } }),
        ("rpx_getresidentlistinfo", { _ = try GetResidentListInfo.decode($0) }),
        ("rpx_getscheduledcharges", { _ = try GetScheduledCharges.decode($0) }),
        ("rpx_getsitelist", { _ = try GetSiteList.decode($0) }),
        ("rpx_unitlist", { _ = try UnitList.decode($0) }),
        ("yardi_available_units", { _ = try AvailableUnits.decode($0) }),
        ("yardi_get_invoice_register", { _ = try GetInvoiceRegister.decode($0) }),
        ("yardi_get_property_configurations", { _ = try GetPropertyConfigurations.decode($0) }),
        ("yardi_get_resident_lease_charges", { try GetResidentLeaseCharges.decode($0) { _ in } }),
        ("yardi_get_resident_transactions", { try GetResidentTransactions.decode($0) { _ in } }),
        ("yardi_get_residents_by_status", { _ = try GetResidentsByStatus.decode($0) }),
        ("yardi_get_service_request_search", { _ = try GetServiceRequestSearch.decode($0) }),
        ("yardi_get_unit_information", { _ = try GetUnitInformation.decode($0) }),
        ("yardi_guest_activity", { _ = try GetYardiGuestActivity.decode($0) }),
    ]

    static func run(_ bytes: [UInt8]) {
        guard let selector = bytes.first else { return }
        let decode = decoders[Int(selector) % decoders.count].1
        _ = try? decode(Array(bytes.dropFirst()))
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSOAPOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    FuzzSOAP.run(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
    return 0
}

/// SwiftPM names an executable's entry point `<Target>_main` and makes it the process's `main`.
@_cdecl("FuzzSOAP_main")
public func fuzzSOAPMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv, fuzzSOAPOneInput)
}
