import CurlKit
import Foundation
@testable import OwnerDashCore
import SOAP
import Testing
@testable import Fetch

/// The landing zone's checks, without a server: what may land, what is refused and how it is said.
@Suite struct LandingZoneTests {
    let data: DataDirectory
    let landing: LandingZone

    init() throws {
        data = DataDirectory(root: FileManager.default.temporaryDirectory.appendingPathComponent("landing-\(UUID().uuidString)").path)
        landing = try LandingZone(dataDirectory: data, runID: RunID("20261120T000000Z-test"))
    }

    private func stage(_ bytes: [UInt8]) throws -> String {
        let path = try landing.stagingPath(pms: .realpage, property: "nexus_east", name: "rent_roll.xlsx")
        FileManager.default.createFile(atPath: path, contents: Data(bytes))
        return path
    }

    private var zipBytes: [UInt8] { [0x50, 0x4B, 0x03, 0x04] + [UInt8](repeating: 7, count: 900) }

    @Test func anHTMLErrorPageSentWithStatus200IsRefusedAndNeverLands() throws {
        let page = Array("<!DOCTYPE html><html><head><title>Session expired</title></head><body>\(String(repeating: "x", count: 600))</body></html>".utf8)
        let staged = try stage(page)
        // HTML may be a report (OneSite's HTML "Excel" exports); read, a page without a table is what it is.
        #expect(try LandingZone.check(staged: staged, status: 200, expected: .report) == page.count)
        #expect {
            _ = try RealPageReportClient.errorAsReport(at: staged)
        } throws: { error in
            "\(error)" == "the download is not a readable report (.xlsx, .xls, HTML or CSV): is an HTML page without "
                + "any table (titled \"Session expired\"): an error or login page, not a report"
        }
        landing.discard(staged: staged)
        let directory = (landing.runDirectory as NSString).appendingPathComponent("realpage/nexus_east")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).isEmpty)
    }

    @Test func aJSONBodyOrAnErrorStatusIsQuotedWithSecretsRedacted() throws {
        let json = try stage(Array(#"{"message": "token sim-token-abc123 is not allowed for site 5472172"}"#.utf8) + [UInt8](repeating: 0x20, count: 600))
        #expect {
            _ = try LandingZone.check(staged: json, status: 200, expected: .report)
        } throws: { "\($0)".hasPrefix("the server sent JSON instead of a report (.xlsx, .xls, HTML or CSV)") }
        let failed = try stage(Array(#"{"message": "An error has occurred for sim-token-abc123."}"#.utf8))
        #expect {
            _ = try LandingZone.check(staged: failed, status: 500, expected: .report,
                                      redactor: Redactor(secrets: ["sim-token-abc123"]))
        } throws: { "\($0)" == #"HTTP 500: {"message": "An error has occurred for ***."}"# }
    }

    @Test func aTinyZipIsTooSmallToBeAReport() throws {
        let staged = try stage([0x50, 0x4B, 0x03, 0x04, 0, 0, 0, 0])
        #expect {
            _ = try LandingZone.check(staged: staged, status: 200, expected: .report)
        } throws: { "\($0)" == "only 8 bytes, too small for a report (.xlsx, .xls, HTML or CSV) (a failed download?)" }
    }

    @Test func aCheckedFileLandsOnceWithItsDigestAndIsNeverReplaced() throws {
        let staged = try stage(zipBytes)
        #expect(try LandingZone.check(staged: staged, status: 200, expected: .report) == zipBytes.count)
        let landed = try landing.commit(staged: staged, pms: .realpage, property: "nexus_east", name: "rent_roll.xlsx")
        var digest = SHA256()
        digest.update(zipBytes)
        #expect(landed == LandedArtifact(relativePath: "realpage/nexus_east/rent_roll.xlsx", size: zipBytes.count,
                                         sha256: digest.finalizeHex()))
        #expect(!FileManager.default.fileExists(atPath: staged))

        let second = try stage(zipBytes.reversed())
        #expect(throws: LandingError.self) {
            _ = try landing.commit(staged: second, pms: .realpage, property: "nexus_east", name: "rent_roll.xlsx")
        }
        let target = (landing.runDirectory as NSString).appendingPathComponent(landed.relativePath)
        #expect(FileManager.default.contents(atPath: target) == Data(zipBytes))
    }

    @Test func theManifestListsEveryFieldWithExplicitNullsAndIsReadBack() throws {
        var failed = ManifestEntry(pms: "realpage", property: "ridian", report: "box_score", reportID: 4238,
                                   asOfRequested: "2026-11-20", startedAt: "2026-11-20T04:00:00.000Z")
        failed.error = "create report instance: HTTP 500"
        try landing.record(failed)
        try landing.finish()
        let text = try String(contentsOfFile: landing.manifestPath, encoding: .utf8)
        for field in ["\"path\" : null", "\"sha256\" : null", "\"operation\" : null", "\"error\" : \"create report instance: HTTP 500\"",
                      "\"run_id\" : \"20261120T000000Z-test\""] {
            #expect(text.contains(field), "\(field) in \(text)")
        }
        let manifest = try RunManifest.read(path: landing.manifestPath)
        #expect(manifest.artifacts == [failed])
        #expect(manifest.finishedAt != nil)
        // Rewritten through a temporary name: no leftovers beside it.
        #expect(try FileManager.default.contentsOfDirectory(atPath: landing.runDirectory) == ["manifest.json"])
    }

    @Test func aRunIDIsNeverReused() throws {
        #expect(throws: LandingError.self) {
            _ = try LandingZone(dataDirectory: data, runID: RunID("20261120T000000Z-test"))
        }
    }
}

