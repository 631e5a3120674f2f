import CurlKit
import Foundation
import Testing

/// The built `ownerdash serve` and `ownerdash users` as an operator runs them.
@Suite struct ServeCommandTests {
    private func run(_ arguments: [String], environment: [String: String] = [:]) throws -> (status: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = ServeFixture.binary
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("OWNERDASH_") }.merging(environment) { $1 }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: outData, as: UTF8.self), String(decoding: errData, as: UTF8.self))
    }

    @Test func checkSaysWhatIsMissingOneLineEach() throws {
        let fixture = try ServeFixture()
        let result = try run(["serve", "--check", "--data-dir", fixture.directory.path],
                             environment: ["OWNERDASH_OIDC_ISSUER": "http://example.com", "OWNERDASH_COOKIE_KEY": "c2hvcnQ="])
        #expect(result.status == 1)
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.contains("error: ownerdash serve: OWNERDASH_OIDC_ISSUER must be an https URL"))
        #expect(lines.contains { $0.contains("OWNERDASH_OIDC_CLIENT_ID is not set") })
        #expect(lines.contains { $0.contains("OWNERDASH_OIDC_REDIRECT_URL is not set") })
        #expect(lines.contains { $0.contains("OWNERDASH_COOKIE_KEY must be at least 32 random bytes") })
        #expect(lines.contains { $0.contains("no users yet") })
    }

    @Test func checkReadsTheConfigurationFile() throws {
        let fixture = try ServeFixture()
        let provider = try TestProvider()
        let data = fixture.directory.path
        #expect(try run(["users", "add", "owner@example.com", "--role", "owner", "--data-dir", data]).status == 0)
        let keyFile = fixture.directory.appendingPathComponent("cookie.key").path
        try "q83vEjRWeJq83vEjRWeJq83vEjRWeJq83vEjRWeJq80=\n".write(toFile: keyFile, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: keyFile)
        let config = fixture.directory.appendingPathComponent("report_definitions.json").path
        try """
            {"pmc_id": "1", "properties": [], "serve": {"oidc": {"issuer": "\(provider.issuer)", "client_id": "ownerdash",
             "redirect_uri": "http://127.0.0.1:8080/auth/callback", "cookie_key_file": "\(keyFile)"}}}
            """.write(toFile: config, atomically: true, encoding: .utf8)
        let check = try run(["serve", "--check", "--config", config, "--data-dir", data])
        #expect(check.status == 0, "\(check.stderr)")
        #expect(check.stdout.contains("client ownerdash"))
        #expect(check.stdout.contains("  issuer: from serve.oidc.issuer in \(config)"))
        #expect(check.stdout.contains("  client_id: from OWNERDASH_OIDC_CLIENT_ID") == false)
        // The environment overrides the file, and --check says so.
        let overridden = try run(["serve", "--check", "--config", config, "--data-dir", data],
                                 environment: ["OWNERDASH_OIDC_CLIENT_ID": "someone-else"])
        #expect(overridden.stdout.contains("client someone-else") && overridden.stdout.contains("  client_id: from OWNERDASH_OIDC_CLIENT_ID"))
        // A --config that does not exist is a problem of its own line.
        let missing = try run(["serve", "--check", "--config", config + ".nope", "--data-dir", data])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("error: ownerdash serve: \(config).nope: cannot read the configuration file"))
    }

    @Test func servesBehindSignInUntilSIGTERM() throws {
        let fixture = try ServeFixture()
        let provider = try TestProvider()
        let data = fixture.directory.path
        #expect(try run(["users", "add", "owner@example.com", "--role", "owner", "--data-dir", data]).status == 0)
        let secret = "test-secret"
        let environment = [
            "OWNERDASH_OIDC_ISSUER": provider.issuer, "OWNERDASH_OIDC_CLIENT_ID": "ownerdash",
            "OWNERDASH_OIDC_CLIENT_SECRET": secret, "OWNERDASH_OIDC_REDIRECT_URL": "http://127.0.0.1:8080/auth/callback",
            "OWNERDASH_COOKIE_KEY": "q83vEjRWeJq83vEjRWeJq83vEjRWeJq83vEjRWeJq80=",
        ]
        let check = try run(["serve", "--check", "--data-dir", data], environment: environment)
        #expect(check.status == 0, "\(check.stderr)")
        #expect(check.stdout.contains("client ownerdash"))
        #expect(!check.stdout.contains(secret) && !check.stderr.contains(secret))

        let process = Process()
        process.executableURL = ServeFixture.binary
        process.arguments = ["serve", "--listen", "127.0.0.1:0", "--data-dir", data]
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = err.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        let text = String(decoding: line, as: UTF8.self)
        let port = try #require(text.components(separatedBy: "http://127.0.0.1:").dropFirst().first?.prefix { $0.isNumber })
        let http = HTTPClient()
        #expect(try http.send(HTTPRequest(url: "http://127.0.0.1:\(port)/healthz")).status == 200)
        #expect(try http.send(HTTPRequest(url: "http://127.0.0.1:\(port)/api/v2/properties")).status == 401)
        let token = try provider.token("valid")
        let answer = try http.send(HTTPRequest(url: "http://127.0.0.1:\(port)/api/v2/properties/yp/summary",
                                               headers: [("Authorization", "Bearer \(token)")]))
        #expect(answer.status == 200)
        #expect(answer.bodyText == (try fixture.cli(["query", "summary", "--property", "yp", "--format", "json"])))
        process.terminate()   // SIGTERM
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let rest = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(!(text + rest).contains(secret))
        #expect(!(text + rest).contains(environment["OWNERDASH_COOKIE_KEY"] ?? "-"))
    }
}
