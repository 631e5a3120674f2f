import CurlKit
import Foundation

/// Each notice as a Telegram message (Bot API `sendMessage`) to the chat of the debtor's property: the property
/// manager's group, as the debt-monitoring bot OwnerDash replaces did.
///
/// The bot token is part of the request path (`/bot<token>/sendMessage`, the Bot API's only way) and nowhere else:
/// the client redacts it from every error, and what is recorded and printed is `telegram:<chat id>`.
public struct TelegramChannel: NoticeChannel {
    /// The Bot API's limit on a message's text.
    public static let maxTextLength = 4096

    let client: HTTPClient
    let apiBase: String
    let token: String
    /// Chat id per property registry key (`telegram_chat_id` in report_definitions.json).
    let chats: [String: String]
    /// `--telegram-chat`: every notice to this chat instead.
    let chat: String?

    /// `client` should redact `token` (see `redactingClient`).
    public init(token: String, apiBase: String = "https://api.telegram.org", chats: [String: String], chat: String?,
                client: HTTPClient) {
        self.token = token; self.apiBase = apiBase.hasSuffix("/") ? String(apiBase.dropLast()) : apiBase
        self.chats = chats; self.chat = chat; self.client = client
    }

    /// An HTTP client that replaces the token with `***` in every message and URL it reports.
    public static func redactingClient(token: String, settings: HTTPClientSettings = HTTPClientSettings()) -> HTTPClient {
        HTTPClient(settings: settings, redactor: Redactor(secrets: [token]))
    }

    public var name: String { "telegram" }

    public var summary: String { chat.map { "telegram:\($0)" } ?? "the Telegram chats of the properties" }

    public func route(_ notice: Notice) -> NoticeRouting {
        if let chat { return .to([NoticeDestination(recorded: "telegram:\(chat)", address: chat)]) }
        var found: [String] = []
        var missing: [String] = []
        for property in notice.person.properties {
            if let chat = chats[property], !chat.isEmpty {
                if !found.contains(chat) { found.append(chat) }
            } else {
                missing.append(property)
            }
        }
        guard !found.isEmpty else {
            return .notSendable("no Telegram chat for property \(missing.joined(separator: ", ")) "
                + "(set telegram_chat_id in report_definitions.json, or give --telegram-chat)")
        }
        return .to(found.map { NoticeDestination(recorded: "telegram:\($0)", address: $0) })
    }

    public func deliver(_ notice: Notice, to destination: NoticeDestination) throws -> Int {
        // Telegram counts UTF-16 code units.
        guard notice.text.utf16.count <= Self.maxTextLength else {
            throw DeliveryFailure("\(destination.recorded): the notice has \(notice.text.utf16.count) characters, more than "
                                  + "Telegram's \(Self.maxTextLength) per message (shorten the template)", transient: false)
        }
        // A numeric chat id goes as a number, a public @channel name as a string, as the Bot API takes them.
        let chatID: Any = Int64(destination.address).map { $0 as Any } ?? destination.address
        let body = (try? JSONSerialization.data(withJSONObject: ["chat_id": chatID, "text": notice.text], options: [.sortedKeys]))
            ?? Data()
        let request = HTTPRequest(method: "POST", url: "\(apiBase)/bot\(token)/sendMessage",
                                  headers: [("Content-Type", "application/json")], body: Array(body))
        let response: HTTPResponse
        do {
            response = try client.send(request)
        } catch let error as HTTPError {
            throw DeliveryFailure("\(destination.recorded): \(error.message)", transient: error.isTransient)
        }
        let answer = (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any]
        if (200...299).contains(response.status), answer?["ok"] as? Bool == true { return response.status }
        // {"ok": false, "error_code": 429, "description": "Too Many Requests: retry after 5",
        //  "parameters": {"retry_after": 5}}
        let code = (answer?["error_code"] as? Int) ?? response.status
        let description = (answer?["description"] as? String).map { client.redactor.redact($0) }
            ?? "HTTP \(response.status)"
        let retryAfter = ((answer?["parameters"] as? [String: Any])?["retry_after"] as? Double)
            ?? RetryPolicy.retryAfterSeconds(response.headers["retry-after"])
        throw DeliveryFailure("\(destination.recorded): Telegram refused the message: \(code) \(description)",
                              transient: code == 429 || (500...599).contains(code) || (500...599).contains(response.status),
                              retryAfter: retryAfter)
    }
}