/// Where the RealPage token comes from and how it is refreshed.
@Suite struct TokenSourceTests {
    @Test func neitherVariableIsAnErrorNamingBoth() {
        #expect {
            _ = try TokenSource(environment: [:])
        } throws: { "\($0)" == "no RealPage token: set REALPAGE_TOKEN or REALPAGE_TOKEN_COMMAND (a command that prints one)" }
    }

    @Test func theCommandsTrimmedOutputIsTheTokenAndRefreshRunsItAgain() throws {
        let counter = FileManager.default.temporaryDirectory.appendingPathComponent("count-\(UUID().uuidString)").path
        let command = "n=$(cat \(counter) 2>/dev/null || echo 0); n=$((n+1)); echo $n > \(counter); printf '  tok-%s\\n' $n"
        let tokens = try TokenSource(environment: ["REALPAGE_TOKEN_COMMAND": command])
        #expect(try tokens.token() == "tok-1")
        #expect(try tokens.token() == "tok-1", "asked once, then kept")
        #expect(try tokens.refresh(replacing: "tok-1") == "tok-2")
        // A thread still holding the old token gets the new one without running the command again.
        #expect(try tokens.refresh(replacing: "tok-1") == "tok-2")
        #expect(tokens.redactor.redact("Bearer tok-1 then tok-2") == "Bearer *** then ***")
    }

    @Test func aFixedTokenIsUsedFirstAndTheCommandRefreshesIt() throws {
        let tokens = try TokenSource(environment: ["REALPAGE_TOKEN": "fixed-token", "REALPAGE_TOKEN_COMMAND": "echo fresh-token"])
        #expect(try tokens.token() == "fixed-token")
        #expect(try tokens.refresh(replacing: "fixed-token") == "fresh-token")
    }

    @Test func aFailingOrSilentCommandSaysWhichVariable() throws {
        let failing = try TokenSource(environment: ["REALPAGE_TOKEN_COMMAND": "exit 7"])
        #expect { _ = try failing.token() } throws: { "\($0)" == "REALPAGE_TOKEN_COMMAND failed with exit status 7" }
        let silent = try TokenSource(environment: ["REALPAGE_TOKEN_COMMAND": "true"])
        #expect { _ = try silent.token() } throws: { "\($0)" == "REALPAGE_TOKEN_COMMAND printed no token" }
    }

    /// A credential helper that fails may print the secret it handled: one line, its output never repeated.
    @Test func aFailingCommandsErrorOutputIsSummarizedNotRepeated() throws {
        let failing = try TokenSource(environment: ["REALPAGE_TOKEN_COMMAND": "echo 'vault: token s3cr3t-value rejected' >&2; echo second line >&2; exit 3"])
        #expect { _ = try failing.token() } throws: { error in
            let text = "\(error)"
            return text == "REALPAGE_TOKEN_COMMAND failed with exit status 3; its error output (47 bytes) is not shown, it may hold a secret: run the command yourself to read it"
        }
    }

    @Test func reportParametersUseUSDatesFiscalPeriodsAndMonths() throws {
        let boxScore = ReportDefinition(name: "Box Score", parser: "box_score", reportID: 4238, reportKey: "K", formatCode: "1683")
        let date = try #require(LocalDate(year: 2026, month: 3, day: 5))
        let values = RealPageReportParameters.parameters(for: boxScore, asOf: date).map { "\($0.name)=\($0.value)" }
        #expect(values == ["SubProperty=ALL", "Start_Date=03/01/2026", "End_Date=03/05/2026", "ShowUnitDesignations=Yes"])
        let expirations = ReportDefinition(name: "Lease Expiration", parser: "lease_expiration", reportID: 3838, reportKey: "K", formatCode: "3")
        #expect(RealPageReportParameters.parameters(for: expirations, asOf: date).map(\.value) == ["03/2026", "02/2027"])
    }
}

/// A 500 is retried unless its fault says the request itself is wrong; the fault is read from the head of the file the
/// body was saved to (SOAP bodies go to the staging file, never into memory).
@Suite struct SOAPRetryTests {
    @Test(arguments: [("yardi_soap_fault.xml", true), ("rpx_inv_param_fault.xml", true),
                      ("rpx_action_not_supported_fault.xml", true), ("rpx_not_authorized_fault.xml", true),
                      ("yardi_get_unit_information.xml", false)])
    func aClientFaultIsNotRetried(fixture: String, isClientFault: Bool) throws {
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/soap")
        let path = fixtures.appendingPathComponent(fixture).path
        #expect(SOAPTransport.isClientFault(SOAPResponse.head(ofFile: path, count: 2048)) == isClientFault, "\(fixture)")
    }
}
