import Fetch
import Foundation
import OwnerDashCore
import SOAP
import SimulatorSupport
import Testing

/// Catalogue reports whose report key (or id) nobody has seen: listed in report_definitions.json with
/// `"report_key": null` and a note, loaded from downloaded files, never requested from the reporting API. The
/// simulator's stand-in keys reach the demo and the harnesses only through its catalogue overlay.
@Suite struct UnknownReportKeyTests {
    static let configPath = repositoryRoot.appendingPathComponent("report_definitions.json").path

    /// The report keys seen in the OneSite web UI's own requests (docs/onesite-reports.md, "Report ids and keys").
    static let observedKeys: [String: (id: Int, key: String)] = [
        "box_score": (4238, "446266C0-D572-4D8A-A6DA-310C0AE61037"),
        "rent_roll": (4043, "A6F61299-E960-4235-9DC2-44D2C2EF4F99"),
        "delinquency": (4009, "584A377E-0352-470D-8BF0-754F41B250A3"),
        "activity": (3837, "B29B7C76-04B8-4D6C-AABC-62127F0CAE63"),
        "monthly_summary": (3877, "E41626AB-EC0F-4F6C-A6EA-D7A93909AA9B"),
        "lease_expiration": (4299, "B289373B-F2EF-4391-B492-1BCBC89A4864"),
        "renewal_detail": (4156, "05E163C2-14E9-4A4E-B71F-328717ABF599"),
        "projected_occupancy": (3842, "345C5708-78BE-44F9-8932-0484913C9F78"),
        "monthly_transaction_summary": (4020, "81ADF4FF-9961-4252-B668-405C652373DC"),
        "lease_details": (4048, "69EB8E7D-4158-44CF-AC17-8A07E2F4182C"),
        "lost_rent_summary": (4279, "AD3AB1DD-B8CC-410E-BF14-8F76DF3C83A5"),
    ]

    /// The reports no answer reads (nothing in the sync reads their raw tables): `"nightly": false`.
    static let fetchedWhenNamed: Set<String> = ["lease_expiration", "renewal_detail", "projected_occupancy",
                                                "monthly_transaction_summary", "lease_details", "lost_rent_summary"]

