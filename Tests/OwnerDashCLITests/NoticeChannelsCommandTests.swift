import Foundation
import Testing

/// `ownerdash notices send --channel email` against a real SMTP server (Debian's python3-aiosmtpd, STARTTLS and
/// AUTH required, scripts/smtp/server.py) and `--channel telegram` against a Bot API stand-in
/// (scripts/fixtures/telegram_stand_in.py), on DebtorsCommandTests' small ledger plus two more debtors: Pat Roe,
/// whose mailbox the server refuses (550), and Jo Doe, with no e-mail address. Ken Ito's address is one the server
/// answers 451 (try later) the first time.
@Suite struct NoticeChannelsCommandTests {
    static let user = "notices-bot"
    static let password = "s3cret-Pa55word-xyz"
    static let token = "123456789:AAE-secret-bot-token"

    static func ledger() throws -> DataDir {
        let data = try DebtorsCommandTests.ledger()
        try DebtorsCommandTests.execute(data, """
            UPDATE unified_residents SET email = 'busy.ken@example.com' WHERE resident_id = 't2';
            INSERT INTO unified_residents (unified_property_id, resident_id, unit_number, name, email, phone, status)
            VALUES ('yp_riverwalk', 't3', '301', 'Roe, Pat', 'refused.pat@example.com', NULL, 'current'),
                   ('yp_riverwalk', 't4', '302', 'Doe, Jo', NULL, NULL, 'current');
            INSERT INTO unified_charges (unified_property_id, charge_id, resident_id, lease_id, unit_number, charge_code,
                category, category_known, period, charge_date, due_date, amount, amount_paid, balance)
            VALUES ('yp_riverwalk', 'p1', 't3', 'L3', '301', 'rent', 'RENT', 1, '2026-11', '2026-11-01', '2026-11-01', 1200, 0, 1200),
                   ('yp_riverwalk', 'd1', 't4', 'L4', '302', 'rent', 'RENT', 1, '2026-11', '2026-11-01', '2026-11-01', 1100, 0, 1100);
            """)
        return data
    }

    /// Every byte OwnerDash left in the data directory (unified.db and its journals, logs), as text.
    static func everythingStored(_ data: DataDir) throws -> String {
        let files = FileManager.default.enumerator(atPath: data.path)?.compactMap { $0 as? String } ?? []
        return try files.map { file -> String in
            var isDirectory: ObjCBool = false
            let path = data.url.appendingPathComponent(file).path
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else { return "" }
            return String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
        }.joined()
    }

