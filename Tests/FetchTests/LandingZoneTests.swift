import CurlKit
@testable import Fetch
import Foundation
import LibCryptoKit
@testable import OwnerDashCore
import SOAP
import SimulatorSupport
import Testing
import ZipKit

/// The landing zone's checks, without a server: what may land, what is refused and how it is said.
@Suite struct LandingZoneTests {
    private let scratch: ScratchDirectory
    let data: DataDirectory
    let landing: LandingZone

    init() throws {
        scratch = try ScratchDirectory(prefix: "landing")
        data = DataDirectory(root: scratch.url.path)
        landing = try LandingZone(dataDirectory: data, runID: RunID("20261120T000000Z-test"))
    }

    private func stage(_ bytes: [UInt8]) throws -> String {
        let path = try landing.stagingPath(pms: .realpage, property: "nexus_east", name: "rent_roll.xlsx")
        try #require(FileManager.default.createFile(atPath: path, contents: Data(bytes)), "could not write \(path)")
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
        #expect(!FileManager.default.fileExists(atPath: LandingZone.objectsDirectory(in: data)), "nothing landed")
        // The staging file waits, emptied, for the run's next download, and goes with the run.
        #expect(try FileManager.default.attributesOfItem(atPath: staged)[.size] as? Int == 0)
        #expect(try landing.stagingPath(pms: .yardi, property: "yp_cedar_bluff", name: "GetUnitInformation.xml") == staged)
        landing.discard(staged: staged)
        try landing.finish()
        #expect(try FileManager.default.contentsOfDirectory(atPath: (data.landing as NSString).appendingPathComponent(LandingZone.stagingFolder)) == [])
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

    @Test func aCheckedFileLandsAsAnObjectNamedByItsDigest() throws {
        let staged = try stage(zipBytes)
        #expect(try LandingZone.check(staged: staged, status: 200, expected: .report) == zipBytes.count)
        let landed = try landing.commit(staged: staged, pms: .realpage, property: "nexus_east", name: "rent_roll.xlsx")
        let sha = SHA256.hexDigest(of: zipBytes)
        #expect(landed == LandedArtifact(relativePath: "realpage/nexus_east/rent_roll.xlsx",
                                         object: "objects/\(sha.prefix(2))/\(sha).xlsx", size: zipBytes.count, sha256: sha))
        #expect(!FileManager.default.fileExists(atPath: staged))
        let target = (data.landing as NSString).appendingPathComponent(landed.object)
        #expect(FileManager.default.contents(atPath: target) == Data(zipBytes), "a report is stored as sent")

