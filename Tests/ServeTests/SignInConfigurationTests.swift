import Foundation
import SimulatorSupport
import Testing
@testable import Serve

/// Sign-in settings from report_definitions.json's `serve.oidc`, the environment overriding it, secrets only by
/// reference.
@Suite struct SignInConfigurationTests {
    /// Removed with the test's instance.
    let scratch: ScratchDirectory
    var directory: URL { scratch.url }
    let key = "q83vEjRWeJq83vEjRWeJq83vEjRWeJq83vEjRWeJq80="

    init() throws {
        scratch = try ScratchDirectory(prefix: "signin-config")
    }

    /// A configuration file with `oidc` as its serve.oidc section, beside the registry's other fields.
    private func config(_ oidc: String) throws -> String {
        let path = directory.appendingPathComponent("report_definitions.json").path
        try "{\"pmc_id\": \"1\", \"properties\": [], \"serve\": {\"oidc\": \(oidc)}}".write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// A secret file with the given permissions.
    private func secret(_ name: String, _ text: String, mode: Int = 0o600) throws -> String {
        let path = directory.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
        return path
    }

    private func problems(_ result: Result<SignInSettings, SignInConfigurationError>) -> [String] {
        if case .failure(let error) = result { return error.problems }
        return []
    }

    @Test func everySettingFromTheFileWithSecretsByReference() throws {
        let keyFile = try secret("cookie.key", key + "\n")
        let secretFile = try secret("client-secret", "s3cret\n")
        let path = try config("""
            {"issuer": "https://idp.example.com/pool", "client_id": "dash", "redirect_uri": "https://dash.example.com/auth/callback",
             "client_secret_file": "\(secretFile)", "cookie_key_file": "\(keyFile)", "clock_skew_seconds": 30, "session_hours": 12}
            """)
        let settings = try SignInConfiguration.resolve(environment: [:], configPath: path).get()
        #expect(settings.issuer == "https://idp.example.com/pool")
        #expect(settings.clientID == "dash")
        #expect(settings.redirectURL == "https://dash.example.com/auth/callback")
        #expect(settings.clientSecret == "s3cret")
        #expect(settings.cookieKey.count == 32)
        #expect(settings.skewSeconds == 30 && settings.sessionSeconds == 12 * 3600)
        #expect(settings.secureCookies)
        #expect(settings.origins["issuer"] == "serve.oidc.issuer in \(path)")
        #expect(settings.origins["cookie_key"] == "serve.oidc.cookie_key_file in \(path) (\(keyFile))")
        #expect(!settings.origins.values.contains { $0.contains("s3cret") || $0.contains(key) })
    }

    @Test func theEnvironmentOverridesTheFile() throws {
        let keyFile = try secret("cookie.key", key)
        let path = try config("""
            {"issuer": "https://idp.example.com/pool", "client_id": "dash", "redirect_uri": "https://dash.example.com/auth/callback",
             "client_secret_env": "MY_SECRET", "cookie_key_file": "\(keyFile)"}
            """)
        let environment = ["OWNERDASH_OIDC_CLIENT_ID": "other", "MY_SECRET": "from-env",
                           "OWNERDASH_OIDC_REDIRECT_URL": "http://127.0.0.1:8080/auth/callback"]
        let settings = try SignInConfiguration.resolve(environment: environment, configPath: path).get()
        #expect(settings.clientID == "other")
        #expect(settings.origins["client_id"] == "OWNERDASH_OIDC_CLIENT_ID")
        #expect(settings.issuer == "https://idp.example.com/pool")
        #expect(settings.clientSecret == "from-env")
        #expect(settings.origins["client_secret"] == "MY_SECRET (serve.oidc.client_secret_env)")
        #expect(!settings.secureCookies)   // a plain-http redirect (loopback trial)
        let upper = try SignInConfiguration.resolve(
            environment: environment.merging(["OWNERDASH_OIDC_REDIRECT_URL": "HTTPS://dash.example.com/auth/callback"]) { $1 },
            configPath: path).get()
        #expect(upper.secureCookies)   // the scheme is case-insensitive: still https
        // The environment's own secret wins over the file's reference.
        let direct = try SignInConfiguration.resolve(environment: environment.merging(["OWNERDASH_OIDC_CLIENT_SECRET": "direct"]) { $1 },
                                                     configPath: path).get()
        #expect(direct.clientSecret == "direct")
    }

    @Test func secretsInTheFileAreRefusedOneLineEach() throws {
        let open = try secret("open.key", key, mode: 0o644)
        let path = try config("""
            {"issuer": "http://idp.example.com", "client_id": "dash", "redirect_uri": "https://dash.example.com/callback",
             "client_secret": "oops", "cookie_key_file": "\(open)", "clock_skew_seconds": 900, "colour": "blue"}
            """)
        let lines = problems(SignInConfiguration.resolve(environment: [:], configPath: path))
        #expect(lines.contains { $0.hasPrefix("\(path): serve.oidc.client_secret: a secret never goes in the configuration file") })
        #expect(lines.contains { $0.contains("serve.oidc.colour: unknown setting") })
        #expect(lines.contains("serve.oidc.issuer in \(path) must be an https URL"))
        #expect(lines.contains("serve.oidc.redirect_uri in \(path) must end with /auth/callback"))
        #expect(lines.contains("\(path): serve.oidc.clock_skew_seconds must be a whole number from 0 to 300"))
        #expect(lines.contains { $0.contains("\(open) is readable by every user; chmod 600 it (it holds the cookie key)") })
        #expect(lines.count == 6, "\(lines)")
        #expect(!lines.joined().contains("oops"))
    }

    @Test func nothingSetNamesBothPlaces() throws {
        let path = try config("{}")
        let lines = problems(SignInConfiguration.resolve(environment: ["OWNERDASH_COOKIE_KEY_FILE": "/nonexistent/key"], configPath: path))
        #expect(lines.contains("OWNERDASH_OIDC_ISSUER is not set, nor serve.oidc.issuer in \(path) (the provider's issuer URL)"))
        #expect(lines.contains { $0.hasPrefix("OWNERDASH_OIDC_CLIENT_ID is not set, nor serve.oidc.client_id") })
        #expect(lines.contains { $0.hasPrefix("OWNERDASH_OIDC_REDIRECT_URL is not set, nor serve.oidc.redirect_uri") })
        #expect(lines.contains("OWNERDASH_COOKIE_KEY_FILE: cannot read /nonexistent/key (the cookie key)"))
        #expect(lines.count == 4, "\(lines)")
        // No file at the default path is no problem; a file named with --config that is missing is one.
        let missing = directory.appendingPathComponent("none.json").path
        #expect(!problems(SignInConfiguration.resolve(environment: [:], configPath: missing))
            .contains("\(missing): cannot read the configuration file"))
        #expect(problems(SignInConfiguration.resolve(environment: [:], configPath: missing, configRequired: true))
            .contains("\(missing): cannot read the configuration file"))
    }
}
