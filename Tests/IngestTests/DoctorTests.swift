import Foundation
import OwnerDashCore
import SimulatorSupport
import SQLiteKit
import Testing

/// `ownerdash doctor` on an installation that works, then with one thing broken at a time: each is one FAIL line
/// naming it and what to do, the rest still ok.
@Suite struct DoctorTests {
    /// The lines that start with `status`.
    static func lines(_ output: String, _ status: String) -> [String] {
        output.split(separator: "\n").map(String.init).filter { $0.hasPrefix(status + " ") }
    }

    @Test func aBrokenCredentialAFullDiskAndADamagedDatabaseAreOneLineEach() throws {
        let simulator = try PMSSimulator.shared.get()
        let directory = try DataDir()
        let ingest = try directory.ownerdash(["ingest", "--property", "nexus_east", "--property", "yp_riverwalk",
                                              "--as-of", PMSSimulator.asOf], environment: simulator.environment)
        #expect(ingest.status == 0, "\(ingest.stderr.suffix(800))")

        let healthy = try directory.ownerdash(["doctor"], environment: simulator.environment)
        #expect(healthy.status == 0, "\(healthy.stdout)\(healthy.stderr)")
        #expect(Self.lines(healthy.stdout, "FAIL").isEmpty, "\(healthy.stdout)")
        for check in ["configuration", "RealPage reports", "RealPage RPX", "Yardi", "data directory", "realpage_raw.db",
                      "yardi_raw.db", "unified.db", "last run"] {
            #expect(Self.lines(healthy.stdout, "ok").contains { $0.hasPrefix("ok    \(check): ") }, "\(check) ok: \(healthy.stdout)")
        }

        // unified.db as an earlier build made it, in 4 KiB pages: still ok, with a note saying how to convert it.
        let unifiedLine = { (output: String) in Self.lines(output, "ok").first { $0.hasPrefix("ok    unified.db: ") } ?? "" }
        #expect(!unifiedLine(healthy.stdout).contains("KiB pages"), "\(healthy.stdout)")
        try Database(path: directory.data.unifiedDatabase)
            .execute("PRAGMA journal_mode = DELETE; PRAGMA page_size = 4096; VACUUM; PRAGMA journal_mode = WAL;")
        let earlier = try directory.ownerdash(["doctor", "--offline"])
        #expect(earlier.status == 0, "\(earlier.stdout)")
        #expect(unifiedLine(earlier.stdout).contains("in 4 KiB pages") && unifiedLine(earlier.stdout).contains("Upgrading"),
                "\(earlier.stdout)")

        // A wrong Yardi password: Yardi's line fails (the password never shown), the others stay ok.
        var wrong = simulator.environment
        wrong["YARDI_PASSWORD"] = "not-the-password"
        let credential = try directory.ownerdash(["doctor"], environment: wrong)
        #expect(credential.status == 2)
        let failures = Self.lines(credential.stdout, "FAIL")
        #expect(failures.count == 1 && failures.first?.hasPrefix("FAIL  Yardi: ") == true, "\(credential.stdout)")
        #expect(failures.first?.contains("Login failed") == true, "\(failures)")
        #expect(!credential.stdout.contains("not-the-password") && !credential.stderr.contains("not-the-password"))

        // A disk too full for a night.
        let full = try directory.ownerdash(["doctor", "--offline", "--min-free", "1000T"])
        #expect(full.status == 2)
        #expect(Self.lines(full.stdout, "FAIL") .count == 1 && Self.lines(full.stdout, "FAIL")[0].contains("data directory: ")
                && Self.lines(full.stdout, "FAIL")[0].contains("a night needs"), "\(full.stdout)")

        // A damaged database: yardi_raw.db's pages overwritten in the middle.
        let path = directory.data.yardiRawDatabase
        let handle = try #require(FileHandle(forUpdatingAtPath: path))
        let size = try handle.seekToEnd()
        try handle.seek(toOffset: 4096)
        handle.write(Data(repeating: 0x5A, count: Int(min(size - 8192, 65_536))))
        try handle.close()
        let damaged = try directory.ownerdash(["doctor", "--offline"])
        #expect(damaged.status == 2)
        let broken = Self.lines(damaged.stdout, "FAIL")
        #expect(broken.count == 1 && broken.first?.hasPrefix("FAIL  yardi_raw.db: ") == true, "\(damaged.stdout)")
        #expect(broken.first?.contains("restore it from a backup") == true)
    }
}
