/// A household's name for the ledger reports: its unified_residents row's name, else the name its key carries. A
/// household the ledger alone knows has no resident row (RealPage's Transaction Detail by Code with neither RPX
/// residents nor a Rent Roll: key `unit/name` from the report's Name column, RealPageTransactionLedger), and its
/// name would otherwise be blank in every report although the PMS printed it.
enum HouseholdName {
    /// The SQL expression: `residentName` (`r.name`, NULL without a row), else the part of `key` after its last `/`
    /// (a unit printed under "Bldg/Unit" may hold one; a name does not). `rtrim` by every character but `/` leaves
    /// the key up to its last `/`.
    static func sql(residentName: String, key: String) -> String {
        """
        coalesce(\(residentName), CASE WHEN instr(\(key), '/') > 0
                                       THEN substr(\(key), length(rtrim(\(key), replace(\(key), '/', ''))) + 1) END)
        """
    }
}