    /// A report no answer reads costs a night its download, its parse and its raw rows (about a seventh of a
    /// churned night's CPU for these six at 30 properties): the shipped catalogue fetches it only when named, and the
    /// simulator's overlay (the demo's, the harnesses') keeps that.
    @Test func aReportNoAnswerReadsIsFetchedOnlyWhenNamed() throws {
        let configuration = try Configuration.load(path: Self.configPath)
        #expect(Set(configuration.realpage.reports.filter { !$0.fetchedNightly }.map(\.parser)) == Self.fetchedWhenNamed)
        let nexus = try #require(configuration.property(key: "nexus_east"))
        func parsers(_ configuration: Configuration, _ names: [String]?) throws -> Set<String> {
            let plan = try FetchPlan(configuration: configuration, configPath: Self.configPath, properties: [nexus],
                                     reportNames: names, environment: ["REALPAGE_TOKEN": freshToken()])
            return Set(plan.jobs.compactMap { job -> String? in
                if case .report(let report) = job { return report.report.parser } else { return nil }
            })
        }
        #expect(try parsers(configuration, nil).isDisjoint(with: Self.fetchedWhenNamed))
        #expect(try parsers(configuration, ["lease_expiration", "rent_roll"]) == ["lease_expiration", "rent_roll"])

        let overlay = try JSONSerialization.data(withJSONObject: ["realpage": ["reports": [
            ["name": "Lease Expiration", "parser": "lease_expiration", "report_id": 3838, "report_key": "K1"],
            ["name": "Rent Roll", "parser": "rent_roll", "report_id": 4043, "report_key": "K2"],
            ["name": "Lost Rent Summary", "parser": "lost_rent_summary", "report_id": 4279, "report_key": "K3",
             "nightly": true],
        ]]])
        let registry = try #require(FileManager.default.contents(atPath: Self.configPath))
        let overlaid = try JSONDecoder().decode(Configuration.self, from: try ReportCatalogueOverlay.apply(
            configuration: registry, overlay: overlay, overlayPath: "catalogue.json"))
        #expect(overlaid.realpage.reports.map(\.reportKey) == ["K1", "K2", "K3"], "the overlay's reports and keys")
        #expect(try parsers(overlaid, nil) == ["rent_roll", "lost_rent_summary"],
                "the registry's nightly kept, unless the overlay says otherwise")
    }

    /// The same for the two RPX operations no answer reads (their raw tables realpage_buildings and
    /// realpage_rentable_items): a default plan leaves them out, naming them (or `rpx`) asks for them.
    @Test func anRPXOperationNoAnswerReadsIsFetchedOnlyWhenNamed() throws {
        let configuration = try Configuration.load(path: Self.configPath)
        let nexus = try #require(configuration.property(key: "nexus_east"))
        func operations(_ names: [String]?) throws -> Set<String> {
            let plan = try FetchPlan(configuration: configuration, configPath: Self.configPath, properties: [nexus],
                                     reportNames: names, environment: ["REALPAGE_TOKEN": freshToken(),
                                                                       "REALPAGE_RPX_LICENSE_KEY": "key"])
            return Set(plan.jobs.compactMap { job -> String? in
                if case .rpx(let rpx) = job { return rpx.operation.name } else { return nil }
            })
        }
        #expect(try operations(nil) == ["getsitelist", "unitlist", "getunitlist", "getresidentlistinfo", "getleaseinfo",
                                        "getresidentledger", "getscheduledcharges"])
        #expect(try operations(["getbuildings", "getrentableitems"]) == ["getbuildings", "getrentableitems"])
        #expect(try operations(["rpx"]).count == RPXOperation.allCases.count)
    }

    @Test func theRegistryCarriesOnlyObservedKeys() throws {
        let configuration = try Configuration.load(path: Self.configPath)
        for report in configuration.realpage.reports {
            guard let key = report.reportKey else { continue }
            let observed = try #require(Self.observedKeys[report.parser], "\(report.parser) carries key \(key)")
            #expect(report.reportID == observed.id && key == observed.key, "\(report.parser)")
        }
        #expect(Set(configuration.realpage.reports.filter { $0.reportKey != nil }.map(\.parser)) == Set(Self.observedKeys.keys))
        #expect(configuration.realpage.reports.first { $0.parser == "delinquency" }?.formatCode == "1611",
                "the Excel format code of the observed Delinquent and Prepaid download")
        #expect(configuration.realpage.reports.first { $0.parser == "lease_expiration" }?.formatCode == "2153")
    }

    @Test func theRegistryCarriesNoKeyForTheReportsNoOneHasSeenOne() throws {
        let configuration = try Configuration.load(path: Self.configPath)
        let unknown = configuration.realpage.reports.filter { $0.reportKey == nil }
        #expect(Set(unknown.map(\.parser)) == ["transaction_detail", "charge_journal", "cash_basis_gl",
                                               "monthly_income_summary", "collections", "make_ready_summary",
                                               "closed_make_ready", "income_statement"])
        #expect(unknown.allSatisfy { $0.reportKeyNote?.isEmpty == false }, "each says why")
        #expect(unknown.first { $0.parser == "transaction_detail" }?.reportID == 4028)
        #expect(unknown.first { $0.parser == "charge_journal" }?.reportID == 4039)
        #expect(unknown.first { $0.parser == "income_statement" }?.reportID == 3836)
    }

    @Test func namingSuchAReportIsRefusedInOneLineSayingWhatToConfigure() throws {
        for (report, name) in [("charge_journal", "Charge and Adjustment Journal"), ("income_statement", "Income Statement"),
                               ("closed_make_ready", "Closed Make Ready Summary")] {
            let result = try Workspace().ownerdash(["fetch", "--property", "nexus_east", "--reports", "rent_roll,\(report)"],
                                                   environment: ["REALPAGE_TOKEN": freshToken()], config: Self.configPath)
            #expect(result.status == 1)
            let lines = result.stderr.split(separator: "\n")
            #expect(lines.count == 1)
            #expect(lines.first?.contains("\"\(name)\" (\(report)) cannot be fetched") == true)
            #expect(lines.first?.contains("realpage.reports[\"\(report)\"].report_key in \(Self.configPath)") == true)
            #expect(result.stdout.isEmpty, "no run started")
        }
    }

    @Test func aDefaultRunLeavesThemOutAndSaysSo() throws {
        let configuration = try Configuration.load(path: Self.configPath)
        let nexus = try #require(configuration.property(key: "nexus_east"))
        let plan = try FetchPlan(configuration: configuration, configPath: Self.configPath, properties: [nexus],
                                 reportNames: nil, environment: ["REALPAGE_TOKEN": freshToken()])
        let fetched = Set(plan.jobs.compactMap { job -> String? in
            if case .report(let report) = job { return report.report.parser } else { return nil }
        })
        #expect(fetched == Set(Self.observedKeys.keys).subtracting(Self.fetchedWhenNamed),
                "every report with an observed id and key that a night reads, nothing else")
        #expect(plan.refused.count == 8)
        #expect(plan.refused.allSatisfy { $0.contains("cannot be fetched") && $0.contains(Self.configPath) })
        #expect(plan.refused.contains { $0.contains("(collections)") && $0.contains("report_id and report_key are unknown") })
        #expect(plan.refused.contains { $0.contains("(make_ready_summary)") && $0.contains("its report_key is unknown") })
    }

    @Test func theSimulatorsStandInKeysReachTheHarnessOnlyThroughItsOverlay() throws {
        let shipped = try Configuration.load(path: Self.configPath)
        let overlaid = try Configuration.load(path: simulatorConfigPath)
        #expect(overlaid.properties == shipped.properties, "the overlay replaces the report catalogue only")
        #expect(Set(overlaid.realpage.reports.map(\.parser)) == Set(allReports))
        #expect(overlaid.realpage.reports.allSatisfy { $0.fetchRefusal(configPath: simulatorConfigPath) == nil })
        let shippedKeys = Set(shipped.realpage.reports.compactMap(\.reportKey))
        let standIns = overlaid.realpage.reports.filter { !shippedKeys.contains($0.reportKey ?? "") }
        #expect(Set(standIns.map(\.parser)) == ["make_ready_summary", "closed_make_ready", "income_statement"],
                "the simulator serves these under ids and keys of its own")
        // Lease Expiration under the shipped ids, in the shipped order: 4299, then 3838.
        let expirations = { (configuration: Configuration) in
            configuration.realpage.reports.first { $0.parser == "lease_expiration" }?.identities.map(\.reportID)
        }
        #expect(expirations(overlaid) == [4299, 3838] && expirations(shipped) == expirations(overlaid))
    }
}
