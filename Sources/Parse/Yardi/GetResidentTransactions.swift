import OwnerDashCore
import SOAP
import XMLKit

/// One posted charge or payment of a household's ledger from GetResidentTransactions_Login (MITS 2.0).
public struct YardiTransaction: Sendable, Equatable {
    /// Charge or payment: each `Transactions` element holds exactly one.
    public enum Kind: String, Sendable { case charge, payment }

    /// 1-based position of the `Transactions` element in the payload.
    public var sourceIndex: Int
    /// Which `RT_Customer` of the answer holds it (1-based, in document order): its household's record.
    public var household: Int = 0
    public var kind: Kind
    /// `Payment@Type` (`Check`, `Cash`, `Other`); nil for charges.
    public var paymentType: String?
    public var transactionID: String?
    /// Household tenant code: `Detail/CustomerID`, else the RT_Customer's.
    public var tenantCode: String?
    public var unitCode: String?
    public var leaseID: String?
    /// `.rent`, `water`, `latefee`, ...; nil for payments.
    public var chargeCode: String?
    public var description: String?
    public var glAccount: String?
    public var transactionDate: LocalDate?
    public var serviceFromDate: LocalDate?
    /// Payment's post month, `YYYY-MM`.
    public var postMonth: String?
    /// The original amount.
    public var amount: Money
    /// Applied to the charge so far (charges only).
    public var amountPaid: Money?
    /// What is still open on the charge (charges only); the household's sum is its delinquency before credits.
    public var balanceDue: Money?
    public var documentNumber: String?
    public var reversal: Bool?
    public var comment: String?
}

/// Decodes GetResidentTransactions_Login (`ResidentTransactions/Property/RT_Customer/RTServiceTransactions/Transactions`).
public enum GetResidentTransactions {
    /// The operation whose response this reads.
    public static let operation = YardiOperation.getResidentTransactions

    /// Checks the response for every error shape (a `SOAPError`), then reads its records in document order.
    public static func decode(_ bytes: [UInt8]) throws -> [YardiTransaction] {
        var result: [YardiTransaction] = []
        try decode(bytes) { result.append($0) }
        return result
    }

    /// Streams the response one `RT_Customer` at a time (a 24-month ledger runs to tens of MB), handing each record
    /// to `each` as it is read. Throws a `SOAPError` for every error shape, possibly after records were handed out.
    /// `answering`: the call the response answers (a windowed call of an incremental night has its own Result element).
    public static func decode(_ bytes: [UInt8], answering: YardiOperation = operation,
                              each: (YardiTransaction) throws -> Void) throws {
        var count = 0, customers = 0
        try SOAPResponse.yardiStream(bytes, answering, records: ["RT_Customer"]) { customer in
            customers += 1
            let household = customer.child(named: "CustomerID").map { String($0.text.trimmingWhitespace) }
            let unit = customer.child(named: "RT_Unit")?.child(named: "UnitID").map { String($0.text.trimmingWhitespace) }
            for transactions in customer.child(named: "RTServiceTransactions")?.children(named: "Transactions") ?? [] {
                let index = count + 1
                let kind: YardiTransaction.Kind
                let holder: XMLElement
                if let charge = transactions.child(named: "Charge") {
                    kind = .charge; holder = charge
                } else if let payment = transactions.child(named: "Payment") {
                    kind = .payment; holder = payment
                } else {
                    continue  // reference: Transactions holds a Charge or a Payment; anything else is not ledger data
                }
                guard let detail = holder.child(named: "Detail") else {
                    throw SOAPError(operation: answering.name, kind: .invalidValue("Transactions \(index): no Detail"))
                }
                let f = SOAPFields(detail, operation: answering.name, record: "Transactions \(index)")
                let postMonth = try f.date("PostMonth").map { String($0.iso.prefix(7)) }
                count = index
                try each(YardiTransaction(
                    sourceIndex: index, household: customers, kind: kind, paymentType: kind == .payment ? holder.attribute("Type") : nil,
                    transactionID: f.text("TransactionID"), tenantCode: f.text("CustomerID") ?? household,
                    unitCode: f.text("UnitID") ?? unit, leaseID: f.text("LeaseID"),
                    chargeCode: kind == .charge ? try f.required("ChargeCode") : f.text("ChargeCode"),
                    description: f.text("Description"), glAccount: f.text("GLAccountNumber"),
                    transactionDate: try f.date("TransactionDate"), serviceFromDate: try f.date("ServiceFromDate"),
                    postMonth: postMonth, amount: try f.requiredMoney("Amount"), amountPaid: try f.money("AmountPaid"),
                    balanceDue: try f.money("BalanceDue"), documentNumber: f.text("DocumentNumber"),
                    reversal: try f.flag("Reversal"), comment: f.text("Comment")))
            }
        }
    }
}