        // Other bytes under the same artifact name are another object; the first is untouched.
        let second = try landing.commit(staged: try stage(zipBytes.reversed()), pms: .realpage, property: "nexus_east", name: "rent_roll.xlsx")
        #expect(second.object != landed.object)
        #expect(FileManager.default.contents(atPath: target) == Data(zipBytes))
    }

    /// A ledger-like response: repetitive XML, as the vendors send it.
    private var ledgerXML: [UInt8] {
        var text = "<?xml version=\"1.0\"?><soap:Envelope xmlns:soap=\"http://schemas.xmlsoap.org/soap/envelope/\"><soap:Body><Ledger>"
        for index in 0..<3000 {
            text += "<Transaction><Id>\(index)</Id><Date>2026-\(String(format: "%02d", index % 12 + 1))-01</Date><Amount>\(index % 97).25</Amount><Code>rent</Code></Transaction>"
        }
        return Array((text + "</Ledger></soap:Body></soap:Envelope>").utf8)
    }

    private func stageXML(_ zone: LandingZone, _ bytes: [UInt8]) throws -> String {
        let path = try zone.stagingPath(pms: .yardi, property: "yp_cedar_bluff", name: "GetResidentTransactions_Login.xml")
        try #require(FileManager.default.createFile(atPath: path, contents: Data(bytes)), "could not write \(path)")
        return path
    }

    @Test func identicalBytesLandedByTwoRunsAreStoredOnceCompressed() throws {
        let xml = ledgerXML
        let first = try landing.commit(staged: try stageXML(landing, xml), pms: .yardi, property: "yp_cedar_bluff",
                                       name: "GetResidentTransactions_Login.xml")
        let nextNight = try LandingZone(dataDirectory: data, runID: RunID("20261121T000000Z-test"))
        let second = try nextNight.commit(staged: try stageXML(nextNight, xml), pms: .yardi, property: "yp_cedar_bluff",
                                          name: "GetResidentTransactions_Login.xml")
        #expect(first == second, "the same object, the sha256 of the bytes the vendor sent")
        #expect(first.object.hasSuffix(".xml.z") && first.size == xml.count)
        let objects = LandingZone.objectsDirectory(in: data)
        let stored = try FileManager.default.subpathsOfDirectory(atPath: objects).filter { $0.hasSuffix(".z") }
        #expect(stored.count == 1, "\(stored)")
        let file = (data.landing as NSString).appendingPathComponent(first.object)
        let onDisk = try #require(try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int)
        #expect(onDisk * 5 < xml.count, "compressed: \(onDisk) bytes on disk for \(xml.count) of XML")
        var inflated: [UInt8] = []
        try DeflatedFile.inflate(file) { inflated.append(contentsOf: $0) }
        #expect(inflated == xml)
        // The run directories hold their manifests only.
        #expect(try FileManager.default.contentsOfDirectory(atPath: nextNight.runDirectory) == ["manifest.json"])
    }

    /// An answer compressed into its object leaves its staging file to the caller, which empties it for the run's
    /// next download: the object is untouched by that, and the next staging path is the same file, not a new one.
    @Test func aCompressedAnswersStagingFileServesTheNextDownload() throws {
        let xml = ledgerXML
        let staged = try stageXML(landing, xml)
        let landed = try landing.commit(staged: staged, pms: .yardi, property: "yp_cedar_bluff",
                                        name: "GetResidentTransactions_Login.xml")
        #expect(FileManager.default.fileExists(atPath: staged), "compressed, not linked: still the caller's")
        landing.discard(staged: staged)
        #expect(FileStatus.size(atPath: staged) == 0)
        var inflated: [UInt8] = []
        try DeflatedFile.inflate((data.landing as NSString).appendingPathComponent(landed.object)) { inflated.append(contentsOf: $0) }
        #expect(inflated == xml, "emptying the staging file left the object whole")
        #expect(try landing.stagingPath(pms: .yardi, property: "yp_cedar_bluff", name: "GetUnitInformation.xml") == staged)

        // A report is linked into place: its staging name goes with the commit, and a discard after it touches nothing.
        let report = try stage(zipBytes)
        let object = try landing.commit(staged: report, pms: .realpage, property: "nexus_east", name: "rent_roll.xlsx")
        landing.discard(staged: report)
        #expect(!FileManager.default.fileExists(atPath: report))
        #expect(FileManager.default.contents(atPath: (data.landing as NSString).appendingPathComponent(object.object)) == Data(zipBytes))
    }

    /// A later night's load finds an answer by its sha256 alone, whichever run landed it (RecordLoad's night before).
    @Test func aLandedAnswerIsFoundByItsDigest() throws {
        let landed = try landing.commit(staged: try stageXML(landing, ledgerXML), pms: .yardi, property: "yp_cedar_bluff",
                                        name: "GetResidentTransactions_Login.xml")
        #expect(LandingZone.landedAnswer(sha256: landed.sha256, in: data)
                == (data.landing as NSString).appendingPathComponent(landed.object))
        #expect(LandingZone.landedAnswer(sha256: String(repeating: "0", count: 64), in: data) == nil)
    }

    /// Bytes an earlier run landed are that artifact again without being checked again; anything else is not
    /// (nil, its staging file left for the checks and the commit).
    @Test func alreadyLandedOnlyForIdenticalBytes() throws {
        let xml = ledgerXML
        let first = try landing.commit(staged: try stageXML(landing, xml), pms: .yardi, property: "yp_cedar_bluff",
                                       name: "GetResidentTransactions_Login.xml")
        let nextNight = try LandingZone(dataDirectory: data, runID: RunID("20261121T000000Z-test"))
        let changed = try stageXML(nextNight, xml + Array("<!-- a late posting -->".utf8))
        #expect(nextNight.alreadyLanded(try #require(nextNight.digest(staged: changed)), pms: .yardi, property: "yp_cedar_bluff",
                                        name: "GetResidentTransactions_Login.xml") == nil)
        #expect(FileManager.default.fileExists(atPath: changed), "left for the checks")
        let same = try stageXML(nextNight, xml)
        #expect(nextNight.alreadyLanded(try #require(nextNight.digest(staged: same)), pms: .yardi, property: "yp_cedar_bluff",
                                        name: "GetResidentTransactions_Login.xml") == first)
        // The staging file stays the caller's until it discards it (emptied, for the run's next download).
        #expect(FileManager.default.fileExists(atPath: same))
        // The same bytes under another extension are another object (a report saved as .xls is not the .xml).
        #expect(nextNight.alreadyLanded(try #require(nextNight.digest(staged: try stageXML(nextNight, xml))), pms: .yardi, property: "yp_cedar_bluff",
                                        name: "GetResidentTransactions_Login.xls") == nil)
    }

    @Test func aTruncatedCompressedObjectIsRefusedNotReadShort() throws {
        let landed = try landing.commit(staged: try stageXML(landing, ledgerXML), pms: .yardi, property: "yp_cedar_bluff",
                                        name: "GetResidentTransactions_Login.xml")
        let file = (data.landing as NSString).appendingPathComponent(landed.object)
        let whole = try #require(FileManager.default.contents(atPath: file))
        try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: file))
        #expect {
            try DeflatedFile.inflate(file) { _ in }
        } throws: { "\($0)" == "the compressed file is truncated (it ends before its stream does)" }
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

    @Test func theManifestListsArtifactsBySystemPropertyAndNameWhateverOrderTheyLandedIn() throws {
        let landedOrder = [("yardi", "yp_riverwalk", "GetUnitInformation"), ("realpage", "ridian", "unitlist"),
                           ("realpage", "kalaco", "getresidentledger"), ("realpage", "kalaco", "getbuildings"),
                           ("realpage", "ridian", "getsitelist")]
        var entries: [ManifestEntry] = []
        for (pms, property, operation) in landedOrder {
            var entry = ManifestEntry(pms: pms, property: property, operation: operation, startedAt: "2026-11-20T04:00:00.000Z")
            entry.path = "\(pms)/\(property)/\(operation).xml"
            entry.error = nil
            entries.append(entry)
            try landing.record(entry)
        }
        // The same artifact recorded again (a retry that landed) replaces its entry.
        try landing.record(entries[1])
        try landing.finish()
        let expected = ["realpage/kalaco/getbuildings.xml", "realpage/kalaco/getresidentledger.xml",
                        "realpage/ridian/getsitelist.xml", "realpage/ridian/unitlist.xml", "yardi/yp_riverwalk/GetUnitInformation.xml"]
        #expect(try RunManifest.read(path: landing.manifestPath).artifacts.compactMap(\.path) == expected)
        #expect(landing.snapshot.artifacts.compactMap(\.path) == expected)
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

    /// `sudo -u ownerdash ownerdash doctor` typed in a home directory the service user may not enter: the command is
    /// started from `/` instead of not at all. (Root, which runs the tests, may enter any directory; one that does not
    /// exist stands for it.)
    @Test func theCommandStartsFromRootWhenThisDirectoryCannotBeEntered() throws {
        #expect(TokenSource.workingDirectory(current: FileManager.default.temporaryDirectory.path) == nil)
        let gone = FileManager.default.temporaryDirectory.appendingPathComponent("gone-\(UUID().uuidString)").path
        #expect(TokenSource.workingDirectory(current: gone)?.path == "/")
    }

    @Test func reportParametersUseUSDatesFiscalPeriodsAndMonths() throws {
        let boxScore = ReportDefinition(name: "Box Score", parser: "box_score", reportID: 4238, reportKey: "K", formatCode: "1683")
        let date = try #require(LocalDate(year: 2026, month: 3, day: 5))
        let values = RealPageReportParameters.parameters(for: boxScore, asOf: date).map { "\($0.name)=\($0.value)" }
        #expect(values == ["SubProperty=ALL", "Start_Date=03/01/2026", "End_Date=03/05/2026", "ShowUnitDesignations=Yes"])
        let expirations = ReportDefinition(name: "Lease Expiration", parser: "lease_expiration", reportID: 3838, reportKey: "K", formatCode: "3")
        #expect(RealPageReportParameters.parameters(for: expirations, asOf: date).map(\.value) == ["03/2026", "02/2027"])
    }

    /// The funnel counts 30 days, but a lead is a prospect's earliest contact in the rows read: the Activity report is
    /// asked for 30 days more, so a fresh data directory knows a follow-up's first contact made just before the 30.
    @Test func theActivityReportReachesThirtyDaysBeforeTheFunnelsWindow() throws {
        let activity = ReportDefinition(name: "Activity", parser: "activity", reportID: 3837, reportKey: "K", formatCode: "562")
        let date = try #require(LocalDate(year: 2026, month: 3, day: 5))
        let values = RealPageReportParameters.parameters(for: activity, asOf: date).map { "\($0.name)=\($0.value)" }
        #expect(values == ["startdate=01/05/2026", "enddate=03/05/2026", "OccStatus=Prospect"])
    }
}

/// A 500 is retried unless its fault says the request itself is wrong; the fault is read from the head of the file the
/// body was saved to (SOAP bodies go to the staging file, never into memory).
@Suite struct SOAPRetryTests {
    @Test(arguments: [("yardi_soap_fault.xml", true), ("rpx_inv_param_fault.xml", true),
                      ("rpx_action_not_supported_fault.xml", true), ("rpx_not_authorized_fault.xml", true),
                      ("yardi_soap12_fault.xml", true), ("yardi_get_unit_information.xml", false),
                      ("yardi_soap12_get_unit_information.xml", false)])
    func aClientFaultIsNotRetried(fixture: String, isClientFault: Bool) throws {
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/soap")
        let path = fixtures.appendingPathComponent(fixture).path
        #expect(SOAPTransport.isClientFault(SOAPResponse.head(ofFile: path, count: 2048)) == isClientFault, "\(fixture)")
    }
}
