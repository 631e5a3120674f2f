import Foundation
import Testing

/// scripts/browser/serve_signin.py: headless Chromium signs in through the provider's form, sees the portfolio, checks
/// the portfolio and a property page at 390, 1,024 and 1,400 px for sideways scrolling (a screenshot each), pages,
/// sorts and searches the table, opens a property and filters its lease status by URL, resolves an audit exception, signs out (Debian's chromium, chromium-driver, python3-selenium; scripts/test.sh
/// installs them). Screenshots are kept in the temporary directory it names for a person to look at.
@Suite struct BrowserTests {
    static let available = FileManager.default.isExecutableFile(atPath: "/usr/bin/chromedriver")
        && FileManager.default.fileExists(atPath: "/usr/lib/python3/dist-packages/selenium")

    @Test(.enabled(if: available, "needs chromium-driver and python3-selenium")) func signInSeePortfolioFilterSignOut() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let shots = FileManager.default.temporaryDirectory.appendingPathComponent("serve-browser-\(UUID().uuidString)")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")   // Debian's, which has python3-selenium
        process.arguments = [root.appendingPathComponent("scripts/browser/serve_signin.py").path, ServeFixture.binary.path, shots.path]
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(message)")
        let widths = [390, 1024, 1400].flatMap { ["width-\($0)-portfolio.png", "width-\($0)-property.png"] }
        for shot in ["1-dashboard.png", "3-lease-status-filtered.png", "4-audit-resolved.png", "5-signed-out.png"] + widths {
            #expect(FileManager.default.fileExists(atPath: shots.appendingPathComponent(shot).path), "\(shot)")
        }
    }
}
