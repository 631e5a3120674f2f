import Foundation
import PostgresTestSupport
import Testing

/// `ownerdash logins` as an operator runs it: the password only from a private file, never printed.
@Suite struct LoginsCommandTests {
    @Test func aLoginIsAddedListedAndRemovedAndItsPasswordNeverShows() throws {
        let server = try TestPostgres.freshDatabase("logins_cli")
        let directory = DataDir()
        try FileManager.default.createDirectory(at: directory.url, withIntermediateDirectories: true)
        let secret = directory.url.appendingPathComponent("bi.pw").path
        try "correct-horse-battery\n".write(toFile: secret, atomically: true, encoding: .utf8)
        let name = "bi_\(UUID().uuidString.prefix(6).lowercased())"
        let add = ["logins", "add", name, "--role", "manager", "--property", "nexus_east", "--password-file", secret,
                   "--database-url", server.uri, "--data-dir", directory.path]

        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: secret)
        let open = try OwnerDash.run(add)
        #expect(open.status == 1 && open.stderr.contains("chmod 600"), "\(open.stderr)")

        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: secret)
        let added = try OwnerDash.run(add)
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stdout == "\(name): manager of nexus_east on \(server.uri)\n")
        let list = try OwnerDash.run(["logins", "list", "--database-url", server.uri, "--data-dir", directory.path])
        #expect(list.stdout.contains("\(name)  manager  nexus_east"))
        for output in [open, added, list] { #expect(!(output.stdout + output.stderr).contains("correct-horse")) }

        let removed = try OwnerDash.run(["logins", "remove", name, "--database-url", server.uri, "--data-dir", directory.path])
        #expect(removed.status == 0 && removed.stdout.contains("removed"))
        let noServer = try OwnerDash.run(["logins", "list", "--data-dir", directory.path])
        #expect(noServer.status == 1 && noServer.stderr.contains("no server: give --database-url"), "\(noServer.stderr)")
    }
}
