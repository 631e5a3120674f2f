import SQLiteKit

/// Ledger reports count money in integer cents and hand it to the table / JSON / CSV writers as REAL dollars.
func money(_ cents: Int64?) -> SQLValue { cents.map { .real(Double($0) / 100) } ?? .null }
