import Foundation
import CurlKit
import Fetch
import Ingest
import Ledger
import Metrics
import Notices
import OwnerDashCore
import SQLiteKit
import Sync

/// `ownerdash notices generate`: one notice file per debtor, from a template, plus a CSV manifest.
struct NoticesGenerateCommand: Command {
    static let names = ["notices", "generate"]
    static let unifiedAccess = UnifiedAccess.reads
    static let abstract = "Write one past-due notice per debtor (from a template) and a manifest with each notice's hash."
    static let arguments: [ArgumentSpec] = NoticeSelection.specs + [
        .option("--out", "DIR", help: "where the notices go (default DATA_DIR/notices)"),
        .flag("--dry-run", help: "print what would be written; write nothing"),
    ]
    static let discussion = """
        The debtors are those of 'ownerdash report debtors' (same --property, --as-of and --min-debt). Each
        notice is rendered from the template (default: a built-in plain-text notice) and written to
        DIR/<name>-<id>.txt; DIR/manifest.csv lists debtor, name, file, total and the SHA-256 of the notice.
        Notices hold nothing that changes from run to run (no generation time), so the same ledger gives the
        same files and hashes. Notices of an earlier run whose debtor no longer owes are removed. A debtor
        the PMS marks under eviction (RealPage's Delinquent and Prepaid '*', Yardi's status Eviction) gets
        no notice unless --include-evictions; nor does an account placed with a collection agency (RealPage's
        Collections Report, In Coll.: the agency collects it), with no option; each is one line on stderr.

        Template placeholders: {{name}} {{email}} {{phone}} {{contact}} {{units}} {{property}} {{total}}
        {{due_date}} (the oldest month's due date) {{as_of}} {{month_count}}, and one repeated block
        {{#months}} ... {{/months}} with {{period}} {{amount}} {{unit}} {{property}} {{due_date}} per month
        line. An unknown placeholder is a one-line error naming it and the template file (exit 1).
        """

    let global: GlobalOptions
    let selection: NoticeSelection
    let out: String?
    let dryRun: Bool

    init(_ parsed: ParsedArguments, global: GlobalOptions) throws {
        self.global = global
        selection = try NoticeSelection(parsed, command: Self.commandLine)
        out = parsed.value("--out")
        dryRun = parsed.flag("--dry-run")
    }

    func run(_ log: Diagnostics) throws -> ExitCode {
        guard let session = try LedgerReportSession(command: Self.commandLine, dataDirectory: global.dataDirectory,
                                                    asked: selection.properties, log: log)
        else { return .failure }
        let notices = try selection.notices(database: session.database, properties: session.properties,
                                            command: Self.commandLine, log: log)
        let directory = out ?? global.dataDirectory.notices
        let output = StandardOutput()
        defer { output.flush() }
        output.write(try Self.write(notices, to: directory, dryRun: dryRun, command: Self.commandLine))
        return .success
    }

    /// Writes (or, dry, lists) the notices; returns the stdout summary. Shared with `ingest --notices`.
    static func write(_ notices: [Notice], to directory: String, dryRun: Bool, command: String) throws -> String {
        let total = notices.reduce(Int64(0)) { $0 + $1.person.totalCents }
        if dryRun {
            return notices.map { "would write \(directory)/\($0.fileName)  \(Money(cents: $0.person.totalCents))  \($0.contentHash)\n" }.joined()
                + "notices   \(notices.count) would be written to \(directory) (dry run), total \(Money(cents: total))\n"
        }
        let written: NoticeBatch.Written
        do {
            written = try NoticeBatch.write(notices, to: directory)
        } catch let error as NoticeOutputError {
            throw UsageError("\(command): \(error.description)")
        }
        return "notices   \(written.files) written to \(directory), total \(Money(cents: total))"
            + (written.removed.isEmpty ? "" : ", \(written.removed.count) paid off removed") + "\n"
            + "manifest  \(written.manifest)\n"
    }
}

