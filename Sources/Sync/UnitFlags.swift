/// The unit flags as the sync writes them beside `status` (the schema's meanings, UnifiedSchema migration 30), so
/// a bulk insert into unified_units gives them itself and the schema's trigger, which puts right any flag that
/// disagrees with the status, has nothing to rewrite.
enum UnitFlags {
    /// The flag columns, in the order `values(status:)` gives them.
    static let columns = "is_occupied, is_leased, is_on_notice, is_model, is_down"

    /// The flags of the unified status `status` (an SQL expression such as `u.status`).
    static func values(status: String) -> String {
        """
        \(status) IN ('occupied', 'occupied_notice', 'occupied_notice_leased'),
        \(status) IN ('occupied', 'occupied_notice_leased', 'vacant_leased'),
        \(status) IN ('occupied_notice', 'occupied_notice_leased'), \(status) = 'model', \(status) = 'down'
        """
    }
}
