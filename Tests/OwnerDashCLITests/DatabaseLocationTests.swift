import Foundation
import OwnerDashCore
import Testing
@testable import OwnerDashCLI

/// Where the unified data lives (`--database-url`, `OWNERDASH_DATABASE_URL`, the configuration's `database_url`) and
/// where its password may come from: never the configuration file itself, never printed.
@Suite struct DatabaseLocationTests {
    let directory = DataDir()

    func config(_ object: [String: Any]) throws -> String {
        try FileManager.default.createDirectory(at: directory.url, withIntermediateDirectories: true)
        let path = directory.url.appendingPathComponent("config-\(UUID().uuidString).json").path
        try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func theOptionWinsOverTheEnvironmentWhichWinsOverTheFile() throws {
        let path = try config(["database_url": "postgresql://file@db/portfolio"])
        let fromFile = try DatabaseLocation.resolve(option: nil, environment: [:], configPath: path, configNamed: true)
        #expect(fromFile?.uri == "postgresql://file@db/portfolio")
        let fromEnvironment = try DatabaseLocation.resolve(option: nil, environment: ["OWNERDASH_DATABASE_URL": "postgresql://env@db/p"],
                                                           configPath: path, configNamed: true)
        #expect(fromEnvironment?.uri == "postgresql://env@db/p")
        let fromOption = try DatabaseLocation.resolve(option: "postgresql://opt@db/p", environment: ["OWNERDASH_DATABASE_URL": "postgresql://env@db/p"],
                                                      configPath: path, configNamed: true)
        #expect(fromOption?.uri == "postgresql://opt@db/p")
        // None of them: unified.db, and a default configuration that is absent is no problem.
        #expect(try DatabaseLocation.resolve(option: nil, environment: [:], configPath: "/nonexistent/report_definitions.json", configNamed: false) == nil)
        #expect(throws: ConfigurationError.self) {
            try DatabaseLocation.resolve(option: "mysql://db/p", environment: [:], configPath: path, configNamed: true)
        }
    }

    @Test func aPasswordInTheConfigurationFileIsRefusedSayingWhereItGoes() throws {
        for document: [String: Any] in [["database_url": "postgresql://owner:hunter2@db/portfolio"],
                                        ["database_url": "postgresql://owner@db/portfolio", "database_password": "hunter2"]] {
            let path = try config(document)
            do {
                _ = try DatabaseLocation.resolve(option: nil, environment: [:], configPath: path, configNamed: true)
                Issue.record("accepted a password in \(document)")
            } catch {
                #expect("\(error)".contains("database_password_file") && !"\(error)".contains("hunter2"), "\(error)")
            }
        }
    }

    @Test func thePasswordComesFromAPrivateFileOrANamedVariableAndIsNeverPrinted() throws {
        let secret = directory.url.appendingPathComponent("db-password").path
        try FileManager.default.createDirectory(at: directory.url, withIntermediateDirectories: true)
        try "s3cret-from-file\n".write(toFile: secret, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: secret)
        let path = try config(["database_url": "postgresql://owner@db/portfolio", "database_password_file": secret])
        let url = try #require(try DatabaseLocation.resolve(option: nil, environment: [:], configPath: path, configNamed: true))
        #expect(url.password == "s3cret-from-file")
        #expect(!url.description.contains("s3cret"))

        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: secret)
        do {
            _ = try DatabaseLocation.resolve(option: nil, environment: [:], configPath: path, configNamed: true)
            Issue.record("accepted a password file every user can read")
        } catch {
            #expect("\(error)".contains("chmod 600"))
        }

        let byName = try config(["database_url": "postgresql://owner@db/portfolio", "database_password_env": "PORTFOLIO_DB_PASSWORD"])
        let named = try DatabaseLocation.resolve(option: nil, environment: ["PORTFOLIO_DB_PASSWORD": "from-env"], configPath: byName, configNamed: true)
        #expect(named?.password == "from-env")
        do {
            _ = try DatabaseLocation.resolve(option: nil, environment: [:], configPath: byName, configNamed: true)
            Issue.record("accepted a variable that is not set")
        } catch {
            #expect("\(error)".contains("PORTFOLIO_DB_PASSWORD, which is not set"))
        }
        // A URL on the command line with its password in it is used, and shown without it.
        let given = try #require(try DatabaseLocation.resolve(option: "postgresql://owner:pw123@db/p", environment: [:],
                                                              configPath: "/nonexistent.json", configNamed: false))
        #expect(given.description == "postgresql://owner:***@db/p")
    }
}