    @Test(.enabled(if: SMTPTestServer.available, "python3-aiosmtpd is not installed for /usr/bin/python3 (scripts/test.sh installs it)"))
    func emailReachesARealSMTPServerOverSTARTTLSOncePerContent() throws {
        let data = try Self.ledger()
        let server = try SMTPTestServer(user: Self.user, password: Self.password)
        let database = data.url.appendingPathComponent("unified.db").path
        let arguments = ["notices", "send", "--channel", "email", "--smtp", server.url, "--from", "notices@owner.example",
                         "--smtp-ca-file", server.certificate, "--data-dir", data.path]
        let environment = ["OWNERDASH_SMTP_USER": Self.user, "OWNERDASH_SMTP_PASSWORD": Self.password]

        let first = try OwnerDash.run(arguments, environment: environment)
        #expect(first.status == 2, "Pat's mailbox is refused")
        #expect(first.stdout == "sent      2 to \(server.url), 0 already sent, 1 failed, 1 not sendable\n")
        let errors = first.stderrLines.filter { $0.hasPrefix("error:") }
        #expect(errors == ["error: ownerdash notices send: notice for Roe, Pat (email:refused.pat@example.com): "
                           + "refused.pat@example.com: the SMTP server refused the message: RCPT failed: 550 (\(server.url)) after 1 attempt"])
        #expect(first.stderrLines.filter { $0.hasPrefix("warning:") && $0.contains("Doe, Jo") }
                == ["warning: ownerdash notices send: notice for Doe, Jo (resident:yp_riverwalk/t4) not sendable by email: no e-mail address on file"])

        let received = try server.received()
        // Ann's two tenancies spell her address "ann@example.com" and "Ann@Example.com": one person, one message.
        #expect(received.map { $0.recipients.map { $0.lowercased() } } == [["ann@example.com"], ["busy.ken@example.com"]])
        #expect(received.allSatisfy { $0.tls && $0.user == Self.user && $0.sender == "notices@owner.example" },
                "STARTTLS before AUTH, the envelope sender given")
        let ann = try #require(received.first)
        #expect(ann.header("To")?.lowercased() == "\"lee, ann\" <ann@example.com>")
        #expect(ann.header("Subject") == "Notice of past-due balance")
        #expect(ann.header("From") == "notices@owner.example")
        #expect(ann.header("Content-Type") == "text/plain; charset=utf-8")
        #expect(ann.header("Message-ID")?.hasSuffix("@owner.example>") == true)
        #expect(ann.body.contains("Total due: $3700.00") && ann.body.contains("Unit(s): 101 (Riverwalk), 7A (Cedar Bluff)"))
        #expect(try OwnerDash.sqlite(database, """
            SELECT count(*), group_concat(attempts, ','), min(http_status), min(channel), lower(min(destination)) FROM notices_sent
            """) == "2|1,2|250|email|ann@example.com via \(server.url)", "Ken's address took a second attempt (451 first)")

        let again = try OwnerDash.run(arguments, environment: environment)
        #expect(again.stdout == "sent      0 to \(server.url), 2 already sent, 1 failed, 1 not sendable\n",
                "sent once per content; the refused one is tried again")
        #expect(try server.received().count == 2)

        try DebtorsCommandTests.execute(data, "UPDATE unified_charges SET amount = 41.5 WHERE charge_id = 'a3';")
        let changed = try OwnerDash.run(arguments, environment: environment)
        #expect(changed.stdout.hasPrefix("sent      1 to \(server.url), 1 already sent, 1 failed"))
        let third = try #require(try server.received().last)
        #expect(third.recipients == ["busy.ken@example.com"] && third.body.contains("$41.50"))

        let wrong = try OwnerDash.run(arguments, environment: ["OWNERDASH_SMTP_USER": Self.user,
                                                              "OWNERDASH_SMTP_PASSWORD": "wrong-Pa55word-abc"])
        #expect(wrong.status == 2)
        #expect(wrong.stderrLines.contains { $0.contains("Roe, Pat") && $0.contains("the SMTP server refused the user name or password") })
        #expect(!wrong.stderr.contains("wrong-Pa55word-abc"))

        let everything = [first, again, changed].map { $0.stdout + $0.stderr }.joined() + (try Self.everythingStored(data))
        #expect(!everything.contains(Self.password), "the password is in no output, log or database")
    }

    @Test(.enabled(if: SMTPTestServer.available, "python3-aiosmtpd is not installed for /usr/bin/python3 (scripts/test.sh installs it)"))
    func aServerWithoutACertificateWeTrustIsRefusedBeforeThePasswordGoes() throws {
        let data = try Self.ledger()
        let server = try SMTPTestServer(user: Self.user, password: Self.password)
        let result = try OwnerDash.run(["notices", "send", "--channel", "email", "--smtp", server.url, "--from", "notices@owner.example",
                                        "--data-dir", data.path],
                                       environment: ["OWNERDASH_SMTP_USER": Self.user, "OWNERDASH_SMTP_PASSWORD": Self.password])
        #expect(result.status == 2)
        let errors = result.stderrLines.filter { $0.hasPrefix("error:") }
        #expect(errors.count == 3 && errors.allSatisfy { $0.contains("TLS with the SMTP server failed") && $0.hasSuffix("after 1 attempt") })
        #expect(try server.received().isEmpty)
    }

    @Test(arguments: [
        (["--channel", "fax"], "--channel must be webhook, email or telegram, not \"fax\""),
        (["--channel", "email", "--from", "a@b.example"], "--channel email needs --smtp URL (or OWNERDASH_SMTP_URL)"),
        (["--channel", "email", "--smtp", "smtp://u:p@mail.example:587", "--from", "a@b.example"],
         "--smtp: the SMTP URL must not hold credentials (give them in the environment) (smtp://mail.example)"),
        (["--channel", "email", "--smtp", "https://mail.example", "--from", "a@b.example"],
         "--smtp: \"https://mail.example\" is not an smtp://host[:port] or smtps://host[:port] URL (https://mail.example)"),
        (["--channel", "email", "--smtp", "smtp://mail.example", "--from", "Ann <a@b.example>"],
         "--from \"Ann <a@b.example>\" is not a plain e-mail address (name@example.com)"),
        (["--channel", "telegram"], "--channel telegram needs the bot token in OWNERDASH_TELEGRAM_TOKEN"),
        (["--channel", "email", "--telegram-chat", "1"], "--telegram-chat is for --channel telegram, not email"),
    ])
    func badChannelSettingsAreOneLineUsageErrors(arguments: [String], message: String) throws {
        let data = try DebtorsCommandTests.ledger()
        let result = try OwnerDash.run(["notices", "send"] + arguments + ["--data-dir", data.path],
                                       environment: ["OWNERDASH_TELEGRAM_TOKEN": "", "OWNERDASH_SMTP_URL": ""])
        #expect(result.status == 1)
        #expect(result.stderr == "error: ownerdash notices send: \(message)\n")
    }

    @Test func telegramSendsToEachPropertysChatHonoursRetryAfterAndNeverShowsTheToken() throws {
        let data = try Self.ledger()
        let standIn = try TelegramStandIn(token: Self.token)
        let config = try Self.config(data, chats: ["yp_riverwalk": "-1001", "yp_cedar_bluff": "-429"])
        let environment = ["OWNERDASH_TELEGRAM_TOKEN": Self.token, "OWNERDASH_TELEGRAM_API": standIn.base]
        let arguments = ["notices", "send", "--channel", "telegram", "--config", config, "--data-dir", data.path]

        let first = try OwnerDash.run(arguments, environment: environment)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout == "sent      5 to the Telegram chats of the properties, 0 already sent, 0 failed\n")
        let messages = try standIn.received()
        // Ann rents at both properties: her notice goes to both chats; the -429 chat is rate limited once.
        #expect(messages.map(\.chat).sorted() == [-1001, -1001, -1001, -1001, -429])
        #expect(messages.contains { $0.chat == -429 && $0.text.contains("Total due: $3700.00") })
        #expect(messages.allSatisfy { !$0.headers.contains(Self.token) }, "the token travels in the path only")
        let database = data.url.appendingPathComponent("unified.db").path
        #expect(try OwnerDash.sqlite(database, "SELECT count(*), max(attempts), min(destination) FROM notices_sent WHERE channel = 'telegram'")
                == "5|2|telegram:-1001")

        let again = try OwnerDash.run(arguments, environment: environment)
        #expect(again.stdout == "sent      0 to the Telegram chats of the properties, 5 already sent, 0 failed\n")

        let missing = try OwnerDash.run(["notices", "send", "--channel", "telegram", "--config", try Self.config(data, chats: [:]),
                                         "--property", "yp_cedar_bluff", "--data-dir", data.path], environment: environment)
        #expect(missing.status == 0)
        #expect(missing.stderrLines.contains("warning: ownerdash notices send: notice for Lee, Ann (email:ann@example.com) not sendable by "
            + "telegram: no Telegram chat for property yp_cedar_bluff (set telegram_chat_id in report_definitions.json, or give --telegram-chat)"))

        let refused = try OwnerDash.run(["notices", "send", "--channel", "telegram", "--telegram-chat", "-404", "--data-dir", data.path],
                                        environment: environment)
        #expect(refused.status == 2)
        #expect(refused.stderrLines.filter { $0.hasPrefix("error:") }.count == 4)
        #expect(refused.stderrLines.contains("error: ownerdash notices send: notice for Ito, Ken (email:busy.ken@example.com): "
            + "telegram:-404: Telegram refused the message: 400 Bad Request: chat not found after 1 attempt"))

        let badToken = try OwnerDash.run(["notices", "send", "--channel", "telegram", "--telegram-chat", "-1002", "--data-dir", data.path],
                                         environment: ["OWNERDASH_TELEGRAM_TOKEN": "999:wrong-token-value", "OWNERDASH_TELEGRAM_API": standIn.base])
        #expect(badToken.status == 2 && badToken.stderr.contains("Telegram refused the message: 401 Unauthorized"))

        let everything = [first, again, missing, refused].map { $0.stdout + $0.stderr }.joined() + badToken.stderr
            + (try Self.everythingStored(data))
        #expect(!everything.contains(Self.token) && !everything.contains("AAE-secret") && !everything.contains("wrong-token-value"))
    }

    @Test func plainHTTPToAnotherHostIsRefusedForTheTelegramAPI() throws {
        let data = try DebtorsCommandTests.ledger()
        let result = try OwnerDash.run(["notices", "send", "--channel", "telegram", "--telegram-chat", "1", "--data-dir", data.path],
                                       environment: ["OWNERDASH_TELEGRAM_TOKEN": Self.token, "OWNERDASH_TELEGRAM_API": "http://api.example.org",
                                                     "OWNERDASH_ALLOW_INSECURE_HTTP": ""])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("error: ownerdash notices send: OWNERDASH_TELEGRAM_API is plain http:// to api.example.org"))
        #expect(!result.stderr.contains(Self.token))
    }

    /// The repository's report_definitions.json with `telegram_chat_id` set on the properties given.
    static func config(_ data: DataDir, chats: [String: String]) throws -> String {
        let source = try Data(contentsOf: OwnerDash.repository.appendingPathComponent("report_definitions.json"))
        var object = try #require(try JSONSerialization.jsonObject(with: source) as? [String: Any])
        let properties = try #require(object["properties"] as? [[String: Any]])
        object["properties"] = properties.map { property -> [String: Any] in
            var property = property
            if let key = property["key"] as? String, let chat = chats[key] { property["telegram_chat_id"] = chat }
            return property
        }
        let path = data.url.appendingPathComponent("config-\(UUID().uuidString).json").path
        try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: path))
        return path
    }
}

/// A helper script on a loopback port that prints `listening on URL` and serves until its stdin closes.
final class LoopbackScript {
    let process = Process()
    let input = Pipe()
    let url: String

    init(_ arguments: [String], python: String = "/usr/bin/python3") throws {
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        process.standardInput = input
        try process.run()
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = pipe.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.hasPrefix("listening on ") else { throw CocoaError(.fileReadUnknown) }
        url = String(text.dropFirst("listening on ".count))
    }

    deinit {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }
}

/// scripts/smtp/server.py with a certificate made by `openssl` for this run.
final class SMTPTestServer {
    /// Debian's python3-aiosmtpd is importable by the system Python.
    static let available: Bool = {
        let check = Process()
        check.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        check.arguments = ["-c", "import aiosmtpd"]
        check.standardError = FileHandle.nullDevice
        guard (try? check.run()) != nil else { return false }
        check.waitUntilExit()
        return check.terminationStatus == 0
    }()

    let directory = DataDir()
    let certificate: String
    let script: LoopbackScript
    var url: String { script.url }
    var outbox: URL { directory.url.appendingPathComponent("received") }

    /// One message as the server received it.
    struct Message {
        var sender: String
        var recipients: [String]
        var tls: Bool
        var user: String?
        var headers: [(String, String)]
        /// The quoted-printable body decoded.
        var body: String

        func header(_ name: String) -> String? { headers.first { $0.0.lowercased() == name.lowercased() }?.1 }
    }

    init(user: String, password: String) throws {
        try FileManager.default.createDirectory(at: directory.url, withIntermediateDirectories: true)
        certificate = directory.url.appendingPathComponent("cert.pem").path
        let key = directory.url.appendingPathComponent("key.pem").path
        let openssl = Process()
        openssl.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        openssl.arguments = ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", certificate,
                             "-days", "1", "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"]
        openssl.standardError = FileHandle.nullDevice
        try openssl.run()
        openssl.waitUntilExit()
        try #require(openssl.terminationStatus == 0)
        script = try LoopbackScript([OwnerDash.repository.appendingPathComponent("scripts/smtp/server.py").path,
                                     certificate, key, directory.url.appendingPathComponent("received").path, user, password])
    }

    /// The messages received, oldest first.
    func received() throws -> [Message] {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: outbox.path)) ?? []).filter { $0.hasSuffix(".json") }.sorted()
        return try names.map { name in
            let meta = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: outbox.appendingPathComponent(name))) as? [String: Any])
            let raw = String(decoding: try Data(contentsOf: outbox.appendingPathComponent(name.replacingOccurrences(of: ".json", with: ".eml"))),
                             as: UTF8.self)
            let parts = raw.components(separatedBy: "\r\n\r\n")
            let headers = parts[0].components(separatedBy: "\r\n").compactMap { line -> (String, String)? in
                guard let colon = line.firstIndex(of: ":") else { return nil }
                return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
            }
            return Message(sender: meta["mail_from"] as? String ?? "", recipients: meta["rcpt_tos"] as? [String] ?? [],
                           tls: meta["tls"] as? Bool ?? false, user: meta["auth_user"] as? String, headers: headers,
                           body: Self.decodeQuotedPrintable(parts.dropFirst().joined(separator: "\r\n\r\n")))
        }
    }

    static func decodeQuotedPrintable(_ text: String) -> String {
        var bytes: [UInt8] = []
        let source = Array(text.replacingOccurrences(of: "=\r\n", with: "").utf8)
        var index = 0
        while index < source.count {
            if source[index] == UInt8(ascii: "="), index + 2 < source.count,
               let value = UInt8(String(decoding: source[(index + 1)...(index + 2)], as: UTF8.self), radix: 16) {
                bytes.append(value)
                index += 3
            } else {
                bytes.append(source[index])
                index += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// scripts/fixtures/telegram_stand_in.py: the Bot API's sendMessage on a loopback port.
final class TelegramStandIn {
    let directory = DataDir()
    let script: LoopbackScript
    var base: String { script.url }

    /// One sendMessage the stand-in accepted.
    struct Message {
        var chat: Int
        var text: String
        /// The request's headers, as text.
        var headers: String
    }

    init(token: String) throws {
        script = try LoopbackScript([OwnerDash.repository.appendingPathComponent("scripts/fixtures/telegram_stand_in.py").path,
                                     token, directory.url.appendingPathComponent("received").path])
    }

    func received() throws -> [Message] {
        let folder = directory.url.appendingPathComponent("received")
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasSuffix(".json") }.sorted()
        return try names.map { name in
            let object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent(name))) as? [String: Any])
            let body = object["body"] as? [String: Any] ?? [:]
            let headers = (object["headers"] as? [String: String] ?? [:]).map { "\($0.key): \($0.value)" }.joined(separator: "\n")
            return Message(chat: body["chat_id"] as? Int ?? 0, text: body["text"] as? String ?? "", headers: headers)
        }
    }
}