/// `ownerdash notices send`: each notice not sent yet, through a webhook, e-mail or Telegram; recorded in notices_sent.
struct NoticesSendCommand: Command {
    static let names = ["notices", "send"]
    static let unifiedAccess = UnifiedAccess.writesThrough(scope: "notices")
    static let abstract = "Send each new or changed debtor notice (webhook, e-mail or Telegram), with retries; record it in notices_sent."
    static let arguments: [ArgumentSpec] = NoticeSelection.specs + [
        .option("--channel", "webhook|email|telegram", help: "how the notices go (default webhook)"),
        .option("--webhook", "URL", help: "webhook: where each notice is POSTed as JSON"),
        .option("--smtp", "URL", help: "email: smtp://host:port (STARTTLS) or smtps://host:port (default $OWNERDASH_SMTP_URL)"),
        .option("--from", "ADDRESS", help: "email: the sender address (default $OWNERDASH_SMTP_FROM)"),
        .option("--subject", "TEXT", help: "email: the subject (default \"\(defaultSubject)\")"),
        .option("--smtp-ca-file", "FILE", help: "email: CA bundle the server's certificate is checked against (default: the system's)"),
        .option("--telegram-chat", "ID", help: "telegram: send every notice to this chat (default: each property's telegram_chat_id)"),
        .flag("--dry-run", help: "count what would be sent; send and record nothing"),
    ]
    static let defaultSubject = "Notice of past-due balance"
    static let discussion = """
        The notices are those 'notices generate' writes (same options), rendered again from unified.db. A
        notice whose content hash was already sent through the channel to the same destination
        (notices_sent) is skipped and counted, so a nightly run sends only new and changed notices.

        webhook: one JSON POST per notice (debtor, name, email, phone, units with their months, total,
        content_hash, file, text; header Idempotency-Key: the content hash).
        email: one plain-text message per debtor to the e-mail address on file, through the SMTP server
        (STARTTLS required, certificate verified); OWNERDASH_SMTP_USER and OWNERDASH_SMTP_PASSWORD log in.
        A debtor without a usable address is one warning line (not sendable), never skipped silently.
        telegram: Bot API sendMessage to the chat of the debtor's property (telegram_chat_id in
        report_definitions.json) or to --telegram-chat; the bot token comes from OWNERDASH_TELEGRAM_TOKEN
        and is never printed, logged or stored; OWNERDASH_TELEGRAM_API replaces https://api.telegram.org.

        Connection errors, timeouts, HTTP 429 and 5xx, SMTP 4xx replies and Telegram's retry_after are
        retried with exponential backoff (4 attempts); a notice that still fails is one line on stderr, is not
        recorded (the next run tries it again) and the others are sent. Takes the data directory's lock (it
        writes notices_sent in unified.db). Exit 0: every notice sent, skipped or not sendable; 2: some
        failed; 3: no unified.db, or the lock is held.
        """

    /// The channel asked for, with its options (secrets are read from the environment only when sending).
    enum Channel {
        case webhook(String)
        case email(server: String?, from: String?, subject: String, caFile: String?)
        case telegram(chat: String?)
    }

    let global: GlobalOptions
    let selection: NoticeSelection
    let channel: Channel
    let dryRun: Bool

    init(_ parsed: ParsedArguments, global: GlobalOptions) throws {
        self.global = global
        selection = try NoticeSelection(parsed, command: Self.commandLine)
        let command = Self.commandLine
        let name = parsed.value("--channel") ?? "webhook"
        let options: [String: [String]] = ["webhook": ["--webhook"],
                                           "email": ["--smtp", "--from", "--subject", "--smtp-ca-file"],
                                           "telegram": ["--telegram-chat"]]
        guard let own = options[name] else {
            throw UsageError("\(command): --channel must be webhook, email or telegram, not \"\(name)\"")
        }
        for (other, names) in options where other != name {
            for option in names where parsed.value(option) != nil && !own.contains(option) {
                throw UsageError("\(command): \(option) is for --channel \(other), not \(name)")
            }
        }
        switch name {
        case "email":
            channel = .email(server: parsed.value("--smtp"), from: parsed.value("--from"),
                             subject: parsed.value("--subject") ?? Self.defaultSubject, caFile: parsed.value("--smtp-ca-file"))
        case "telegram":
            channel = .telegram(chat: parsed.value("--telegram-chat"))
        default:
            channel = .webhook(try Self.webhook(parsed.value("--webhook"), option: "--webhook", command: command))
        }
        dryRun = parsed.flag("--dry-run")
    }

    /// A webhook URL: required, http or https.
    static func webhook(_ value: String?, option: String, command: String) throws -> String {
        guard let value, !value.isEmpty else { throw UsageError("\(command): \(option) URL is required") }
        guard value.hasPrefix("http://") || value.hasPrefix("https://") else {
            throw UsageError("\(command): \(option) \"\(value)\" is not an http(s) URL")
        }
        return value
    }

