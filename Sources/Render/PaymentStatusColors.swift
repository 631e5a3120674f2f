import Ledger

extension PaymentStatus {
    /// The badge color of the status, one place for the HTML page's badges and the workbook's status fills, as the
    /// lease-status spec names them: green PAID, blue PARTIAL, yellow PENDING, red OVERDUE (pastels under dark
    /// text, so they print legibly in grey scale too).
    var badgeColor: String {
        switch self {
        case .paid: "#bfe5c8"
        case .partial: "#c6dcf5"
        case .pending: "#f7e3a1"
        case .overdue: "#f4b5ad"
        }
    }
}
