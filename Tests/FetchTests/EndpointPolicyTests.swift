import Foundation
import OwnerDashCore
import Testing
@testable import Fetch

/// Plain http:// carries the credentials in clear: only to this machine, or when the operator allows it.
@Suite struct EndpointPolicyTests {
    @Test func plainHTTPToAnotherHostIsRefusedUnlessAllowed() throws {
        #expect { try EndpointPolicy.requireSecure("http://gateway.example.com/rpx.svc", what: "RPX endpoint", environment: [:]) }
            throws: { "\($0)" == "RPX endpoint is plain http:// to gateway.example.com: credentials would travel in clear; use https://, or set OWNERDASH_ALLOW_INSECURE_HTTP=1 to allow it" }
        try EndpointPolicy.requireSecure("http://gateway.example.com/rpx.svc", what: "RPX endpoint",
                                         environment: ["OWNERDASH_ALLOW_INSECURE_HTTP": "1"])
        try EndpointPolicy.requireSecure("https://gateway.example.com/rpx.svc", what: "RPX endpoint", environment: [:])
        for loopback in ["http://127.0.0.1:8080/x", "http://localhost/x", "http://[::1]:9/x"] {
            try EndpointPolicy.requireSecure(loopback, what: "endpoint", environment: [:])
        }
        #expect(throws: ConfigurationError.self) {
            try EndpointPolicy.requireSecure("http://localhost.evil.example/x", what: "endpoint", environment: [:])
        }
    }

    /// The fetch refuses before anything is sent: exit 1, the endpoint named.
    @Test func fetchRefusesAPlainHTTPYardiEndpoint() throws {
        let workspace = try Workspace()
        let result = try workspace.ownerdash(["fetch", "--pms", "yardi"], environment: [
            "OWNERDASH_YARDI_URL": "http://yardi.example.com/webservices", "YARDI_USERNAME": "u", "YARDI_PASSWORD": "p",
            "YARDI_SERVER_NAME": "s", "YARDI_DATABASE": "d", "YARDI_PLATFORM": "SQL Server", "YARDI_INTERFACE_ENTITY": "e",
            "YARDI_INTERFACE_LICENSE": "l"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("Yardi web-services URL (OWNERDASH_YARDI_URL or yardi.url) is plain http:// to yardi.example.com"), "\(result.stderr)")
    }
}
