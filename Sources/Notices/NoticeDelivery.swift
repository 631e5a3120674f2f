import CurlKit
import Foundation
import Ledger
import OwnerDashCore
import SQLiteKit

/// Where one notice goes through a channel.
public struct NoticeDestination: Sendable, Equatable {
    /// As recorded in `notices_sent.destination` and printed; never holds a secret (`https://hooks.example/notices`,
    /// `ann@example.com via smtp://mail.example.com:587`, `telegram:-1001234`).
    public var recorded: String
    /// What the channel sends to: the webhook URL as given, the e-mail address, the chat id.
    public var address: String

    public init(recorded: String, address: String) {
        self.recorded = recorded; self.address = address
    }
}

/// Where a notice goes, or why it cannot go anywhere through this channel.
public enum NoticeRouting: Sendable, Equatable {
    case to([NoticeDestination])
    /// One line without the debtor's name (the caller adds it): "no e-mail address on file".
    case notSendable(String)
}

/// One attempt that did not deliver; `transient` ones are tried again (after `retryAfter` seconds when the other
/// side named a wait).
public struct DeliveryFailure: Error, Sendable, Equatable {
    /// One line, secrets redacted, naming the destination.
    public var message: String
    public var transient: Bool
    public var retryAfter: Double?

    public init(_ message: String, transient: Bool, retryAfter: Double? = nil) {
        self.message = message; self.transient = transient; self.retryAfter = retryAfter
    }
}

/// One way notices reach people (webhook, e-mail, Telegram); `NoticeDelivery` does the bookkeeping and retries.
public protocol NoticeChannel {
    /// `notices_sent.channel`.
    var name: String { get }
    /// Where the notices go, for the summary line (no secrets).
    var summary: String { get }
    /// The destinations of one notice.
    func route(_ notice: Notice) -> NoticeRouting
    /// One attempt; returns the reply code recorded (HTTP status, SMTP reply). Throws `DeliveryFailure`.
    func deliver(_ notice: Notice, to destination: NoticeDestination) throws -> Int
}

/// Sends debtor notices through a channel and records every notice delivered in `notices_sent`, so that the next run
/// sends only new or changed notices (the same content hash already sent through the same channel to the same
/// destination is skipped and counted).
///
/// Transient failures (connection errors, timeouts, HTTP 429 and 5xx, SMTP 4xx, Telegram's retry_after) are retried
/// with exponential backoff and jitter (CurlKit's `RetryPolicy`, a named wait honoured); anything else, or a transient
/// failure still failing after the last attempt, fails that notice alone: one line naming the debtor, and the others
/// are still sent. A failed notice is not recorded, so the next run tries it again.
public struct NoticeDelivery {
    /// What a send did.
    public struct Outcome: Sendable, Equatable {
        public var sent = 0
        /// Already sent with the same content through the same channel to the same destination.
        public var skipped = 0
        /// One line per notice that could not be delivered.
        public var failures: [String] = []
        /// One line per debtor this channel cannot reach (no e-mail address, no chat).
        public var notSendable: [String] = []
        /// Dry run: what would have been sent.
        public var wouldSend = 0
    }

    let database: Database
    let channel: any NoticeChannel
    let retry: RetryPolicy
    let runID: String?

    /// `database`: unified.db opened for writing (migrated, so notices_sent exists).
    public init(database: Database, channel: any NoticeChannel, retry: RetryPolicy = RetryPolicy(), runID: String? = nil) {
        self.database = database; self.channel = channel; self.retry = retry; self.runID = runID
    }

    /// Where the notices go (no secrets).
    public var destination: String { channel.summary }

