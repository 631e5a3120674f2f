import Foundation
import Testing
@testable import Fetch

/// A class: each test's credentials directory is removed when its instance goes (the files hold test secrets, and
/// /tmp kept one directory per run of the suite).
@Suite final class CredentialsTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("creds-\(UUID().uuidString)")

    deinit { try? FileManager.default.removeItem(at: directory) }

    /// A credentials file with the given mode in the test's own directory.
    func file(_ json: String, mode: mode_t) throws -> String {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("credentials.json").path
        try Data(json.utf8).write(to: URL(fileURLWithPath: path))
        chmod(path, mode)
        return path
    }

    let yardi = """
        {"YARDI_USERNAME": "file-user", "YARDI_PASSWORD": "file-password-1", "YARDI_SERVER_NAME": "sql01",
         "YARDI_DATABASE": "voyager", "YARDI_INTERFACE_ENTITY": "OwnerDash", "YARDI_INTERFACE_LICENSE": "shared-license-1",
         "YARDI_INTERFACE_LICENSE_ITFILSGUESTCARD": "guest-card-license-1"}
        """

    @Test func aFileOthersCanReadIsRefusedWithTheChmodToRun() throws {
        let path = try file(yardi, mode: 0o644)
        #expect {
            try Credentials(environment: [Credentials.fileVariable: path])
        } throws: {
            "\($0)" == "credentials file \(path) has mode 0644; it must be readable by its owner only (0600): run chmod 600 \(path)"
        }
    }

    @Test func theEnvironmentWinsOverTheFileAndInterfacesMayHaveTheirOwnLicense() throws {
        let path = try file(yardi, mode: 0o600)
        let credentials = try Credentials(environment: [Credentials.fileVariable: path, "YARDI_PASSWORD": "env-password-1"])
        let residentData = try credentials.yardiLogin(interface: "ItfResidentData")
        #expect(residentData.username == "file-user" && residentData.password == "env-password-1")
        #expect(residentData.platform == "SQL Server")
        #expect(residentData.interfaceLicense == "shared-license-1")
        #expect(try credentials.yardiLogin(interface: "ItfILSGuestCard").interfaceLicense == "guest-card-license-1")
        let redacted = credentials.redactor.redact("env-password-1 shared-license-1 guest-card-license-1 sql01")
        #expect(redacted == "*** *** *** sql01")
    }

    @Test func missingVariablesAreNamedNeverTheirValues() throws {
        let credentials = Credentials(values: ["YARDI_USERNAME": "someone", "YARDI_PASSWORD": "hunter2hunter2"])
        #expect {
            try credentials.yardiLogin(interface: "ItfResidentData")
        } throws: { error in
            let text = "\(error)"
            return text.contains("YARDI_SERVER_NAME, YARDI_DATABASE, YARDI_INTERFACE_ENTITY (or YARDI_INTERFACE_ENTITY_ITFRESIDENTDATA)")
                && !text.contains("hunter2")
        }
    }

    @Test func aFileThatIsNotJSONIsRefusedWithoutQuotingIt() throws {
        let path = try file("YARDI_PASSWORD=supersecret", mode: 0o600)
        #expect {
            try Credentials(environment: [Credentials.fileVariable: path])
        } throws: { "\($0)".contains("is not a JSON object") && !"\($0)".contains("supersecret") }
    }
}
