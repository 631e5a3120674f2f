import OwnerDashCore
import SQLiteKit

/// Yardi rules: GetUnitInformation + AvailableUnits for units, GetResidentsByStatus for people, ledgers for delinquency.
struct YardiSource: PropertySource {
    func propertyDate(_ context: SyncContext) throws -> LocalDate? {
        throw SyncError.noRawData(property: context.property.key, detail: "Yardi sync rules not written yet")
    }

    func sync(_ context: SyncContext, asOf: LocalDate) throws -> SourceSyncResult {
        SourceSyncResult(rows: [:], unitSource: "")
    }

    func crossCheck(_ context: SyncContext, asOf: LocalDate) throws -> [SyncWarning] { [] }
}
