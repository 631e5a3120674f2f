import Foundation
import OwnerDashCore
import Parse
import SOAP
import Testing

/// Tests/Fixtures/soap/<name> (recorded from pms_sim by scripts/fixtures/capture_soap_fixtures.py).
private func fixture(_ name: String) throws -> [UInt8] {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    return [UInt8](try Data(contentsOf: root.appendingPathComponent("Fixtures/soap/\(name)")))
}

private func day(_ y: Int, _ m: Int, _ d: Int) -> LocalDate? { LocalDate(year: y, month: m, day: d) }

@Suite struct RPXDecoderTests {
    @Test func siteListCarriesThePropertyDate() throws {
        let sites = try GetSiteList.decode(try fixture("rpx_getsitelist.xml"))
        #expect(sites.map(\.siteID) == ["5339721", "5481703"])
        #expect(sites[0].siteName == "Kalaco" && sites[0].zip == "80021-0000")
        #expect(sites[0].sysDate == day(2026, 11, 20))  // "2026-11-20T10:01:33.017-06:00"
        #expect(sites[0].arAccountingPeriod == "2026-11")  // "112026"
    }

    @Test func buildings() throws {
        let buildings = try GetBuildings.decode(try fixture("rpx_getbuildings.xml"))
        #expect(buildings.map(\.buildingID) == ["9000011", "9000012"])
        #expect(buildings[0].buildingNumber == "01" && buildings[0].addressLine1 == "6419 Larimer St")
    }

    @Test func unitListFlagsAndNullDates() throws {
        let units = try UnitList.decode(try fixture("rpx_unitlist.xml"))
        #expect(units.map(\.unitNumber) == ["1101", "1104", "2301"])
        let occupied = units[0], notice = units[1], vacant = units[2]
        #expect(occupied.vacant == false && occupied.availableDate == nil && occupied.unitMadeReadyDate == nil)  // 1900-01-01 00:00:00
        #expect(occupied.marketRent == Money(cents: 223_500))  // "2235.0000"
        #expect(notice.onNoticeForDate == day(2026, 12, 14) && notice.unitReserved == true)
        #expect(vacant.vacant == true && vacant.available == true && vacant.unitMadeReadyDate == day(2026, 5, 30))
        #expect(vacant.fpReportUnitOccupancy == true && vacant.unitID == "9001099")
    }

    @Test func residentBalancesWithSeparatorsAndSigns() throws {
        let residents = try GetResidentListInfo.decode(try fixture("rpx_getresidentlistinfo.xml"))
        #expect(residents.map(\.residentMemberID) == ["9600002", "9600004", "9600016", "9600047"])
        #expect(residents.map(\.headOfHousehold) == [false, true, true, true])
        #expect(residents[2].balance == Money(cents: 118_428))  // "1,184.28"
        #expect(residents[3].balance == Money(cents: -55_000))  // "-550.00": a credit
        let former = residents[1]
        #expect(former.leaseStatus == "Former" && former.moveOutDate == day(2025, 11, 3))
        #expect(former.noticeGivenDate == day(2025, 9, 26) && former.inEviction == false)
        #expect(residents[0].moveOutDate == nil)
    }

    @Test func residentEmailAndPhoneBlankForTheMembersOneSiteLeavesThemOff() throws {
        let residents = try GetResidentListInfo.decode(try fixture("rpx_getresidentlistinfo.xml"))
        #expect(residents[2].email == "robert.robinson85@example.com" && residents[2].phone == "(779) 555-3898")
        #expect(residents[1].email == "aiden.johnson90@example.com", "a former head keeps the e-mail")
        let coHead = residents[0]  // <email />, <cellphone />, <homephone />, <workphone />
        #expect(coHead.headOfHousehold == false && coHead.email == nil && coHead.phone == nil)
    }

