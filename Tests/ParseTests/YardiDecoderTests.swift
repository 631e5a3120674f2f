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

@Suite struct YardiDecoderTests {
    @Test func propertyConfigurationsListTheLicensedProperties() throws {
        let properties = try GetPropertyConfigurations.decode(try fixture("yardi_get_property_configurations.xml"))
        #expect(properties.map(\.code) == ["rvwalk01", "cdrbluf1"])
        #expect(properties[0].marketingName == "Riverwalk Commons")
        #expect(properties[0].city == "Austin" && properties[0].postalCode == "78704")
        #expect(properties[0].addressLine2 == nil)  // <AddressLine2 /> is no value, not ""
        #expect(properties[0].accountsReceivable == "2026-11")  // sent as 11/2026
    }

    @Test func unitInformationReadsEveryUnitAndItsStatus() throws {
        let units = try GetUnitInformation.decode(try fixture("yardi_get_unit_information.xml"))
        #expect(units.map(\.unitCode) == ["1101", "1102", "1103", "1104"])
        let first = units[0]
        #expect(first.unitUniqueID == "101001000")
        #expect(first.tenantCode == "t101200001")
        #expect(first.economicStatusDescription == "Notice Rented")
        #expect(first.marketRent == Money(cents: 171_500))
        #expect(first.bedrooms == 1 && first.bathrooms == 1.0 && first.minSquareFeet == 699)
        #expect(first.dateAvailable == day(2026, 12, 6))
        #expect(first.buildingName == "Building 01")
        #expect(first.addressLine1 == "6065 Riverside Dr #1101")
        // The model unit has no resident and no available date.
        #expect(units[1].tenantCode == nil && units[1].economicStatus == "model" && units[1].dateAvailable == nil)
        #expect(units[3].floorplanName == "Two Bedroom, Two Bath" && units[3].marketRent == Money(cents: 234_500))
    }

    @Test func residentsByStatusWithUSDates() throws {
        let residents = try GetResidentsByStatus.decode(try fixture("yardi_get_residents_by_status.xml"))
        #expect(residents.map(\.tenantCode) == ["t101200003", "t101200001", "t101200002"])
        #expect(residents.map(\.status) == ["Past", "Notice", "Future"])
        let notice = residents[1]
        #expect(notice.unitCode == "1101" && notice.rent == Money(cents: 161_000))
        #expect(notice.leaseFromDate == day(2026, 5, 8) && notice.leaseToDate == day(2027, 5, 7))
        #expect(notice.moveOutDate == day(2026, 12, 5) && notice.noticeDate == day(2026, 10, 17))
        #expect(notice.paymentAccepted == true && notice.isRoommate == false && notice.leaseID == "101400002")
        #expect(notice.phone == "(868) 555-1855")
        #expect(residents[2].moveOutDate == nil && residents[2].otherOccupants == 1)
    }

    @Test func leaseChargesKeyOnTheDetailsCustomer() throws {
        let charges = try GetResidentLeaseCharges.decode(try fixture("yardi_get_resident_lease_charges.xml"))
        #expect(charges.count == 8)
        #expect(charges.map(\.chargeCode).prefix(4) == ["rent", "water", "sewer", "trash"])
        let rent = charges[0]
        #expect(rent.tenantCode == "t101200001" && rent.unitCode == "1101" && rent.leaseID == "101400002")
        #expect(rent.amount == Money(cents: 161_000))
        #expect(rent.serviceFromDate == day(2026, 5, 8) && rent.serviceToDate == day(2026, 12, 5))
        #expect(rent.description == "Rent [Lease Charge]")
        // The second household's monthly total: 1690 + 38 + 28 + 25.
        let second = charges.filter { $0.tenantCode == "t101200005" }
        #expect(second.reduce(Money.zero) { $0 + $1.amount } == Money(cents: 178_100))
    }

    @Test func transactionsSeparateChargesAndPayments() throws {
        let transactions = try GetResidentTransactions.decode(try fixture("yardi_get_resident_transactions.xml"))
        #expect(transactions.count == 8)
        #expect(transactions.filter { $0.kind == .charge }.count == 7)
        let rent = transactions[0]
        #expect(rent.kind == .charge && rent.chargeCode == "rent" && rent.tenantCode == "t101200003")
        #expect(rent.amount == Money(cents: 149_935) && rent.amountPaid == Money(cents: 149_935) && rent.balanceDue == .zero)
        #expect(rent.transactionDate == day(2024, 12, 1) && rent.leaseID == "101400006")
        let payment = transactions[4]
        #expect(payment.kind == .payment && payment.paymentType == "Check" && payment.documentNumber == "CHK003035")
        #expect(payment.amount == Money(cents: 157_703) && payment.postMonth == "2024-12" && payment.reversal == false)
        // The payment's Detail has no UnitID: the household's RT_Unit says which unit.
        #expect(payment.unitCode == "1101" && payment.chargeCode == nil && payment.balanceDue == nil)
        // What the second household still owes: sewer 29 + trash 25 + late fee 75.
        let open = transactions.filter { $0.tenantCode == "t101200011" }.compactMap(\.balanceDue)
        #expect(open.reduce(Money.zero, +) == Money(cents: 12_900))
    }