    /// Sends each notice not yet sent; `dryRun` only counts them (no request, nothing recorded).
    public func send(_ notices: [Notice], dryRun: Bool, sleep: @escaping (Double) -> Void = { Thread.sleep(forTimeInterval: $0) }) throws -> Outcome {
        var outcome = Outcome()
        let already = try database.prepare(Self.alreadySentSQL)
        let record = try database.prepare(Self.recordSQL)
        for notice in notices {
            let who = "\(notice.person.name ?? "resident") (\(notice.person.key))"
            let destinations: [NoticeDestination]
            switch channel.route(notice) {
            case .notSendable(let why):
                outcome.notSendable.append("notice for \(who) not sendable by \(channel.name): \(why)")
                continue
            case .to(let found):
                destinations = found
            }
            for destination in destinations {
                let keys: [String: SQLValue] = [":debtor": .text(notice.person.key), ":hash": .text(notice.contentHash),
                                                ":channel": .text(channel.name), ":destination": .text(destination.recorded)]
                if try !already.query(keys).isEmpty {
                    outcome.skipped += 1
                    continue
                }
                if dryRun {
                    outcome.wouldSend += 1
                    continue
                }
                var attempts = 0
                while true {
                    attempts += 1
                    do {
                        let reply = try channel.deliver(notice, to: destination)
                        // Recorded one by one, right after the other side took it: a run killed midway resends
                        // nothing it sent.
                        try record.execute(keys.merging([
                            ":name": SQLValue(notice.person.name), ":email": SQLValue(notice.person.email),
                            ":phone": SQLValue(notice.person.phone),
                            ":properties": .text(notice.person.properties.joined(separator: " ")),
                            ":residents": .text(notice.person.units.map { "\($0.property)/\($0.residentID)" }.joined(separator: " ")),
                            ":total": .real(Double(notice.person.totalCents) / 100), ":sent_at": .text(Timestamp.iso()),
                            ":status": .integer(Int64(reply)), ":attempts": .integer(Int64(attempts)),
                            ":run_id": SQLValue(runID),
                        ]) { $1 })
                        outcome.sent += 1
                    } catch let failure as DeliveryFailure {
                        if failure.transient && attempts < retry.maxAttempts {
                            sleep(retry.delay(afterAttempt: attempts, retryAfter: failure.retryAfter))
                            continue
                        }
                        outcome.failures.append("notice for \(who): \(failure.message) after \(attempts) attempt\(attempts == 1 ? "" : "s")")
                    }
                    break
                }
            }
        }
        return outcome
    }

    static let alreadySentSQL = """
        SELECT 1 FROM notices_sent
        WHERE debtor_key = :debtor AND content_hash = :hash AND channel = :channel AND destination = :destination
        LIMIT 1
        """

    static let recordSQL = """
        INSERT INTO notices_sent (debtor_key, debtor_name, email, phone, properties, resident_ids, total, content_hash,
                                  channel, destination, sent_at, http_status, attempts, run_id)
        VALUES (:debtor, :name, :email, :phone, :properties, :residents, :total, :hash,
                :channel, :destination, :sent_at, :status, :attempts, :run_id)
        ON CONFLICT (debtor_key, content_hash, channel, destination) DO NOTHING
        """
}

/// Each notice as JSON, POSTed to one webhook (header Idempotency-Key: the content hash).
public struct WebhookChannel: NoticeChannel {
    let client: HTTPClient
    let webhook: String

    public init(webhook: String, client: HTTPClient = HTTPClient()) {
        self.webhook = webhook; self.client = client
    }

    public var name: String { "webhook" }

    /// The webhook as recorded and printed: no user:password, no query string (either may hold a secret).
    public var summary: String {
        var url = webhook.split(separator: "?", maxSplits: 1).first.map(String.init) ?? webhook
        if let scheme = url.range(of: "://"), let at = url[scheme.upperBound...].firstIndex(of: "@"),
           !url[scheme.upperBound..<at].contains("/") {
            url.removeSubrange(scheme.upperBound...at)
        }
        return url
    }

    public func route(_ notice: Notice) -> NoticeRouting {
        .to([NoticeDestination(recorded: summary, address: webhook)])
    }

    public func deliver(_ notice: Notice, to destination: NoticeDestination) throws -> Int {
        let request = HTTPRequest(method: "POST", url: destination.address,
                                  headers: [("Content-Type", "application/json"), ("Idempotency-Key", notice.contentHash)],
                                  body: Self.body(notice))
        let response: HTTPResponse
        do {
            response = try client.send(request)
        } catch let error as HTTPError {
            throw DeliveryFailure("\(error.message) (\(destination.recorded))", transient: error.isTransient)
        }
        guard (200...299).contains(response.status) else {
            throw DeliveryFailure("\(destination.recorded) answered HTTP \(response.status)",
                                  transient: response.status == 429 || (500...599).contains(response.status),
                                  retryAfter: RetryPolicy.retryAfterSeconds(response.headers["retry-after"]))
        }
        return response.status
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
}
