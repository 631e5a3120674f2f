@testable import CurlKit
import Testing

/// What SMTPClient accepts as a server and how it reads libcurl's messages (the transfers themselves are tested
/// against a real SMTP server in NoticeChannelsCommandTests).
@Suite struct SMTPClientTests {
    @Test(arguments: ["smtp://mail.example.com:587", "smtps://mail.example.com", "SMTP://127.0.0.1:2525"])
    func smtpAndSmtpsURLsAreAccepted(server: String) throws {
        try SMTPClient.checkServer(server)
    }

    @Test(arguments: [
        ("https://mail.example.com", "\"https://mail.example.com\" is not an smtp://host[:port] or smtps://host[:port] URL"),
        ("mail.example.com:587", "\"mail.example.com:587\" is not an smtp://host[:port] or smtps://host[:port] URL"),
        ("smtp://bot:hunter22@mail.example.com:587", "the SMTP URL must not hold credentials (give them in the environment)"),
    ])
    func otherURLsAreRefusedWithoutEchoingAPassword(server: String, message: String) {
        #expect(throws: SMTPError.self) { try SMTPClient.checkServer(server) }
        do {
            try SMTPClient.checkServer(server)
        } catch let error as SMTPError {
            #expect(error.message == message && error.kind == .usage)
            #expect(!error.description.contains("hunter22"))
        } catch {}
    }

    @Test func theReplyCodeIsReadFromLibcurlsMessage() {
        #expect(SMTPClient.replyCode(in: "RCPT failed: 550") == 550)
        #expect(SMTPClient.replyCode(in: "MAIL failed: 451") == 451)
        #expect(SMTPClient.replyCode(in: "Login denied") == nil)
        #expect(SMTPClient.replyCode(in: "RCPT failed: 25") == nil)
    }

    @Test func fourHundredsAreWorthRetryingFiveHundredsAreNot() {
        #expect(SMTPError(kind: .refused(451), message: "", server: "").isTransient)
        #expect(!SMTPError(kind: .refused(550), message: "", server: "").isTransient)
        #expect(!SMTPError(kind: .authentication, message: "", server: "").isTransient)
        #expect(SMTPError(kind: .connection, message: "", server: "").isTransient)
    }
}
