import OwnerDashCore
import SQLiteKit

/// `temp.gl_account_category` (account -> expense category, NULL when no prefix names it) for the accounts one
/// property's expense rule reads, filled in Swift so that the prefix rule has one definition (`GLCategories`) for
/// both PMSs.
enum ExpenseAccountCategories {
    /// `temp.gl_account_category`.
    static let table = ScratchTable(name: "gl_account_category", shape: .definition("(account TEXT PRIMARY KEY, category TEXT)"))

    /// Fills the table from `accounts`, a query whose first column is the account number (`:property` bound).
    static func fill(_ context: SyncContext, accounts query: String) throws {
        let database = context.database
        try TempTables.empty(table, in: database)
        let accounts = try database.query(query, [":property": .text(context.property.key)])
        let insert = try database.prepare("INSERT INTO temp.gl_account_category (account, category) VALUES (:account, :category)")
        for row in accounts {
            guard let account = row[0].textValue else { continue }
            try insert.execute([":account": .text(account), ":category": SQLValue(context.glCategories.category(of: account))])
        }
    }
}
