import CurlKit
import Foundation

/// Each notice as a plain-text e-mail to the debtor's address on file, submitted through an SMTP server (STARTTLS).
public struct EmailChannel: NoticeChannel {
    let client: SMTPClient
    /// The envelope sender and From address.
    let from: String
    let subject: String
    let clock: @Sendable () -> Date

    /// `from` must be a plain address (`notices@example.com`); checked by `MailAddress.isValid`.
    public init(client: SMTPClient, from: String, subject: String, clock: @escaping @Sendable () -> Date = { Date() }) {
        self.client = client; self.from = from; self.subject = subject; self.clock = clock
    }

    public var name: String { "email" }

    /// The server as `scheme://host[:port]` (the URL never holds credentials): a trailing slash or another spelling of
    /// the same server does not make every notice new again.
    public var summary: String {
        guard let url = URL(string: client.settings.server), let scheme = url.scheme, let host = url.host else {
            return client.settings.server
        }
        return "\(scheme.lowercased())://\(host.lowercased())" + (url.port.map { ":\($0)" } ?? "")
    }

    public func route(_ notice: Notice) -> NoticeRouting {
        guard let email = notice.person.email?.trimmingCharacters(in: .whitespaces), !email.isEmpty else {
            return .notSendable("no e-mail address on file")
        }
        guard MailAddress.isValid(email) else {
            return .notSendable("the e-mail address on file \"\(MailAddress.printable(email))\" is not a usable address")
        }
        return .to([NoticeDestination(recorded: "\(email) via \(summary)", address: email)])
    }

    public func deliver(_ notice: Notice, to destination: NoticeDestination) throws -> Int {
        let message = MailMessage(from: from, to: destination.address, toName: notice.person.name, subject: subject,
                                  body: notice.text, date: clock(), contentHash: notice.contentHash)
        do {
            return try client.send(from: from, to: [destination.address], message: message.bytes)
        } catch let error as SMTPError {
            throw DeliveryFailure("\(destination.address): \(error.description)", transient: error.isTransient)
        }
    }
}

/// What an address must look like to go into an SMTP envelope and a header unquoted.
public enum MailAddress {
    /// `local@domain.tld`: printable ASCII, no spaces, brackets, quotes, commas or line breaks (which would change
    /// the envelope or the headers), one `@`, a dot in the domain.
    public static func isValid(_ address: String) -> Bool {
        let forbidden = Set("<>()[]\\,;:\" ")
        guard address.unicodeScalars.allSatisfy({ (33...126).contains($0.value) }),
              !address.contains(where: { forbidden.contains($0) }), address.count <= 254 else { return false }
        let parts = address.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[1].contains("."), !parts[1].hasPrefix("."),
              !parts[1].hasSuffix(".") else { return false }
        return true
    }

    /// The address for a one-line message: control characters shown as `?`.
    static func printable(_ address: String) -> String {
        String(address.unicodeScalars.map { $0.value < 32 || $0.value == 127 ? "?" : Character($0) })
    }
}

/// An RFC 5322 message: plain text in UTF-8, quoted-printable, CRLF line ends.
struct MailMessage {
    var from: String
    var to: String
    var toName: String?
    var subject: String
    var body: String
    var date: Date
    var contentHash: String

    /// The whole message as submitted in DATA.
    var bytes: [UInt8] {
        let domain = from.split(separator: "@").last.map(String.init) ?? "ownerdash.invalid"
        let headers = [
            "From: \(from)",
            "To: " + (toName.map { "\(Self.displayName($0)) <\(to)>" } ?? to),
            "Subject: \(Self.headerText(subject))",
            "Date: \(Self.rfc5322Date(date))",
            "Message-ID: <\(contentHash.prefix(24)).\(Int(date.timeIntervalSince1970))@\(domain)>",
            "MIME-Version: 1.0",
            "Content-Type: text/plain; charset=utf-8",
            "Content-Transfer-Encoding: quoted-printable",
        ]
        return Array((headers.joined(separator: "\r\n") + "\r\n\r\n" + Self.quotedPrintable(body)).utf8)
    }

    /// A display name: a quoted string when ASCII ("Lee, Ann" needs the quotes), else an RFC 2047 encoded word.
    static func displayName(_ name: String) -> String {
        let clean = name.replacingOccurrences(of: "\r", with: " ").replacingOccurrences(of: "\n", with: " ")
        if clean.unicodeScalars.allSatisfy({ (32...126).contains($0.value) }) {
            return "\"" + clean.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        }
        return "=?utf-8?B?\(Data(clean.utf8).base64EncodedString())?="
    }

    /// Header text on one line: ASCII as is, anything else as an RFC 2047 encoded word.
    static func headerText(_ text: String) -> String {
        let clean = text.replacingOccurrences(of: "\r", with: " ").replacingOccurrences(of: "\n", with: " ")
        if clean.unicodeScalars.allSatisfy({ (32...126).contains($0.value) }) { return clean }
        return "=?utf-8?B?\(Data(clean.utf8).base64EncodedString())?="
    }

    static func rfc5322Date(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss '+0000'"
        return formatter.string(from: date)
    }

    /// RFC 2045 quoted-printable of UTF-8 text, lines ended with CRLF, soft breaks keeping lines within 76 characters.
    static func quotedPrintable(_ text: String) -> String {
        var out = ""
        let lines = text.replacingOccurrences(of: "\r\n", with: "\n").split(separator: "\n", omittingEmptySubsequences: false)
        for (index, line) in lines.enumerated() {
            var current = ""
            let bytes = Array(line.utf8)
            for (position, byte) in bytes.enumerated() {
                let last = position == bytes.count - 1
                let literal = (33...126).contains(byte) && byte != UInt8(ascii: "=")
                    || ((byte == 32 || byte == 9) && !last)  // trailing whitespace would be stripped in transit
                let piece = literal ? String(UnicodeScalar(byte)) : String(format: "=%02X", byte)
                if current.count + piece.count > 75 {
                    out += current + "=\r\n"
                    current = ""
                }
                current += piece
            }
            out += current
            if index < lines.count - 1 { out += "\r\n" }
        }
        return out
    }
}
