import Foundation
import OwnerDashCore
import PostgresKit
import PostgresUnified
import SQLiteKit

/// Where a run's synced properties go when the unified data lives on PostgreSQL (`--database-url`): each property is
/// published right after its sync commits (`UnifiedPublisher`), and the run's journal once the run is finished.
///
/// A publication that fails fails the property's sync item with the server's reason: the local unified.db holds the
/// sync, and the next run publishes it again (`isCurrent`), so nothing is lost and nothing is silently stale.
public final class UnifiedPublication {
    let publisher: UnifiedPublisher
    /// The server, password redacted (for messages).
    public let url: DatabaseURL

    /// Connects and brings the server's schema up to date; the error names the redacted URL. `host`: recorded in
    /// `ownerdash_publications.host`.
    public init(url: DatabaseURL, host: String) throws {
        self.url = url
        publisher = try UnifiedPublisher(url: url, host: host)
    }

    /// Publishes a property just synced; the one-line reason when it could not be. `changesNoted`: its syncs noted
    /// the rows they changed (`Synchronizer.logsChanges`), so those alone travel when the server holds the property
    /// as this host last published it; else (a backfill, say) the property goes whole.
    func publish(_ key: String, from database: Database, changesNoted: Bool = false) -> String? {
        do {
            if changesNoted {
                try publisher.publishChanges(key, from: database)
            } else {
                try publisher.publishProperty(key, from: database)
            }
            return nil
        } catch {
            return "synced locally, but publishing to \(url) failed: \(error)"
        }
    }

    /// Publishes a property skipped as unchanged when the server does not hold its latest sync.
    func publishIfStale(_ key: String, from database: Database) -> String? {
        do {
            if try publisher.isCurrent(key, in: database) { return nil }
        } catch {
            return "publishing to \(url) failed: \(error)"
        }
        return publish(key, from: database)
    }

    /// Publishes the run's journal (etl_runs and its items) after it finished; a failure is logged, the run stands.
    func publishRun(_ runID: RunID, from database: Database, log: Diagnostics) {
        do {
            try publisher.publishRuns([runID.value], from: database)
        } catch {
            log.error(nil, "run \(runID.value): its record could not be published to \(url): \(error)")
        }
    }
}
