import OwnerDashCore
import SOAP

/// One detail line of an accounts-payable invoice of GetInvoiceRegister (ItfVendorInvoicing): an amount spent on a GL
/// account, with its invoice's header.
public struct YardiInvoiceLine: Sendable, Equatable {
    /// 1-based position of the `Detail` element in the payload (across invoices).
    public var sourceIndex: Int
    /// 1-based position of its `Invoice` element.
    public var invoiceIndex: Int
    /// `InvoiceRegisterId`: Voyager's id of the invoice (payable).
    public var invoiceID: String
    /// `InvoiceNumber`: the vendor's invoice number.
    public var invoiceNumber: String?
    public var vendorID: String?
    public var vendorName: String?
    public var invoiceDate: LocalDate?
    /// `PostMonth` as `YYYY-MM`: the accounting month the invoice is posted to.
    public var postMonth: String
    public var dueDate: LocalDate?
    /// `DetailId` of the line.
    public var detailID: String?
    /// `GLAccountNumber` as printed (`6310`, `6310-0000`).
    public var glAccount: String
    public var glAccountName: String?
    /// Positive = spent; a credit line is negative.
    public var amount: Money
    public var description: String?
}

/// Decodes GetInvoiceRegister (ItfVendorInvoicing). [I] inferred: the operation and its parameters are the WSDL's
/// (public WSDL-generated SDKs), but no public capture of its RESPONSE exists; this reads the shape OwnerDash assumes
/// and pms_sim serves:
///
///     <InvoiceRegister xmlns=""><Invoice>
///       <InvoiceRegisterId>1001700001</InvoiceRegisterId><InvoiceNumber>120-48211</InvoiceNumber>
///       <PropertyCode>rvwalk01</PropertyCode><VendorId>v0000120</VendorId><VendorName>Ace Plumbing Co</VendorName>
///       <InvoiceDate>10/14/2026</InvoiceDate><PostMonth>10/2026</PostMonth><DueDate>11/13/2026</DueDate>
///       <InvoiceTotal>412.50</InvoiceTotal><Status>Posted</Status>
///       <Details><Detail><DetailId>..</DetailId><GLAccountNumber>6310</GLAccountNumber>
///         <GLAccountName>Repairs &amp; Maintenance - Plumbing</GLAccountName><Amount>412.50</Amount>
///         <Description>Plumbing repair</Description></Detail></Details>
///     </Invoice></InvoiceRegister>
///
/// `PostMonth` is read as `MM/YYYY`, or as a date (`MM/DD/YYYY`, `YYYY-MM-DD[THH:MM:SS]`) whose month it is. Errors
/// come as `Messages/Message` or `ErrorMessages/Error`, which `SOAPResponse` turns into a `SOAPError`. An invoice
/// without detail lines whose `InvoiceTotal` is not zero is refused: its money would otherwise vanish.
public enum GetInvoiceRegister {
    /// The operation whose response this reads.
    public static let operation = YardiOperation.getInvoiceRegister

    /// Checks the response for every error shape (a `SOAPError`), then reads every invoice's lines in document order.
    public static func decode(_ bytes: [UInt8]) throws -> [YardiInvoiceLine] {
        let response = try SOAPResponse.yardi(bytes, operation)
        var lines: [YardiInvoiceLine] = []
        for (offset, invoice) in response.payload.descendants(named: "Invoice").enumerated() {
            let f = SOAPFields(invoice, operation: operation.name, record: "Invoice \(offset + 1)")
            let id = try f.required("InvoiceRegisterId")
            let header = YardiInvoiceLine(
                sourceIndex: 0, invoiceIndex: offset + 1, invoiceID: id, invoiceNumber: f.text("InvoiceNumber"),
                vendorID: f.text("VendorId"), vendorName: f.text("VendorName"), invoiceDate: try f.date("InvoiceDate"),
                postMonth: try postMonth(f), dueDate: try f.date("DueDate"), detailID: nil, glAccount: "",
                glAccountName: nil, amount: Money(cents: 0), description: nil)
            let details = invoice.child(named: "Details")?.children(named: "Detail") ?? []
            if details.isEmpty, let total = try f.money("InvoiceTotal"), total.cents != 0 {
                throw f.invalid("InvoiceRegisterId \(id) has InvoiceTotal \(total) but no Details/Detail line")
            }
            for (index, detail) in details.enumerated() {
                let d = SOAPFields(detail, operation: operation.name,
                                   record: "Invoice \(offset + 1) (InvoiceRegisterId \(id)) Detail \(index + 1)")
                var line = header
                line.sourceIndex = lines.count + 1
                line.detailID = d.text("DetailId")
                line.glAccount = try d.required("GLAccountNumber")
                line.glAccountName = d.text("GLAccountName")
                line.amount = try d.requiredMoney("Amount")
                line.description = d.text("Description")
                lines.append(line)
            }
        }
        return lines
    }

    /// The invoice's post month as `YYYY-MM`: `MM/YYYY`, else a date's month. Required: it is the month the expense
    /// counts in.
    static func postMonth(_ f: SOAPFields) throws -> String {
        let raw = try f.required("PostMonth")
        if raw.filter({ $0 == "/" }).count == 1 {
            guard let month = try f.month("PostMonth") else { throw f.invalid("PostMonth is missing") }
            return month
        }
        guard let date = try f.date("PostMonth") else { throw f.invalid("PostMonth \"\(raw)\" is no month") }
        return String(date.iso.prefix(7))
    }
}