    /// cellphone, else homephone, else workphone (fixture: the simulator's numbers moved to the other elements).
    @Test func residentPhoneIsTheCellPhoneElseHomeElseWork() throws {
        let residents = try GetResidentListInfo.decode(try fixture("rpx_getresidentlistinfo_phones.xml"))
        #expect(residents.map(\.residentMemberID) == ["9600001", "9600003", "9600005"])
        #expect(residents.map(\.phone) == ["(381) 555-3172", "(255) 555-2606", "(436) 555-1498"])
        #expect(residents.map(\.email) == ["daniel.white88@example.com", "patricia.thompson35@example.com",
                                           "sandra.roberts67@example.com"])
    }

    @Test func leaseDatesInFourFormatsInOneRecord() throws {
        let leases = try GetLeaseInfo.decode(try fixture("rpx_getleaseinfo.xml"))
        #expect(leases.map(\.leaseID) == ["9400001", "9400002", "9400003"])
        let first = leases[0]
        #expect(first.leaseBeginDate == day(2024, 9, 9))      // 09/09/2024
        #expect(first.initialLeaseDate == day(2024, 9, 9))    // 2024-09-09
        #expect(first.lastRenewalDate == day(2026, 9, 9))     // Sep  9 2026 12:00AM
        #expect(first.paymentDueDate == day(2026, 12, 1))     // 2026-12-01 00:00:00.000
        #expect(first.monthToMonthDate == nil && first.priorLeaseID == nil && first.nextLeaseID == "9400002")
        #expect(first.rent == Money(cents: 211_500) && first.evict == false && first.typeText == "First (Lease)")
        #expect(leases[2].nextLeaseID == nil && leases[2].leaseStatusText == "Current")
    }

    @Test func unitObjectsOfGetUnitListCarryTheFloor() throws {
        // The nested getunitlist shape: Address/UnitID (unitlist's UnitID), UnitDetails/FloorNumber, MadeReadyDate MM/DD/YYYY.
        let units = try GetUnitList.decode(try fixture("rpx_getunitlist.xml"))
        #expect(units.map(\.unitID) == ["9001000", "9001040", "9001155"])
        #expect(units.map(\.floorNumber) == ["1", "3", "2"])
        #expect(units[0].unitNumber == "1101" && units[0].floorPlanCode == "B1" && units[0].bedrooms == 2)
        #expect(units[0].bathrooms == 2 && units[0].available == false && units[0].madeReadyDate == nil)
        #expect(units[2].madeReadyDate == day(2026, 1, 29))
    }

    @Test func getUnitListOutsideTheContractIsAFaultNotAnEmptyList() throws {
        #expect(throws: SOAPError.self) { try GetUnitList.decode(try fixture("rpx_action_not_supported_fault.xml")) }
    }

    @Test func rentableItems() throws {
        let items = try GetRentableItems.decode(try fixture("rpx_getrentableitems.xml"))
        #expect(items.map(\.ridID) == ["9900001", "9900002", "9900003"])
        #expect(items[0].itemName == "Garage G01" && items[0].billingAmount == Money(cents: 7_500))
        #expect(items[0].frequency == "M" && items[0].inService == true && items[0].startDate == day(2026, 8, 16))
    }

    @Test func faultsAreErrorsNotEmptyLists() throws {
        #expect(throws: SOAPError.self) { try UnitList.decode(try fixture("rpx_inv_param_fault.xml")) }
    }

    @Test func residentLedgerChargesPaymentsAndTheHouseholdBalance() throws {
        let transactions = try GetResidentLedger.decode(try fixture("rpx_getresidentledger.xml"))
        #expect(Set(transactions.map(\.reshID)) == ["9200012", "9200036"])
        #expect(transactions.map(\.sourceIndex) == Array(1...transactions.count))
        let rent = try #require(transactions.first { $0.transactionID == "9200012921" })
        #expect(rent.transactionType == "Charge" && rent.transactionCode == "RENT" && rent.postMonth == "2026-11")
        #expect(rent.transactionDate == day(2026, 11, 1) && rent.leaseID == "9400030" && rent.unitNumber == "1107")
        #expect(rent.amount == Money(cents: 221_000) && rent.amountPaid == Money(cents: 120_172)
                && rent.openAmount == Money(cents: 100_828))
        let payment = try #require(transactions.first { $0.transactionID == "9200012955" })
        #expect(payment.transactionType == "Payment" && payment.amount == Money(cents: -120_172) && payment.reference == "EP012955")
        // RealPage states each household's balance twice: its open charges less its prepaid credit make its Balance.
        for household in ["9200012", "9200036"] {
            let mine = transactions.filter { $0.reshID == household }
            let open = mine.filter { $0.transactionType == "Charge" }.reduce(0) { $0 + ($1.openAmount?.cents ?? 0) }
            #expect(open - (mine[0].householdPrepaid?.cents ?? 0) == mine[0].householdBalance?.cents, "\(household)")
        }
    }

    @Test func scheduledChargesOfTheCurrentLease() throws {
        let charges = try GetScheduledCharges.decode(try fixture("rpx_getscheduledcharges.xml"))
        #expect(charges.map(\.transactionCode) == ["RENT", "WATER", "SEWER", "TRASH"])
        #expect(charges.allSatisfy { $0.leaseID == "9400003" && $0.reshID == "9200001" && $0.unitNumber == "1101" })
        #expect(charges[0].amount == Money(cents: 230_500) && charges[0].frequency == "Monthly")
        #expect(charges[0].startDate == day(2026, 9, 9) && charges[0].endDate == day(2027, 10, 8))
    }

    @Test func aLicenseNotAuthorizedForTheLedgerIsAFault() throws {
        #expect {
            try GetResidentLedger.decode(try fixture("rpx_not_authorized_fault.xml"))
        } throws: { error in
            guard let error = error as? SOAPError, case let .fault(code, message, _) = error.kind else { return false }
            return code == "s:inv_Param" && message == "LicenseKey is not authorized to call the method."
        }
    }
}
