import Foundation
import Testing

/// A damaged HTML export through the built binary: libxml2 writes nothing of its own to stderr (its messages go
/// into the one error line), and the file is refused as damaged, not called a login page.
@Suite struct DamagedHTMLCommandTests {
    /// windows-1252 leaves 0x81 and 0x8D undefined: libxml2's conversion fails there and drops the rest of the page.
    static func damagedPage() throws -> (path: String, data: DataDir) {
        let data = DataDir()
        try FileManager.default.createDirectory(at: data.url, withIntermediateDirectories: true)
        let bytes = Array("<html><head><meta http-equiv=\"Content-Type\" content=\"text/html; charset=windows-1252\"><title>Sign In</title></head><body><p>Caf".utf8)
            + [0x81, 0x20, 0x8D] + Array("</p><table><tr><td>Unit</td><td>Name</td></tr><tr><td>101</td><td>Smith</td></tr></table></body></html>".utf8)
        let path = data.url.appendingPathComponent("rent_roll.xls").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return (path, data)
    }

    static let reason = "HTML: the page is damaged: its bytes are not valid in the encoding it declares, and the rest of it could not be read (input conversion failed due to input error, bytes 0x81 0x20 0x8D 0x3C)"

    @Test func sheetDumpPrintsOneLineAndNothingFromLibxml2() throws {
        let (path, data) = try Self.damagedPage()
        _ = data
        let result = try OwnerDash.run(["sheet", "dump", path])
        #expect(result.status == 3, "\(result.stderr)")
        #expect(result.stderrLines == ["\(path): error: \(Self.reason)"])
        #expect(!result.stderr.contains("encoding error"))
        #expect(!result.stderr.contains("login"))
        #expect(result.stdout.isEmpty)
    }

    @Test func loadPrintsTheFileLineAndTheRunLineOnly() throws {
        let (path, data) = try Self.damagedPage()
        let result = try OwnerDash.run(["load", path, "--data-dir", data.url.appendingPathComponent("db").path])
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderrLines == ["\(path): error: \(Self.reason)", "error: 1 of 1 file(s) failed: \(path)"])
    }
}
