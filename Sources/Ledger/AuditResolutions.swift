import OwnerDashCore
import SQLiteKit

/// One audited line across runs: (property, lease, charge code, month), spelled `nexus_east:L123:WATER:2026-09`.
///
/// The property key comes first and the charge code and month last, so a lease id holding a colon still reads back.
public struct AuditKey: Hashable, Sendable, CustomStringConvertible {
    public var property: String
    public var lease: String
    public var chargeCode: String
    public var month: String

    public init(property: String, lease: String, chargeCode: String, month: String) {
        self.property = property; self.lease = lease; self.chargeCode = chargeCode; self.month = month
    }

    /// Parses `property:lease:code:YYYY-MM`; the code is compared upper-cased (the audit upper-cases codes).
    public init(parsing text: String) throws {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard parts.count >= 4, !parts[0].isEmpty, !parts[parts.count - 2].isEmpty else {
            throw AuditError("\"\(text)\" is not an audit key (property:lease:charge code:YYYY-MM, e.g. nexus_east:L123:WATER:2026-09)")
        }
        let lease = parts[1..<(parts.count - 2)].joined(separator: ":")
        guard !lease.isEmpty else { throw AuditError("\"\(text)\": the lease id is empty") }
        let month = parts[parts.count - 1]
        guard LocalDate.isMonth(month) else { throw AuditError("\"\(text)\": \"\(month)\" is not a month (YYYY-MM)") }
        self.init(property: parts[0], lease: lease, chargeCode: parts[parts.count - 2].uppercased(), month: month)
    }

    public var description: String { "\(property):\(lease):\(chargeCode):\(month)" }

    var parameters: [String: SQLValue] {
        [":property": .text(property), ":lease": .text(lease), ":code": .text(chargeCode), ":month": .text(month)]
    }
}

/// `ownerdash audit resolve` / `audit reopen`: what operators did about an exception, as append-only events in
/// audit_resolutions. The latest event of a key wins, in the run it was recorded against and every later run.
public enum AuditResolutions {
    /// What was done about an exception.
    public enum Action: String, Sendable, CaseIterable {
        /// The missing or short amount was posted.
        case charge
        /// The overcharge was credited back.
        case credit
        /// The lease's recurring-charge schedule was corrected.
        case schedule
        /// The difference was forgiven on purpose.
        case waive
        /// Nothing to do: the posted amount is right (a concession, an agreed change).
        case none
    }

    /// Records a resolution of `key`, which must be an exception of the latest run that audited its property.
    /// Returns that run's id (the run the resolution is recorded against).
    @discardableResult
    public static func resolve(database: Database, key: AuditKey, fix: String, action: Action, by: String,
                               note: String?, at: String) throws -> Int64 {
        try database.withTransaction {
            let run = try exceptionRun(database: database, key: key)
            try database.prepare(insertEvent).execute(key.parameters.merging([
                ":event": .text("resolved"), ":fix": .text(fix), ":action": .text(action.rawValue), ":by": .text(by),
                ":at": .text(at), ":note": SQLValue(note), ":run": .integer(run),
            ]) { $1 })
            return run
        }
    }

    /// Reopens `key`: it must be resolved now. Returns the run the reopening is recorded against.
    @discardableResult
    public static func reopen(database: Database, key: AuditKey, by: String, note: String?, at: String) throws -> Int64 {
        try database.withTransaction {
            let run = try exceptionRun(database: database, key: key)
            let latest = try database.scalar("""
                SELECT event FROM audit_resolutions
                WHERE unified_property_id = :property AND lease_id = :lease AND charge_code = :code AND month = :month
                ORDER BY event_id DESC LIMIT 1
                """, key.parameters)?.textValue
            guard latest == "resolved" else { throw AuditError("\(key): not resolved, nothing to reopen") }
            try database.prepare(insertEvent).execute(key.parameters.merging([
                ":event": .text("reopened"), ":fix": .null, ":action": .null, ":by": .text(by), ":at": .text(at),
                ":note": SQLValue(note), ":run": .integer(run),
            ]) { $1 })
            return run
        }
    }

    /// The latest run that audited the key's property, when the key is one of its exceptions.
    static func exceptionRun(database: Database, key: AuditKey) throws -> Int64 {
        guard let run = try database.scalar("""
            SELECT max(run_id) FROM audit_run_properties WHERE unified_property_id = :property AND has_ledger = 1
            """, [":property": .text(key.property)])?.integerValue else {
            throw AuditError("\(key): no audit run has audited property \"\(key.property)\" (run ownerdash audit run first)")
        }
        let found = try database.scalar("""
            SELECT count(*) FROM audit_results
            WHERE run_id = :run AND unified_property_id = :property AND lease_id = :lease AND charge_code = :code
              AND month = :month
            """, key.parameters.merging([":run": .integer(run)]) { $1 })?.integerValue ?? 0
        guard found > 0 else {
            throw AuditError("\(key): not an exception of run \(run), the latest audit of \(key.property) (see ownerdash audit show \(run) --exceptions-only)")
        }
        return run
    }

    static let insertEvent = """
        INSERT INTO audit_resolutions (unified_property_id, lease_id, charge_code, month, event, fix, action, by_name,
                                       at, note, run_id)
        VALUES (:property, :lease, :code, :month, :event, :fix, :action, :by, :at, :note, :run)
        """
}