    /// `Services@Type/Detail` blocks (quirk yardi_services_blocks) sit beside the Transactions: a description of the
    /// household's services, no money. They are no ledger records, before or after the Transactions.
    @Test func servicesBlocksBesideTheTransactionsAreNoLedgerRecords() throws {
        let bytes = try fixture("yardi_get_resident_transactions_services.xml")
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.components(separatedBy: "<Services Type=\"Other\">").count == 3, "two households with services")
        let transactions = try GetResidentTransactions.decode(bytes)
        let charges = transactions.filter { $0.kind == .charge }, payments = transactions.filter { $0.kind == .payment }
        #expect(charges.count == 5 && payments.count == 3)
        #expect(charges.map(\.amount).reduce(Money.zero, +) == Money(cents: 63_900))
        #expect(payments.map(\.amount).reduce(Money.zero, +) == Money(cents: 278_567))
        // The same answer without its Services blocks reads exactly the same records.
        let stripped = text.replacingOccurrences(of: #"<Services Type="Other">.*?</Services>"#, with: "",
                                                 options: .regularExpression)
        #expect(stripped.count < text.count)
        #expect(try GetResidentTransactions.decode(Array(stripped.utf8)) == transactions)
    }

    @Test func availableUnitsReadMITSDateAttributes() throws {
        let units = try AvailableUnits.decode(try fixture("yardi_available_units.xml"))
        #expect(units.map(\.unitCode) == ["1101", "1102", "1110"])
        #expect(units[0].unitUniqueID == "101001000" && units[0].leasedStatus == "leased")
        #expect(units[0].vacateDate == day(2026, 12, 5) && units[0].madeReadyDate == nil)
        #expect(units[1].economicStatus == "model" && units[1].vacancyClass == "Unoccupied")
        #expect(units[2].effectiveRent == Money(cents: 189_000) && units[2].economicStatusDescription == "Notice Unrented")
    }

    @Test func guestActivityOneRowPerEvent() throws {
        let events = try GetYardiGuestActivity.decode(try fixture("yardi_guest_activity.xml"))
        #expect(events.count == 10)
        #expect(events.prefix(5).map(\.eventType) == ["Other", "Show", "Application", "Approve", "LeaseSign"])
        let lead = events[0]
        #expect(lead.prospectID == "p1800001" && lead.tenantCode == "t101200002" && lead.customerType == "future_resident")
        #expect(lead.firstContact == true && lead.transactionSource == "Resident Referral" && lead.comments == "Text message")
        #expect(lead.eventAt == "2026-10-26T12:47:00" && lead.eventDate == day(2026, 10, 26))
        #expect(lead.agentName == "Avery Chen" && lead.targetMoveInDate == day(2026, 12, 17))
        // "2026-11-05T16:47:00.0": the trailing .0 is dropped.
        #expect(events[4].eventAt == "2026-11-05T16:47:00")
        #expect(events[5].prospectIndex == 2 && events[5].eventType == "Email")
    }

    @Test func aBadValueFailsTheArtifactNamingRecordAndField() throws {
        var text = String(decoding: try fixture("yardi_get_unit_information.xml"), as: UTF8.self)
        text = text.replacingOccurrences(of: "<MarketRent>1725.00</MarketRent>", with: "<MarketRent>call us</MarketRent>")
        do {
            _ = try GetUnitInformation.decode(Array(text.utf8))
            Issue.record("accepted")
        } catch let error as SOAPError {
            #expect(error.description == "GetUnitInformation: UnitInfo 2: MarketRent: \"call us\" is not an amount")
        }
    }

    /// The records are decoded as the answer streams by, but the vendor's error still decides it: a bad value met before
    /// an error message placed after the payload is not what the user is told.
    @Test func theVendorsErrorWinsOverABadRecordBeforeIt() throws {
        var text = String(decoding: try fixture("yardi_get_unit_information.xml"), as: UTF8.self)
        text = text.replacingOccurrences(of: "<MarketRent>1725.00</MarketRent>", with: "<MarketRent>call us</MarketRent>")
        text = text.replacingOccurrences(of: "</UnitInformation>", with: """
            </UnitInformation><Messages xmlns=""><Message messageType="Error">Interface license expired</Message></Messages>
            """)
        #expect(throws: SOAPError(operation: "GetUnitInformation", kind: .errorMessage("Interface license expired"))) {
            try GetUnitInformation.decode(Array(text.utf8))
        }
    }

    @Test func anErrorResponseIsNotDecodedAsEmpty() throws {
        #expect(throws: SOAPError.self) { try GetUnitInformation.decode(try fixture("yardi_messages_error.xml")) }
        #expect(throws: SOAPError.self) { try GetUnitInformation.decode(try fixture("yardi_empty_result.xml")) }
    }
}
