import Foundation
import OwnerDashCore
import PostgresKit

/// Several ingest hosts sharing one portfolio's night through the server (`ownerdash_claims`): each property of a
/// run date is fetched, loaded and synced by exactly one host, which claims it (`FOR UPDATE SKIP LOCKED`, so hosts
/// never wait on each other's claims) under a lease it renews while it works.
///
/// - A property goes to the host holding its raw history (`ownerdash_property_hosts`) while that host is alive (seen
///   within the lease); other hosts take it only once that host has been silent for a lease since the night opened.
/// - A host killed mid-run stops renewing: once its leases lapse, another host takes its unfinished properties (and,
///   without their raw history, fetches them whole). No property twice, none left out while one host lives.
public final class PortfolioClaims: @unchecked Sendable {
    // @unchecked: `connection` is used by the ingest's thread only; the renewal thread has its own.
    let connection: PostgresConnection
    let url: DatabaseURL
    public let host: String
    public let runDate: LocalDate
    /// How long a claim holds without renewal (`--claim-timeout`).
    public let leaseSeconds: Int

    /// Connects and brings the schema up to date.
    public init(url: DatabaseURL, host: String, runDate: LocalDate, leaseSeconds: Int) throws {
        self.url = url
        self.host = host
        self.runDate = runDate
        self.leaseSeconds = leaseSeconds
        connection = try PostgresConnection(url: url, applicationName: "ownerdash ingest \(host)")
        try PostgresSchema.migrate(connection)
        try Self.heartbeat(connection, host: host)
    }

    var parameters: [String: PostgresValue] {
        ["run_date": .text(runDate.iso), "host": .text(host), "lease": .integer(Int64(leaseSeconds))]
    }

    /// Opens the night's claims for `keys` (those already open, claimed or finished stay as they are).
    public func register(_ keys: [String]) throws {
        try connection.transaction {
            for key in keys {
                var values = parameters
                values["key"] = .text(key)
                try connection.execute("""
                    INSERT INTO ownerdash_claims (run_date, unified_property_id) VALUES (:run_date, :key)
                    ON CONFLICT (run_date, unified_property_id) DO NOTHING
                    """, values)
            }
        }
    }

    /// Claims up to `limit` properties of `keys` this host may take now: its own first, then those nobody holds,
    /// then those whose host went silent or whose lease lapsed. Empty: nothing to take at the moment.
    public func claim(_ keys: [String], limit: Int) throws -> [String] {
        var values = parameters
        values["limit"] = .integer(Int64(limit))
        values["keys"] = .text("{" + keys.map { "\"\($0)\"" }.joined(separator: ",") + "}")
        return try connection.query("""
            WITH candidates AS (
                SELECT c.unified_property_id, (a.host = :host) IS TRUE AS mine
                FROM ownerdash_claims c
                LEFT JOIN ownerdash_property_hosts a ON a.unified_property_id = c.unified_property_id
                LEFT JOIN ownerdash_hosts h ON h.host = a.host
                WHERE c.run_date = :run_date
                  AND c.unified_property_id = ANY (:keys::text[])
                  AND (c.state = 'open' OR (c.state = 'claimed' AND c.lease_until < now()))
                  AND (a.host IS NULL OR a.host = :host
                       OR (h.seen_at < now() - make_interval(secs => :lease::integer)
                           AND c.opened_at < now() - make_interval(secs => :lease::integer))
                       OR c.state = 'claimed')
                ORDER BY mine DESC, c.unified_property_id
                LIMIT :limit::integer
                FOR UPDATE OF c SKIP LOCKED
            )
            UPDATE ownerdash_claims c
            SET state = 'claimed', host = :host, lease_until = now() + make_interval(secs => :lease::integer),
                claimed_at = now(), attempts = c.attempts + 1
            FROM candidates
            WHERE c.run_date = :run_date AND c.unified_property_id = candidates.unified_property_id
            RETURNING c.unified_property_id
            """, values).compactMap { $0["unified_property_id"] }.sorted()
    }

    /// Whether every claim of `keys` on the run date is done or failed (then the night is over for this host).
    public func isFinished(_ keys: [String]) throws -> Bool {
        var values = parameters
        values["keys"] = .text("{" + keys.map { "\"\($0)\"" }.joined(separator: ",") + "}")
        return try connection.scalar("""
            SELECT count(*) FROM ownerdash_claims
            WHERE run_date = :run_date AND unified_property_id = ANY (:keys::text[]) AND state IN ('open', 'claimed')
            """, values) == "0"
    }

    /// Records a claimed property's end: `done` (its raw history now on this host) or `failed`, with its run.
    public func finish(_ key: String, succeeded: Bool, runID: String?) throws {
        var values = parameters
        values["key"] = .text(key)
        values["state"] = .text(succeeded ? "done" : "failed")
        values["run_id"] = runID.map(PostgresValue.text) ?? .null
        try connection.transaction {
            try connection.execute("""
                UPDATE ownerdash_claims SET state = :state, finished_at = now(), run_id = :run_id, lease_until = NULL
                WHERE run_date = :run_date AND unified_property_id = :key AND host = :host
                """, values)
            if succeeded {
                try connection.execute("""
                    INSERT INTO ownerdash_property_hosts (unified_property_id, host) VALUES (:key, :host)
                    ON CONFLICT (unified_property_id) DO UPDATE SET host = EXCLUDED.host,
                        since = CASE WHEN ownerdash_property_hosts.host = EXCLUDED.host THEN ownerdash_property_hosts.since ELSE now() END
                    """, values)
            }
        }
    }

    /// Gives back claims this host took and will not finish (its run could not start): open for any host again.
    public func release(_ keys: [String]) throws {
        for key in keys {
            var values = parameters
            values["key"] = .text(key)
            try connection.execute("""
                UPDATE ownerdash_claims SET state = 'open', host = NULL, lease_until = NULL
                WHERE run_date = :run_date AND unified_property_id = :key AND host = :host AND state = 'claimed'
                """, values)
        }
    }

    /// Renews this host's leases and says it is alive, every third of the lease, on a thread of its own with its own
    /// connection, until the process ends. A renewal that fails is retried at the next tick.
    public func startRenewing(log: Diagnostics) {
        let url = url, host = host, runDate = runDate, lease = leaseSeconds
        Thread.detachNewThread {
            var connection: PostgresConnection?
            while true {
                Thread.sleep(forTimeInterval: max(1, Double(lease) / 3))
                do {
                    let open = try connection ?? PostgresConnection(url: url, applicationName: "ownerdash lease \(host)")
                    connection = open
                    try Self.heartbeat(open, host: host)
                    try open.execute("""
                        UPDATE ownerdash_claims SET lease_until = now() + make_interval(secs => :lease::integer)
                        WHERE run_date = :run_date AND host = :host AND state = 'claimed'
                        """, ["run_date": .text(runDate.iso), "host": .text(host), "lease": .integer(Int64(lease))])
                } catch {
                    connection = nil
                    log.warning(nil, "ingest: could not renew this host's claims on \(url): \(error)")
                }
            }
        }
    }

    /// Says `host` is alive now.
    static func heartbeat(_ connection: PostgresConnection, host: String) throws {
        try connection.execute("""
            INSERT INTO ownerdash_hosts (host, seen_at) VALUES (:host, now())
            ON CONFLICT (host) DO UPDATE SET seen_at = now()
            """, ["host": .text(host)])
    }
}
