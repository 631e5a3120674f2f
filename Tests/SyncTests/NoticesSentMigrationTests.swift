import Foundation
import SQLiteKit
import Sync
import Testing

/// Unified migration 43: notices_sent rebuilt to take the e-mail and Telegram channels, every earlier record kept.
@Suite struct NoticesSentMigrationTests {
    @Test func webhookRecordsSurviveAndTheNewChannelsAreAccepted() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("notices-\(UUID().uuidString).db").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let database = try Database(path: path)
        try database.migrate(UnifiedSchema.migrations.filter { $0.version < 43 })
        try database.execute("""
            INSERT INTO notices_sent (debtor_key, properties, resident_ids, total, content_hash, channel, destination,
                                      sent_at, http_status, attempts)
            VALUES ('email:a@example.com', 'p', 'p/t1', 10, 'abc', 'webhook', 'https://hooks.example/n', '2026-11-20T00:00:00Z', 200, 3)
            """)
        #expect(throws: SQLiteError.self, "before 43 only the webhook channel exists") {
            try database.execute("""
                INSERT INTO notices_sent (debtor_key, properties, resident_ids, total, content_hash, channel, destination, sent_at, attempts)
                VALUES ('email:a@example.com', 'p', 'p/t1', 10, 'abc', 'email', 'a@example.com via smtp://m:587', 'x', 1)
                """)
        }
        try database.migrate(UnifiedSchema.migrations)
        #expect(try database.query("SELECT debtor_key, channel, destination, http_status, attempts FROM notices_sent")
            .map { [$0[0].textValue, $0[1].textValue, $0[2].textValue, $0[3].integerValue.map(String.init), $0[4].integerValue.map(String.init)] }
            == [["email:a@example.com", "webhook", "https://hooks.example/n", "200", "3"]])
        for channel in ["email", "telegram"] {
            try database.execute("""
                INSERT INTO notices_sent (debtor_key, properties, resident_ids, total, content_hash, channel, destination, sent_at, attempts)
                VALUES ('email:a@example.com', 'p', 'p/t1', 10, 'abc', '\(channel)', '\(channel) destination', 'x', 1)
                """)
        }
        #expect(throws: SQLiteError.self, "still a closed list") {
            try database.execute("""
                INSERT INTO notices_sent (debtor_key, properties, resident_ids, total, content_hash, channel, destination, sent_at, attempts)
                VALUES ('email:a@example.com', 'p', 'p/t1', 10, 'abc', 'fax', 'x', 'x', 1)
                """)
        }
        #expect(try database.scalar("SELECT count(*) FROM notices_sent")?.integerValue == 3)
        #expect(try database.scalar("SELECT count(*) FROM sqlite_master WHERE name = 'notices_sent_by_time'")?.integerValue == 1)
    }
}
