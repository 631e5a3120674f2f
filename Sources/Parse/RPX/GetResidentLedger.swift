import OwnerDashCore
import SOAP
import XMLKit

/// One `Transaction` of getresidentledger, with its household (`Resident`) fields: a posted charge or a payment.
public struct RPXLedgerTransaction: Sendable, Equatable {
    public var sourceIndex: Int
    /// Which `Resident` of the answer holds it (1-based, in document order): its household's record.
    public var household: Int = 0
    /// The household (`Resident/ReshID`): the id the Rent Roll and getresidentlistinfo's `residenthouseholdid` use.
    public var reshID: String
    public var unitID: String?
    public var unitNumber: String?
    /// The household's balance and prepaid credit, repeated on each of its transactions.
    public var householdBalance: Money?
    public var householdPrepaid: Money?
    public var transactionID: String
    /// `Charge` or `Payment` as sent (other types are kept and left to the sync's rules).
    public var transactionType: String
    public var transactionDate: LocalDate?
    /// `PostMonth` (MMYYYY) as YYYY-MM.
    public var postMonth: String?
    public var transactionCode: String?
    public var description: String?
    public var leaseID: String?
    /// As posted: charges positive, payments negative (RPX signs the ledger from the property's side).
    public var amount: Money
    public var amountPaid: Money?
    public var openAmount: Money?
    public var reference: String?
}

/// One `Resident` of getresidentledger: a household as the answer states it, with or without transactions in it.
public struct RPXLedgerHousehold: Sendable, Equatable {
    /// Its place in the answer (1-based, in document order): its record.
    public var place: Int
    /// `ReshID`, `UnitID`, `UnitNumber`.
    public var reshID: String
    public var unitID: String?
    public var unitNumber: String?
    /// What the household owes (`Balance`) and its prepaid credit (`Prepaid`), whatever part of its ledger the answer
    /// holds: a household whose postings all lie before the window is still listed, with its Balance and no
    /// transaction.
    public var balance: Money?
    public var prepaid: Money?
}

/// Decodes getresidentledger (`ResidentLedger/Resident*/Transactions/Transaction*`).
///
/// No public capture of this response exists (docs/rpx-soap.md: "often not authorized"); the element names are those of
/// the simulator, modelled on the other RPX payloads (PascalCase, `-1,234.56` money, `MM/DD/YYYY` dates).
public enum GetResidentLedger {
    /// The operation whose response this reads.
    public static let operation = RPXOperation.getresidentledger

    /// Checks the response for every error shape (a `SOAPError`), then reads its transactions in document order.
    public static func decode(_ bytes: [UInt8]) throws -> [RPXLedgerTransaction] {
        var transactions: [RPXLedgerTransaction] = []
        try decode(bytes) { transactions.append($0) }
        return transactions
    }

    /// Streams the response one `Resident` (household) at a time (24 months of a property's ledger run to tens of MB,
    /// and a tree of them to several times that), handing each transaction to `each` as it is read. Throws a
    /// `SOAPError` for every error shape, possibly after transactions were handed out. `household` is handed each
    /// household once its header is read, before its transactions, if any.
    public static func decode(_ bytes: [UInt8], household listed: ((RPXLedgerHousehold) throws -> Void)? = nil,
                              each: (RPXLedgerTransaction) throws -> Void) throws {
        var count = 0, householdOffset = 0
        try SOAPResponse.rpxStream(bytes, operation, records: ["Resident"]) { household in
            householdOffset += 1
            let h = SOAPFields(household, operation: operation.name, record: "Resident \(householdOffset)")
            let reshID = try h.required("ReshID")
            let unitID = h.text("UnitID"), unitNumber = h.text("UnitNumber")
            let balance = try h.money("Balance"), prepaid = try h.money("Prepaid")
            try listed?(RPXLedgerHousehold(place: householdOffset, reshID: reshID, unitID: unitID, unitNumber: unitNumber,
                                           balance: balance, prepaid: prepaid))
            for element in household.descendants(named: "Transaction") {
                let index = count + 1
                let f = SOAPFields(element, operation: operation.name, record: "Resident \(reshID) Transaction \(index)")
                try each(RPXLedgerTransaction(
                    sourceIndex: index, household: householdOffset, reshID: reshID, unitID: unitID, unitNumber: unitNumber, householdBalance: balance,
                    householdPrepaid: prepaid, transactionID: try f.required("TransactionID"),
                    transactionType: try f.required("TransactionType"), transactionDate: try f.date("TransactionDate"),
                    postMonth: try f.month("PostMonth"), transactionCode: f.text("TransactionCode"),
                    description: f.text("Description"), leaseID: f.text("LeaseID"), amount: try f.requiredMoney("Amount"),
                    amountPaid: try f.money("AmountPaid"), openAmount: try f.money("OpenAmount"),
                    reference: f.text("Reference")))
                count = index
            }
        }
    }
}