    /// The channel, with its secrets from `environment`; a missing or bad setting is a usage error naming it.
    func makeChannel(environment: [String: String]) throws -> any NoticeChannel {
        let command = Self.commandLine
        func setting(_ value: String?, _ variable: String) -> String? {
            let found = value ?? environment[variable]
            return found?.isEmpty == false ? found : nil
        }
        switch channel {
        case .webhook(let url):
            return WebhookChannel(webhook: url)
        case .email(let server, let from, let subject, let caFile):
            guard let server = setting(server, "OWNERDASH_SMTP_URL") else {
                throw UsageError("\(command): --channel email needs --smtp URL (or OWNERDASH_SMTP_URL)")
            }
            guard let from = setting(from, "OWNERDASH_SMTP_FROM") else {
                throw UsageError("\(command): --channel email needs --from ADDRESS (or OWNERDASH_SMTP_FROM)")
            }
            guard MailAddress.isValid(from) else {
                throw UsageError("\(command): --from \"\(from)\" is not a plain e-mail address (name@example.com)")
            }
            let user = setting(nil, "OWNERDASH_SMTP_USER"), password = setting(nil, "OWNERDASH_SMTP_PASSWORD")
            if (user == nil) != (password == nil) {
                throw UsageError("\(command): set both OWNERDASH_SMTP_USER and OWNERDASH_SMTP_PASSWORD, or neither")
            }
            let caBundle = setting(caFile, "OWNERDASH_SMTP_CA_FILE")
            if let caBundle, !FileManager.default.isReadableFile(atPath: caBundle) {
                throw UsageError("\(command): --smtp-ca-file \(caBundle): cannot read the file")
            }
            do {
                let client = try SMTPClient(settings: SMTPSettings(server: server, username: user, password: password,
                                                                  caBundle: caBundle))
                return EmailChannel(client: client, from: from, subject: subject)
            } catch let error as SMTPError {
                throw UsageError("\(command): --smtp: \(error.description)")
            }
        case .telegram(let chat):
            guard let token = setting(nil, "OWNERDASH_TELEGRAM_TOKEN") else {
                throw UsageError("\(command): --channel telegram needs the bot token in OWNERDASH_TELEGRAM_TOKEN")
            }
            let api = setting(nil, "OWNERDASH_TELEGRAM_API") ?? "https://api.telegram.org"
            guard api.hasPrefix("https://") || api.hasPrefix("http://") else {
                throw UsageError("\(command): OWNERDASH_TELEGRAM_API \"\(api)\" is not an http(s) URL")
            }
            do {
                // The token travels in the path: plain http only to this machine (the test stand-in).
                try EndpointPolicy.requireSecure(api, what: "OWNERDASH_TELEGRAM_API", environment: environment)
            } catch let error as ConfigurationError {
                throw UsageError("\(command): \(error.description)")
            }
            var chats: [String: String] = [:]
            if chat == nil {
                for property in try global.configuration().properties {
                    if let id = property.telegramChatID { chats[property.key] = id }
                }
            }
            return TelegramChannel(token: token, apiBase: api, chats: chats, chat: chat,
                                   client: TelegramChannel.redactingClient(token: token))
        }
    }

    func run(_ log: Diagnostics) throws -> ExitCode {
        guard FileManager.default.fileExists(atPath: global.dataDirectory.unifiedDatabase) else {
            log.error(nil, "\(Self.commandLine): \(global.dataDirectory.unifiedDatabase): no unified database yet (run ownerdash sync or ownerdash ingest first)")
            return .failure
        }
        let channel = try makeChannel(environment: ProcessInfo.processInfo.environment)
        let lock = try global.writerLock(command: "notices send", log: log)
        defer { lock.release() }
        let output = StandardOutput()
        defer { output.flush() }
        let (text, code) = try Self.send(selection, channel: channel, dryRun: dryRun, dataDirectory: global.dataDirectory,
                                         runID: nil, command: Self.commandLine, log: log)
        output.write(text)
        return code
    }

    /// Renders and sends the notices of `selection` (the caller holds the data directory's lock); returns the
    /// stdout summary and the exit code. Shared with `ingest --notices-webhook`.
    static func send(_ selection: NoticeSelection, channel: any NoticeChannel, dryRun: Bool, dataDirectory: DataDirectory,
                     runID: String?, command: String, log: Diagnostics) throws -> (String, ExitCode) {
        let store = try UnifiedStore(dataDirectory: dataDirectory)
        let properties = try selection.checkedProperties(store.database, command: command)
        let notices = try selection.notices(database: store.database, properties: properties, command: command, log: log)
        let delivery = NoticeDelivery(database: store.database, channel: channel, runID: runID)
        let outcome = try delivery.send(notices, dryRun: dryRun)
        for line in outcome.notSendable { log.warning(nil, "\(command): \(line)") }
        for failure in outcome.failures { log.error(nil, "\(command): \(failure)") }
        let unreachable = outcome.notSendable.isEmpty ? "" : ", \(outcome.notSendable.count) not sendable"
        let text = dryRun
            ? "sent      0 (dry run: \(outcome.wouldSend) would be sent to \(delivery.destination)), \(outcome.skipped) already sent\(unreachable)\n"
            : "sent      \(outcome.sent) to \(delivery.destination), \(outcome.skipped) already sent, \(outcome.failures.count) failed\(unreachable)\n"
        return (text, outcome.failures.isEmpty ? .success : .partial)
    }
}

