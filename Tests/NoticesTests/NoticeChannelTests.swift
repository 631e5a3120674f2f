import CurlKit
import Foundation
@testable import Ledger
@testable import Notices
import Testing

/// The pieces of the e-mail and Telegram channels that need no server: the message an SMTP server receives, which
/// addresses may go into an envelope, and which chats a notice goes to.
@Suite struct NoticeChannelTests {
    static func notice(email: String?, properties: [String] = ["yp"], text: String = "Total due: $40.50\n") -> Notice {
        let person = Debtors.Person(
            key: "email:\(email ?? "none")", name: "Lee, Ann", email: email, phone: nil,
            units: properties.map {
                Debtors.UnitDebt(property: $0, unit: "101", residentID: "t1", name: "Lee, Ann", status: "current",
                                 balanceCents: 4_050, months: [.init(period: "2026-11", dueDate: "2026-11-05", amountCents: 4_050)])
            },
            totalCents: 4_050)
        return Notice(person: person, text: text, contentHash: String(repeating: "ab", count: 32), fileName: "lee-ann.txt")
    }

    @Test func theMessageHasItsHeadersAndAQuotedPrintableBodyWithCRLFLineEnds() throws {
        let body = "Résident: Lee, Ann  \n" + String(repeating: "x", count: 100) + "\n3 = three\n"
        let message = MailMessage(from: "notices@owner.example", to: "ann@example.com", toName: "Lee, Ann",
                                  subject: "Avis de retard", body: body, date: Date(timeIntervalSince1970: 1_795_000_000),
                                  contentHash: String(repeating: "ab", count: 32))
        let text = String(decoding: message.bytes, as: UTF8.self)
        let (head, encoded) = try #require(text.range(of: "\r\n\r\n").map { (String(text[..<$0.lowerBound]), String(text[$0.upperBound...])) })
        #expect(head.components(separatedBy: "\r\n") == [
            "From: notices@owner.example",
            "To: \"Lee, Ann\" <ann@example.com>",
            "Subject: Avis de retard",
            "Date: Wed, 18 Nov 2026 11:06:40 +0000",
            "Message-ID: <abababababababababababab.1795000000@owner.example>",
            "MIME-Version: 1.0",
            "Content-Type: text/plain; charset=utf-8",
            "Content-Transfer-Encoding: quoted-printable",
        ])
        let lines = encoded.components(separatedBy: "\r\n")
        #expect(lines[0] == "R=C3=A9sident: Lee, Ann =20", "UTF-8 escaped, trailing space kept")
        #expect(lines[1] == String(repeating: "x", count: 75) + "=" && lines[2] == String(repeating: "x", count: 25),
                "a soft break keeps lines within 76 characters")
        #expect(lines[3] == "3 =3D three")
        #expect(!encoded.replacingOccurrences(of: "\r\n", with: "").contains("\n"), "no bare LF")
        #expect(MailMessage.displayName("Lé \"Ann\"") == "=?utf-8?B?TMOpICJBbm4i?=")
        #expect(MailMessage.headerText("Relevé\r\nBcc: x@y.z") == "=?utf-8?B?UmVsZXbDqSAgQmNjOiB4QHkueg==?=",
                "a line break cannot start a header")
    }

    @Test(arguments: [
        ("ann@example.com", true), ("ann.lee+rent@mail.example.co", true),
        ("ann@localhost", false), ("Ann <ann@example.com>", false), ("ann@example.com\r\nRCPT TO:<x@y.z>", false),
        ("ann lee@example.com", false), ("a@b@example.com", false), ("@example.com", false), ("ann@.com", false),
        ("ann@exämple.com", false),
    ])
    func onlyPlainAddressesGoIntoTheEnvelope(address: String, valid: Bool) {
        #expect(MailAddress.isValid(address) == valid)
    }

    @Test func aDebtorWithoutAUsableAddressIsNotSendableWithTheReason() throws {
        let client = try SMTPClient(settings: SMTPSettings(server: "smtp://mail.example:587"))
        let channel = EmailChannel(client: client, from: "notices@owner.example", subject: "s")
        #expect(channel.route(Self.notice(email: nil)) == .notSendable("no e-mail address on file"))
        #expect(channel.route(Self.notice(email: "ann@example.com\nBcc")) == .notSendable(
            "the e-mail address on file \"ann@example.com?Bcc\" is not a usable address"))
        let spelledOtherwise = EmailChannel(client: try SMTPClient(settings: SMTPSettings(server: "SMTP://Mail.Example:587/")),
                                            from: "notices@owner.example", subject: "s")
        #expect(spelledOtherwise.summary == "smtp://mail.example:587", "the same server, the same destination recorded")
        #expect(channel.route(Self.notice(email: "ann@example.com")) == .to([
            NoticeDestination(recorded: "ann@example.com via smtp://mail.example:587", address: "ann@example.com")]))
    }

    @Test func telegramGoesToEachDistinctChatOfTheDebtorsPropertiesOrTheOneGiven() {
        let client = TelegramChannel.redactingClient(token: "123:secret")
        let perProperty = TelegramChannel(token: "123:secret", chats: ["yp": "-100", "yq": "-100", "yr": "-200"], chat: nil, client: client)
        #expect(perProperty.route(Self.notice(email: nil, properties: ["yp", "yq", "yr"])) == .to([
            NoticeDestination(recorded: "telegram:-100", address: "-100"), NoticeDestination(recorded: "telegram:-200", address: "-200")]))
        #expect(perProperty.route(Self.notice(email: nil, properties: ["zz"])) == .notSendable(
            "no Telegram chat for property zz (set telegram_chat_id in report_definitions.json, or give --telegram-chat)"))
        let fixed = TelegramChannel(token: "123:secret", chats: [:], chat: "@owners", client: client)
        #expect(fixed.route(Self.notice(email: nil, properties: ["zz"])) == .to([NoticeDestination(recorded: "telegram:@owners", address: "@owners")]))
        #expect(!fixed.summary.contains("secret") && !perProperty.summary.contains("secret"))
    }

    @Test func aNoticeLongerThanTelegramTakesFailsWithoutARequest() throws {
        let channel = TelegramChannel(token: "123:secret", apiBase: "http://127.0.0.1:9", chats: [:], chat: "1",
                                      client: TelegramChannel.redactingClient(token: "123:secret"))
        let long = Self.notice(email: nil, text: String(repeating: "x", count: 4097))
        #expect(throws: DeliveryFailure("telegram:1: the notice has 4097 characters, more than Telegram's 4096 per message "
                                        + "(shorten the template)", transient: false)) {
            _ = try channel.deliver(long, to: NoticeDestination(recorded: "telegram:1", address: "1"))
        }
    }
}
