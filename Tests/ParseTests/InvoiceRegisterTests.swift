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

/// A GetInvoiceRegister response (ItfVendorInvoicing), `payload` inside the Result.
private func response(_ payload: String) -> [UInt8] {
    Array("""
        <?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/">\
        <soap:Body><GetInvoiceRegisterResponse xmlns="http://tempuri.org/YSI.Interfaces.WebServices/ItfVendorInvoicing">\
        <GetInvoiceRegisterResult>\(payload)</GetInvoiceRegisterResult></GetInvoiceRegisterResponse></soap:Body></soap:Envelope>
        """.utf8)
}

private func invoice(_ id: String, postMonth: String, total: String, details: String) -> String {
    """
    <Invoice><InvoiceRegisterId>\(id)</InvoiceRegisterId><VendorId>v1</VendorId><InvoiceDate>09/28/2026</InvoiceDate>\
    <PostMonth>\(postMonth)</PostMonth><InvoiceTotal>\(total)</InvoiceTotal><Details>\(details)</Details></Invoice>
    """
}

@Suite struct InvoiceRegisterTests {
    @Test func readsEveryDetailLineWithItsInvoiceHeader() throws {
        let lines = try GetInvoiceRegister.decode(try fixture("yardi_get_invoice_register.xml"))
        #expect(lines.map(\.sourceIndex) == [1, 2, 3, 4])
        #expect(lines.map(\.invoiceIndex) == [1, 2, 2, 3])
        // A water bill dated in November, posted to December: the post month is what counts.
        let water = lines[0]
        #expect(water.invoiceID == "101700020" && water.invoiceNumber == "210-64363" && water.vendorID == "v0000210")
        #expect(water.vendorName == "Municipal Water Utility" && water.invoiceDate == LocalDate(year: 2025, month: 11, day: 26))
        #expect(water.postMonth == "2025-12" && water.dueDate == LocalDate(year: 2025, month: 12, day: 26))
        #expect(water.glAccount == "6720" && water.glAccountName == "Utilities - Water/Sewer")
        #expect(water.amount == Money(cents: 286_615) && water.description == "Water and sewer")
        // A repair invoice with a credit line: both lines, the credit negative, names unescaped.
        #expect(lines[1].invoiceID == "101700005" && lines[2].invoiceID == "101700005")
        #expect(lines[1].glAccountName == "Repairs & Maintenance - Plumbing")
        #expect(lines[1].amount == Money(cents: 29_695) && lines[2].amount == Money(cents: -17_350))
        #expect(lines[2].description == "Credit - returned parts" && lines[2].detailID == "1013000006")
        #expect(lines[3].glAccount == "6910" && lines[3].amount == Money(cents: 2_183_576))
    }

    @Test func postMonthIsReadAsAPeriodOrADate() throws {
        let detail = "<Detail><GLAccountNumber>6310-0000</GLAccountNumber><Amount>1,250.50</Amount></Detail>"
        for (sent, month) in [("10/2026", "2026-10"), ("10/01/2026", "2026-10"), ("2026-10-01T00:00:00", "2026-10")] {
            let lines = try GetInvoiceRegister.decode(response(
                "<InvoiceRegister>\(invoice("9", postMonth: sent, total: "1250.50", details: detail))</InvoiceRegister>"))
            #expect(lines.map(\.postMonth) == [month], "PostMonth \(sent)")
            #expect(lines.first?.amount == Money(cents: 125_050) && lines.first?.glAccount == "6310-0000")
        }
        #expect(try GetInvoiceRegister.decode(response("<InvoiceRegister xmlns=\"\" />")).isEmpty)
    }

    @Test func badInputIsAnErrorNamingTheInvoiceAndField() throws {
        func refusal(_ payload: String) -> String {
            do {
                _ = try GetInvoiceRegister.decode(response(payload))
                return "accepted"
            } catch {
                return "\(error)"
            }
        }
        let line = "<Detail><GLAccountNumber>6310</GLAccountNumber><Amount>12.00</Amount></Detail>"
        // An error message is an error, never an empty register.
        #expect(refusal(#"<ErrorMessages xmlns=""><Error>At least one date range is required.</Error></ErrorMessages>"#)
            .contains("At least one date range is required."))
        // A line without an amount is not zero; one without an account has nowhere to go.
        #expect(refusal("<InvoiceRegister>\(invoice("7", postMonth: "10/2026", total: "12.00", details: "<Detail><GLAccountNumber>6310</GLAccountNumber></Detail>"))</InvoiceRegister>")
            .contains("Invoice 1 (InvoiceRegisterId 7) Detail 1: Amount is missing"))
        #expect(refusal("<InvoiceRegister>\(invoice("7", postMonth: "10/2026", total: "12.00", details: "<Detail><Amount>12.00</Amount></Detail>"))</InvoiceRegister>")
            .contains("GLAccountNumber is missing"))
        #expect(refusal("<InvoiceRegister>\(invoice("7", postMonth: "13/2026", total: "12.00", details: line))</InvoiceRegister>")
            .contains("Invoice 1: PostMonth"))
        #expect(refusal("<InvoiceRegister>\(invoice("7", postMonth: "", total: "12.00", details: line))</InvoiceRegister>")
            .contains("Invoice 1: PostMonth is missing"))
        // An invoice with a total but no lines would lose its money: refused.
        #expect(refusal("<InvoiceRegister>\(invoice("8", postMonth: "10/2026", total: "99.00", details: ""))</InvoiceRegister>")
            .contains("InvoiceRegisterId 8 has InvoiceTotal 99.00 but no Details/Detail line"))
        #expect(refusal("<InvoiceRegister>\(invoice("8", postMonth: "10/2026", total: "0.00", details: ""))</InvoiceRegister>")
            == "accepted")
    }
}
