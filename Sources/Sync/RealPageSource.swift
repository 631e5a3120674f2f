import OwnerDashCore
import SQLiteKit

/// RealPage rules: RPX `unitlist`/residents/leases win for units and people, the OneSite reports fill in.
struct RealPageSource: PropertySource {
    func propertyDate(_ context: SyncContext) throws -> LocalDate? {
        throw SyncError.noRawData(property: context.property.key, detail: "RealPage sync rules not written yet")
    }

    func sync(_ context: SyncContext, asOf: LocalDate) throws -> SourceSyncResult {
        SourceSyncResult(rows: [:], unitSource: "")
    }

    func crossCheck(_ context: SyncContext, asOf: LocalDate) throws -> [SyncWarning] { [] }
}
