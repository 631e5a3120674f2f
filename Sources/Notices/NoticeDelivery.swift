import CurlKit
import Foundation
import Ledger
import OwnerDashCore
import SQLiteKit

/// Sends debtor notices to a webhook, one JSON POST each, and records every notice delivered in `notices_sent`, so
/// that the next run sends only new or changed notices (the same content hash already sent to the same webhook is
/// skipped and counted).
///
/// Connection errors, timeouts, 429 (honouring Retry-After) and 5xx are retried with exponential backoff and
/// jitter (CurlKit's `sendRetrying`); any other status, or a transient one still failing after the last attempt,
/// fails that notice alone: one line naming the debtor, and the others are still sent.
public struct NoticeDelivery {
    /// What a send did.
    public struct Outcome: Sendable, Equatable {
        public var sent = 0
        /// Already sent with the same content to the same webhook.
        public var skipped = 0
        /// One line per notice that could not be delivered.
        public var failures: [String] = []
        /// Dry run: what would have been sent.
        public var wouldSend = 0
    }

    let database: Database
    let client: HTTPClient
    let webhook: String
    let runID: String?

    /// `database`: unified.db opened for writing (migrated, so notices_sent exists).
    public init(database: Database, client: HTTPClient = HTTPClient(), webhook: String, runID: String? = nil) {
        self.database = database; self.client = client; self.webhook = webhook; self.runID = runID
    }

    /// The webhook as recorded and printed: no user:password, no query string (either may hold a secret).
    public var destination: String {
        var url = webhook.split(separator: "?", maxSplits: 1).first.map(String.init) ?? webhook
        if let scheme = url.range(of: "://"), let at = url[scheme.upperBound...].firstIndex(of: "@"),
           !url[scheme.upperBound..<at].contains("/") {
            url.removeSubrange(scheme.upperBound...at)
        }
        return url
    }

    /// Sends each notice not yet sent; `dryRun` only counts them (no request, nothing recorded).
    public func send(_ notices: [Notice], dryRun: Bool, sleep: @escaping (Double) -> Void = { Thread.sleep(forTimeInterval: $0) }) throws -> Outcome {
        var outcome = Outcome()
        let already = try database.prepare(Self.alreadySentSQL)
        let record = try database.prepare(Self.recordSQL)
        for notice in notices {
            let keys: [String: SQLValue] = [":debtor": .text(notice.person.key), ":hash": .text(notice.contentHash),
                                            ":destination": .text(destination)]
            if try !already.query(keys).isEmpty {
                outcome.skipped += 1
                continue
            }
            if dryRun {
                outcome.wouldSend += 1
                continue
            }
            let who = "\(notice.person.name ?? "resident") (\(notice.person.key))"
            let request = HTTPRequest(method: "POST", url: webhook,
                                      headers: [("Content-Type", "application/json"),
                                                ("Idempotency-Key", notice.contentHash)],
                                      body: Self.body(notice))
            do {
                let (response, attempts) = try client.sendRetrying(request, sleep: sleep)
                guard (200...299).contains(response.status) else {
                    outcome.failures.append("notice for \(who): \(destination) answered HTTP \(response.status) after \(attempts) attempt\(attempts == 1 ? "" : "s")")
                    continue
                }
                // Recorded one by one, right after the webhook took it: a run killed midway resends nothing it sent.
                try record.execute(keys.merging([
                    ":name": SQLValue(notice.person.name), ":email": SQLValue(notice.person.email),
                    ":phone": SQLValue(notice.person.phone),
                    ":properties": .text(notice.person.properties.joined(separator: " ")),
                    ":residents": .text(notice.person.units.map { "\($0.property)/\($0.residentID)" }.joined(separator: " ")),
                    ":total": .real(Double(notice.person.totalCents) / 100), ":sent_at": .text(Self.now()),
                    ":status": .integer(Int64(response.status)), ":attempts": .integer(Int64(attempts)),
                    ":run_id": SQLValue(runID),
                ]) { $1 })
                outcome.sent += 1
            } catch let error as HTTPError {
                outcome.failures.append("notice for \(who): \(error.message) (\(destination))")
            }
        }
        return outcome
    }

    /// The JSON a webhook receives: who, what is owed (per unit and month), the total, the hash and the notice text.
    static func body(_ notice: Notice) -> [UInt8] {
        let person = notice.person
        func nullable(_ value: String?) -> Any {
            if let value { return value }
            return NSNull()
        }
        let object: [String: Any] = [
            "debtor": person.key,
            "name": nullable(person.name),
            "email": nullable(person.email),
            "phone": nullable(person.phone),
            "total": Double(person.totalCents) / 100,
            "content_hash": notice.contentHash,
            "file": notice.fileName,
            "units": person.units.map { unit -> [String: Any] in
                ["property": unit.property, "unit": unit.unit, "resident_id": unit.residentID,
                 "balance": Double(unit.balanceCents) / 100,
                 "months": unit.months.map { ["period": $0.period, "due_date": nullable($0.dueDate),
                                              "amount": Double($0.amountCents) / 100] as [String: Any] }]
            },
            "text": notice.text,
        ]
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
        return Array(data)
    }

    static func now() -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: Date())
    }

    static let alreadySentSQL = """
        SELECT 1 FROM notices_sent
        WHERE debtor_key = :debtor AND content_hash = :hash AND channel = 'webhook' AND destination = :destination
        LIMIT 1
        """

    static let recordSQL = """
        INSERT INTO notices_sent (debtor_key, debtor_name, email, phone, properties, resident_ids, total, content_hash,
                                  channel, destination, sent_at, http_status, attempts, run_id)
        VALUES (:debtor, :name, :email, :phone, :properties, :residents, :total, :hash,
                'webhook', :destination, :sent_at, :status, :attempts, :run_id)
        ON CONFLICT (debtor_key, content_hash, channel, destination) DO NOTHING
        """
}
