import SQLiteKit

/// A resident who belongs to another household: on its leases only as a co-resident, occupant or guarantor
/// (unified_lease_residents), never as a lease's head. RealPage lists every member of a household as a resident of
/// its own (`ReshID-MemberID`, RealPageResidents), while the household's ledger, balance and leases are under the
/// head's id: a report that took a member for a household showed it with no lease and a balance of 0.00.
enum HouseholdMember {
    /// SQL true when the resident id `key` is such a member at `:property`.
    static func isMemberOnly(_ key: String) -> String {
        """
        (EXISTS (SELECT 1 FROM unified_lease_residents m
                 WHERE m.unified_property_id = :property AND m.resident_id = \(key) AND m.role <> 'head')
         AND NOT EXISTS (SELECT 1 FROM unified_lease_residents m
                         WHERE m.unified_property_id = :property AND m.resident_id = \(key) AND m.role = 'head'))
        """
    }

    /// The household `resident` is a member of at `property` (the head of its latest lease there) and its role; nil
    /// when `resident` is no such member.
    static func household(of resident: String, property: String, database: Database) throws -> (household: String, role: String)? {
        let row = try database.query("""
            SELECT l.resident_id, m.role
            FROM unified_lease_residents m
            JOIN unified_leases l ON l.unified_property_id = m.unified_property_id AND l.lease_id = m.lease_id
            WHERE m.unified_property_id = :property AND m.resident_id = :resident AND m.role <> 'head'
              AND l.resident_id IS NOT NULL AND l.resident_id <> :resident
              AND \(isMemberOnly(":resident"))
            ORDER BY l.start_date DESC, l.lease_id DESC
            LIMIT 1
            """, [":property": .text(property), ":resident": .text(resident)]).first
        guard let row, let household = row[0].textValue else { return nil }
        return (household, row[1].textValue ?? "member")
    }
}
