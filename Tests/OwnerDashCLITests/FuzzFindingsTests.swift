import Foundation
import Testing

/// The inputs found by fuzzing (Tests/Fixtures/fuzz) through the built binary: `load` and `sheet dump` end with an
/// exit code below 128 (no abort, no SIGILL) and one error line naming the file.
@Suite struct FuzzFindingsCommandTests {
    static func fixture(_ name: String) -> String {
        OwnerDash.repository.appendingPathComponent("Tests/Fixtures/fuzz/\(name)").path
    }

    static let damaged: [(file: String, reason: String)] = [
        ("ole2-root-size-256GiB-abort.min.xls",
         "is a damaged legacy .xls (OLE2) file: the mini stream (Root Entry) declares 498222563437 bytes, more than the whole file holds (8322 bytes)"),
        ("ole2-root-size-4GiB-reserve.oom.xls",
         "is a damaged legacy .xls (OLE2) file: the mini stream (Root Entry) declares 4294967295 bytes, more than the whole file holds (5855 bytes)"),
        ("xls-biff-record-over-buffer.min.xls",
         "Workbook stream: FORMAT record at offset 0x4B4 declares 29728 bytes, more than a BIFF8 record holds (8,224; this reader takes up to 16,380)"),
    ]

    /// `load`: the file's line, then the run's last line listing the failed file; exit 2 (docs/operators.md, "Exit codes").
    @Test func loadRefusesEachWithOneLine() throws {
        let findings = Self.damaged + [("money-overflow-1e17.xlsx",
            "delinquency: sheet \"Delinquency\" row 7, column \"0-30\": \"1e+17\" is not a money amount within $10,000,000,000 either way")]
        for (file, reason) in findings {
            let data = DataDir()
            let path = Self.fixture(file)
            let result = try OwnerDash.run(["load", path, "--data-dir", data.path])
            #expect(result.status == 2, "\(file): \(result.stderr)")
            #expect(result.stderrLines == ["\(path): error: \(reason)", "error: 1 of 1 file(s) failed: \(path)"], "\(file)")
        }
    }

    /// `sheet dump` of a damaged file: nothing could be dumped, exit 3, one line.
    @Test func sheetDumpRefusesEachWithOneLine() throws {
        for (file, reason) in Self.damaged {
            let path = Self.fixture(file)
            let result = try OwnerDash.run(["sheet", "dump", path])
            #expect(result.status == 3, "\(file): \(result.stderr)")
            #expect(result.stderrLines == ["\(path): error: \(reason)"], "\(file)")
            #expect(result.stdout.isEmpty)
        }
    }

    /// The 1e17 cell is a valid spreadsheet number: `sheet dump` prints it.
    @Test func sheetDumpPrintsTheHugeNumber() throws {
        let result = try OwnerDash.run(["sheet", "dump", Self.fixture("money-overflow-1e17.xlsx")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains(",100000000000000000,"))
    }
}