/// What the notices commands share: the template and which debtors (properties, as-of date, minimum debt).
struct NoticeSelection {
    static let specs: [ArgumentSpec] = [
        .option("--template", "FILE", help: "notice template (default: the built-in one; placeholders below)"),
        .option("--min-debt", "DOLLARS", help: "only people owing at least this much in total (default: any debt)"),
        .option("--property", "KEY", repeating: true, help: "property registry key (repeatable); default: every synced property"),
        .flag("--portfolio", help: "every synced property (the default)"),
        .option("--as-of", "YYYY-MM-DD", help: "count postings up to this date (default: each property's date)"),
        .flag("--include-evictions", help: "also debtors the PMS marks under eviction (held back by default, one line each)"),
    ]

    let template: NoticeTemplate
    let minDebt: Double?
    let properties: [String]
    let asOf: LocalDate?
    /// Debtors under eviction get a notice too (`--include-evictions`); by default their debt is left to the eviction.
    let includeEvictions: Bool

    init(_ parsed: ParsedArguments, command: String) throws {
        do {
            template = try parsed.value("--template").map { try NoticeTemplate(path: $0) }
                ?? NoticeTemplate(text: NoticeTemplate.builtIn, source: "built-in template")
        } catch let error as NoticeTemplateError {
            throw UsageError("\(command): \(error.description)")
        }
        minDebt = try DebtorsReportCommand.minDebt(parsed, command: command)
        includeEvictions = parsed.flag("--include-evictions")
        properties = parsed.values("--property")
        if let text = parsed.value("--as-of") {
            guard let date = LocalDate(iso: text) else { throw UsageError("\(command): --as-of \"\(text)\" is not a date (YYYY-MM-DD)") }
            asOf = date
        } else {
            asOf = nil
        }
    }

    /// For ingest: every debtor of `properties`, with the built-in template (or `template`).
    init(template: NoticeTemplate, properties: [String]) {
        self.template = template; minDebt = nil; self.properties = properties; asOf = nil; includeEvictions = false
    }

    /// The properties asked for (each must have been synced), else every synced one.
    func checkedProperties(_ database: Database, command: String) throws -> [String] {
        let synced = try database.query("SELECT unified_property_id FROM unified_properties ORDER BY 1").compactMap { $0[0].textValue }
        for key in properties where !synced.contains(key) {
            throw UsageError("\(command): property \"\(key)\" has not been synced")
        }
        return properties.isEmpty ? synced : properties
    }

    /// The debtors' notices; a property without a ledger is named on stderr, and so is each debtor held back because
    /// the PMS marks a unit of theirs under eviction (a reminder beside an eviction can confuse its case) or an account
    /// of theirs placed with a collection agency (the agency collects it: a notice from the property is not for it to
    /// send, and no option writes one).
    func notices(database: Database, properties: [String], command: String, log: Diagnostics) throws -> [Notice] {
        var debtors = try Debtors.run(database: database, properties: properties, asOf: asOf, minDebt: minDebt)
        for property in debtors.noLedger {
            log.warning(nil, "\(command): \(property): no tenant ledger synced for this property (no notices for it)")
        }
        // A notice states an amount: the operator learns which amounts may still lack an adjustment dated back.
        for (property, lag) in debtors.ledgerWholeAsOf.sorted(by: { $0.key < $1.key }) {
            log.warning(nil, "\(command): \(property): ledger last pulled whole on \(lag.wholeAsOf): \(LedgerWholeAsOf.consequence) "
                            + "(`ownerdash ingest --full-ledger --property \(property)` pulls it now)")
        }
        // Holds back every debtor with a unit `marked`, one line each naming the units and `why`.
        func holdBack(_ marked: (Debtors.UnitDebt) -> Bool, _ why: String) {
            for person in debtors.people where person.units.contains(where: marked) {
                let units = person.units.filter(marked).map { "\($0.property) \($0.unit)" }
                log.warning(nil, "\(command): \(person.name ?? person.key) (\(units.joined(separator: ", "))): \(why)")
            }
            debtors.people.removeAll { $0.units.contains(where: marked) }
        }
        if !includeEvictions {
            holdBack({ $0.underEviction == true }, "under eviction in the PMS, no notice (--include-evictions writes one)")
        }
        holdBack({ $0.inCollections == true }, "placed with a collection agency (the Collections Report), no notice")
        return NoticeBatch.notices(for: debtors, template: template,
                                   propertyNames: try DebtorsReportCommand.propertyNames(database))
    }
}

extension DataDirectory {
    /// Where `notices generate` (and `ingest --notices`) write by default.
    var notices: String { (root as NSString).appendingPathComponent("notices") }
}
