import Foundation
import PostgresTestSupport
import SimulatorSupport
import Testing

/// The delinquency forecast with the unified data on PostgreSQL: a model trained on the server's data, or moved there
/// with `publish`, is the model every reader on any host scores with, and `forecast delinquency` and the debtors
/// report's risk column answer byte for byte as they do from the unified.db holding the same model.
@Suite struct ForecastPostgresTests {
    /// `forecast delinquency` and `report debtors` (whose risk column shows only once a model passed its backtest), as
    /// JSON, and the debtors' units as CSV (the household's risk).
    static let answers: [[String]] = [
        ["forecast", "delinquency", "--format", "json"],
        ["forecast", "delinquency", "--format", "csv", "--table", "properties"],
        ["report", "debtors", "--format", "json"],
        ["report", "debtors", "--format", "csv", "--table", "units"],
    ]

    /// Each answer from `data`'s unified.db and from a host that has nothing but `--database-url` are the same bytes.
    static func expectTheSameAnswers(_ data: DataDir, _ reader: DataDir, server: String, _ moment: String) throws {
        for arguments in answers {
            let local = try OwnerDash.run(arguments + ["--data-dir", data.path])
            let remote = try OwnerDash.run(arguments + ["--data-dir", reader.path, "--database-url", server])
            let shown = "\(moment): \(arguments.joined(separator: " "))"
            #expect(local.status == 0 && !local.stdout.isEmpty, "\(shown) on SQLite: \(local.stderr)")
            #expect(remote.status == 0, "\(shown) on PostgreSQL: exit \(remote.status): \(remote.stderr)")
            let difference = TextDifference.first(local.stdout, remote.stdout)
            #expect(difference == nil, "\(shown): the answer from PostgreSQL differs from SQLite's at \(difference ?? "")")
        }
    }

    @Test func aModelOnTheServerGivesEveryReaderTheSQLiteAnswers() throws {
        // Households that pay late but catch up: the forecast passes its backtest, so the risk column is shown.
        let data = try ForecastCommandTests.ledger(latePayers: true)
        let train = try OwnerDash.run(["forecast", "train", "--backtest", "--data-dir", data.path])
        #expect(train.status == 0 && train.stdout.contains(": passes\n"), "\(train.stdout)\(train.stderr)")
        let debtors = try OwnerDash.run(["report", "debtors", "--format", "csv", "--table", "units", "--data-dir", data.path])
        #expect(debtors.stdout.split(separator: "\n").first?.hasSuffix(",risk_next_month_pct") == true,
                "the risk column is there to compare: \(debtors.stdout.prefix(300))")

        // Moved with publish: the unified.db's model goes along while the server has none.
        let server = try TestPostgres.freshDatabase("forecast").uri
        let publish = try OwnerDash.run(["publish", "--data-dir", data.path, "--database-url", server])
        #expect(publish.status == 0, "\(publish.stderr)")
        #expect(publish.stdout.contains("published 1 forecast model(s)"), "\(publish.stdout)")
        let reader = DataDir()
        try Self.expectTheSameAnswers(data, reader, server: server, "after publish")

        // Trained on the server's data by another host (which has no unified.db of its own): it learns from the
        // same household month ends as the training on unified.db did, and stores model 2 on the server.
        let trainer = DataDir()
        let remote = try OwnerDash.run(["forecast", "train", "--backtest", "--data-dir", trainer.path, "--database-url", server])
        #expect(remote.status == 0, "\(remote.stderr)")
        let lines = remote.stdout.split(separator: "\n")
        let localLines = train.stdout.split(separator: "\n")
        #expect(lines.first == localLines.first.map { "model 2" + $0.dropFirst("model 1".count) }, "\(remote.stdout)")
        #expect(lines.dropFirst().first == localLines.dropFirst().first, "the same window and features: \(remote.stdout)")
        #expect(remote.stdout.contains(": passes\n"), "\(remote.stdout)")

        // A reader on the server now scores with model 2; unified.db holding that same model (copied from the
        // trainer's mirror) answers the same bytes.
        let json = try OwnerDash.run(["forecast", "delinquency", "--format", "json", "--data-dir", reader.path, "--database-url", server])
        #expect(json.stdout.contains("\"model_id\": 2"), "\(json.stdout.prefix(600))")
        let mirror = trainer.url.appendingPathComponent("postgres-mirror/unified.db").path
        try DebtorsCommandTests.execute(data, """
            ATTACH DATABASE '\(mirror)' AS server;
            DELETE FROM forecast_models;
            INSERT INTO forecast_models SELECT * FROM server.forecast_models;
            """)
        try Self.expectTheSameAnswers(data, reader, server: server, "after forecast train --database-url")

        // Publishing unified.db again after it trained a model of its own keeps the server's models: they were
        // trained there, and a moved file must not take them back.
        #expect(try OwnerDash.run(["forecast", "train", "--data-dir", data.path]).stdout.hasPrefix("model 3: "))
        let again = try OwnerDash.run(["publish", "--data-dir", data.path, "--database-url", server])
        #expect(again.status == 0 && again.stdout.contains("were not sent: the server holds models of its own"), "\(again.stdout)\(again.stderr)")
        let kept = try OwnerDash.run(["forecast", "delinquency", "--format", "json", "--data-dir", reader.path, "--database-url", server])
        #expect(kept.stdout.contains("\"model_id\": 2"), "\(kept.stdout.prefix(600))")
    }
}
