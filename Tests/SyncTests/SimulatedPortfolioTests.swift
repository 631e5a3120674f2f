import Foundation
import OwnerDashCore
import SQLiteKit
import Testing

/// The shared simulated portfolio really holds every property's raw snapshots, as of the simulator's date.
@Suite struct SimulatedPortfolioTests {
    @Test func everyPropertyIsLoadedAsOfTheSimulatorDate() throws {
        let portfolio = try SimulatedPortfolio.shared.get()
        let realpage = try Database(path: portfolio.loadedData.realpageRawDatabase, mode: .readOnly)
        let yardi = try Database(path: portfolio.loadedData.yardiRawDatabase, mode: .readOnly)
        for property in portfolio.properties {
            // 14 reports + 9 RPX operations, less the six reports and two operations fetched only when named, and the
            // two ledger operations where the license refuses them (ridian);
            // 9 Yardi operations, and GetResidentLeaseCharges_Login for each of the 23 months before the as-of month
            // (each the snapshot of its month's first day, as the as-of month's own lease charges are).
            // (4156 is a workbook of two report sheets, Renewal Detail and Lease Expiration Detail: the latter is the
            // snapshot the Lease Expiration report also loads, as of the same date, so it counts once.)
            // RealPage: 15 kinds, less what the license refuses (skipped, never loaded): ridian's two ledger
            // operations (the simulator's rpx_ledger_denied), getunitlist where it is outside the contract
            // (rpx_getunitlist_not_in_contract).
            let refused = (property.key == "ridian" ? 2 : 0)
                + (try portfolio.quirks("rpx_getunitlist_not_in_contract").contains(property.key) ? 1 : 0)
            // (The 15: the 8 reports a night fetches, 14 less the 6 fetched only when named, and 7 of the 9 RPX
            // operations, all but getbuildings and getrentableitems.)
            let (database, kinds) = property.pms == .yardi ? (yardi, 9 + 23) : (realpage, 8 + 7 - refused)
            let dates = try database.query("""
                SELECT DISTINCT as_of_date FROM loaded_artifacts WHERE property_id = :p ORDER BY as_of_date
                """, [":p": .text(property.key)]).map { $0[0].textValue ?? "" }
            // Yardi lease charges: one snapshot per PostMonth of the 24, each dated its first, the as-of month's too.
            let leaseChargeMonths = property.pms == .realpage ? [] : try database.query("""
                SELECT DISTINCT as_of_date FROM loaded_artifacts
                WHERE property_id = :p AND operation = 'GetResidentLeaseCharges_Login'
                ORDER BY as_of_date
                """, [":p": .text(property.key)]).map { $0[0].textValue ?? "" }
            #expect(property.pms == .realpage || (leaseChargeMonths.count == 24 && leaseChargeMonths.allSatisfy { $0.hasSuffix("-01") }
                                                  && leaseChargeMonths.last == String(SimulatedPortfolio.asOf.prefix(8)) + "01"),
                    "\(property.key)")
            #expect(dates == leaseChargeMonths + [SimulatedPortfolio.asOf], "\(property.key)")
            let loaded = try database.scalar("SELECT count(*) FROM loaded_artifacts WHERE property_id = :p",
                                             [":p": .text(property.key)])?.integerValue
            #expect(loaded == Int64(kinds), "\(property.key)")
            #expect((try portfolio.truth(property.key)["total_units"] as? Int ?? 0) > 0)
        }
    }
}
