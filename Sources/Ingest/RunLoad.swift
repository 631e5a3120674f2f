import Fetch
import Foundation
import LibCryptoKit
import OwnerDashCore
import Parse
import RawStore
import SOAP

/// A `--run RUN_ID` that names no landed run; the CLI prints it as a usage error (exit 1).
public struct RunLoadError: Error, CustomStringConvertible, Sendable {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// What loading one landed artifact did: the rows it holds, or why it failed.
public struct ArtifactLoad: Sendable {
    /// What kind of artifact it is.
    public enum Kind: Sendable, Equatable {
        case report(ReportType)
        case rpx(RPXOperation)
        case yardi(YardiOperation)
    }

    public var kind: Kind
    public var property: String
    /// Path of the landed file (as the raw rows' `artifact` column records it).
    public var file: String
    /// Path inside the run directory (`realpage/nexus_east/rent_roll.xlsx`), as the manifest names it.
    public var relativePath: String
    /// The snapshot date the rows were stored under; nil when the load failed before it was known.
    public var asOf: LocalDate?
    /// Rows of the artifact's snapshot (written now, or earlier when `alreadyLoaded`).
    public var rows: Int
    /// The same bytes were loaded before: nothing was written.
    public var alreadyLoaded: Bool
    /// The rows equal the previous snapshot's: recorded as unchanged since this run, not stored again.
    public var unchangedSinceRun: String? = nil
    /// Parser warnings (e.g. a totals mismatch), kept with the snapshot.
    public var warnings: [String]
    public var seconds: Double
    /// Why nothing was written; nil on success.
    public var error: String?

    /// Report type or operation name (`rent_roll`, `GetUnitInformation`).
    public var name: String {
        switch kind {
        case .report(let report): report.rawValue
        case .rpx(let operation): operation.name
        case .yardi(let operation): operation.name
        }
    }

    /// The line `load` prints for a loaded artifact: `loaded  rent_roll  nexus_east  2026-11-20  212 rows  FILE`.
    public var summaryLine: String {
        "\(alreadyLoaded ? "already loaded" : "loaded")  \(name)  \(property)  \(asOf?.iso ?? "")  \(rows) rows  \(file)"
            + (unchangedSinceRun.map { "  (unchanged since run \($0))" } ?? "")
    }
}

/// Loads the artifacts a fetch run landed into the raw databases: `load --run RUN_ID` and ingest's load stage.
///
/// Reads `data/landing/<run>/manifest.json`; RealPage reports go to realpage_raw.db (report type, property and a
/// fallback date from the manifest, the report's own title date first), RPX and Yardi SOAP responses to
/// realpage_raw.db and yardi_raw.db as of the manifest's date. One transaction per artifact; a bad artifact is
/// logged and the rest go on. Rows carry the run's id. A landed file whose bytes no longer match the manifest's
/// sha256 is refused (landed bytes are never edited).
public struct RunLoad {
    public let dataDirectory: DataDirectory
    public let configuration: Configuration
    public let runID: RunID
    /// Only this report type (and no SOAP response) when set: `load --run --report`.
    public var report: ReportType?
    /// Only this property's artifacts when set.
    public var propertyKey: String?
    /// Parse again artifacts whose bytes were loaded before (`load --run --reload`, after a parser fix).
    public var reload: Bool
    private var manifest: RunManifest
    /// The raw databases, opened by the first load that needs them and kept for the loads after it (the ingest loads
    /// a property at a time).
    private let stores: RawStores

    /// Reads the run's manifest; throws `RunLoadError` when `runID` is not a run id or names no landed run.
    public init(dataDirectory: DataDirectory, configuration: Configuration, runID: RunID,
                report: ReportType? = nil, propertyKey: String? = nil, reload: Bool = false) throws {
        guard !runID.value.isEmpty, !runID.value.contains("/"), !runID.value.hasPrefix(".") else {
            throw RunLoadError("\"\(runID.value)\" is not a run id")
        }
        let path = LandingZone.manifestPath(in: dataDirectory, runID: runID)
        guard FileManager.default.fileExists(atPath: path) else {
            throw RunLoadError("no run \(runID.value) in \(dataDirectory.landing) (no \(path))")
        }
        self.dataDirectory = dataDirectory
        self.configuration = configuration
        self.runID = runID
        self.report = report
        self.propertyKey = propertyKey
        self.reload = reload
        manifest = try RunManifest.read(path: path)
        stores = RawStores(dataDirectory: dataDirectory)
    }

    /// The ingest's loader: the manifest as the fetch has recorded it so far (`LandingZone.snapshot`), every property.
    init(dataDirectory: DataDirectory, configuration: Configuration, runID: RunID, manifest: RunManifest) {
        self.dataDirectory = dataDirectory
        self.configuration = configuration
        self.runID = runID
        self.report = nil
        self.propertyKey = nil
        self.reload = false
        self.manifest = manifest
        stores = RawStores(dataDirectory: dataDirectory)
    }

    /// Copies the raw databases' WAL into their files once the loads are done (`Database.checkpoint`).
    func checkpoint() throws {
        try stores.checkpoint()
    }

    /// This loader for one property's artifacts of `manifest` (the run's, as it stands once they have all ended),
    /// with the same open raw databases.
    func property(_ key: String, of manifest: RunManifest) -> RunLoad {
        var copy = self
        copy.propertyKey = key
        copy.manifest = manifest
        return copy
    }

    /// Loads the reports, then the RPX responses, then the Yardi responses; `each` sees every artifact as it ends.
    public func load(log: Diagnostics, each: (ArtifactLoad) -> Void = { _ in }) throws -> [ArtifactLoad] {
        let reports = landedReports(log: log)
        try dataDirectory.create()
        let store = try stores.realpage()
        var results = loadReports(reports, store: store, log: log, each: each)
        let soap = landedSOAP(log: log)
        results += soap.refused
        for refused in soap.refused { each(refused) }
        let rpx = soap.items.filter { if case .rpx = $0.kind { true } else { false } }
        let yardi = soap.items.filter { if case .yardi = $0.kind { true } else { false } }
        let data = dataDirectory
        let rpxLoader = RPXArtifactLoader(store: store, runID: runID, reload: reload) {
            LandingZone.landedAnswer(sha256: $0, in: data)
        }
        results += loadEach(rpx, source: "RPX", log: log, each: each) { item in
            guard case .rpx(let operation) = item.kind else { return nil }
            return try rpxLoader.load(path: item.file, operation: operation, property: item.property,
                                      asOf: item.asOf, expectedSHA256: item.sha256, answer: item.answer)
        }
        if !yardi.isEmpty {
            let yardiLoader = YardiArtifactLoader(store: try stores.yardi(), runID: runID,
                                                  reload: reload)
            results += loadEach(yardi, source: "Yardi", log: log, each: each) { item in
                guard case .yardi(let operation) = item.kind else { return nil }
                return try yardiLoader.load(path: item.file, operation: operation, property: item.property,
                                            asOf: item.asOf, expectedSHA256: item.sha256, answer: item.answer)
            }
        }
        return results
    }

    // MARK: - Reports

    /// A landed report and what the manifest says about it.
    private struct ReportItem {
        var file: String
        var relativePath: String
        var type: ReportType
        var hints: ReportFileHints
        var sha256: String?
    }

    private var runDirectory: String { LandingZone.runDirectory(in: dataDirectory, runID: runID) }

    /// How a load error names an artifact: its name in the run and, when it is an object, the object's file, so a
    /// corrupt or edited object can be found (`yardi/p1/GetResidentLedger.xml (.../objects/ab/ab12....xml.z)`).
    static func subject(_ relativePath: String, file: String) -> String {
        file.hasSuffix(relativePath) ? file : "\(relativePath) (\(file))"
    }

    /// Where an artifact's bytes are: its object, or (runs landed before objects) its file in the run directory.
    private func landedFile(_ entry: ManifestEntry) -> String? {
        entry.landedFile(landingDirectory: dataDirectory.landing, runDirectory: runDirectory)
    }

    /// The run's landed RealPage reports, with hints from the manifest (filtered by `report`/`propertyKey`).
    private func landedReports(log: Diagnostics) -> [ReportItem] {
        var items: [ReportItem] = []
        var notFetched = 0
        for entry in manifest.artifacts where entry.pms == PMS.realpage.rawValue {
            guard let reportName = entry.report, let type = ReportType(rawValue: reportName) else { continue }
            if let report, report != type { continue }
            if let propertyKey, propertyKey != entry.property { continue }
            guard entry.error == nil, let relative = entry.path, let file = landedFile(entry) else {
                if entry.skipped == nil { notFetched += 1 }
                continue
            }
            // The report's own title says which property date it was run for; the manifest's date is a fallback.
            let hints = ReportFileHints(report: type, propertyKey: entry.property,
                                        fallbackAsOf: entry.asOf.flatMap { LocalDate(iso: $0) })
            items.append(ReportItem(file: file, relativePath: relative,
                                    type: type, hints: hints, sha256: entry.sha256))
        }
        if notFetched > 0 {
            log.info(nil, "\(notFetched) report(s) of run \(runID.value) failed to fetch and are not loaded (see its manifest)")
        }
        if items.isEmpty && !manifest.artifacts.contains(where: { $0.operation != nil }) {
            log.info(nil, "run \(runID.value) landed no RealPage reports to load")
        }
        return items
    }

    private func loadReports(_ items: [ReportItem], store: RealPageRawStore, log: Diagnostics,
                             each: (ArtifactLoad) -> Void) -> [ArtifactLoad] {
        let loader = ReportFileLoader(store: store, configuration: configuration, runID: runID, reload: reload)
        var results: [ArtifactLoad] = []
        for item in items {
            let started = Date()
            var result = ArtifactLoad(kind: .report(item.type), property: item.hints.propertyKey ?? "", file: item.file,
                                      relativePath: item.relativePath, asOf: nil, rows: 0, alreadyLoaded: false,
                                      warnings: [], seconds: 0, error: nil)
            do {
                if let expected = item.sha256 {
                    // Landed bytes are never edited; a mismatch means someone did, so the file is not trusted.
                    let actual = try? SHA256.hexDigest(ofFile: item.file)
                    guard actual == expected else {
                        throw ReportLoadError(actual == nil ? "cannot read the landed file"
                                              : "the file's sha256 differs from the run's manifest (edited after it landed?)")
                    }
                }
                let outcome = try loader.load(path: item.file, hints: item.hints, verifiedSHA256: item.sha256)
                let warnings = outcome.all.flatMap(\.warnings)
                for warning in warnings {
                    log.warning(item.file, warning, LogFields(stage: "load", property: outcome.propertyKey, artifact: item.relativePath))
                }
                result.kind = .report(outcome.report)
                result.property = outcome.propertyKey
                result.file = outcome.artifact
                result.asOf = outcome.asOf
                // A workbook with several report sheets is one artifact: its rows are all its snapshots' rows.
                result.rows = outcome.all.reduce(0) { $0 + $1.rows }
                result.alreadyLoaded = outcome.alreadyLoaded
                result.unchangedSinceRun = outcome.all.allSatisfy { $0.unchangedSinceRun != nil } ? outcome.unchangedSinceRun : nil
                result.warnings = warnings
            } catch {
                log.error(Self.subject(item.relativePath, file: item.file), "\(error)",
                          LogFields(stage: "load", property: result.property.isEmpty ? nil : result.property,
                                    artifact: item.relativePath,
                                    durationMilliseconds: Int(Date().timeIntervalSince(started) * 1000)))
                result.error = "\(error)"
            }
            result.seconds = Date().timeIntervalSince(started)
            results.append(result)
            each(result)
        }
        let failed = results.filter { $0.error != nil }
        if !failed.isEmpty {
            log.error(nil, "\(failed.count) of \(items.count) file(s) failed: \(failed.map(\.file).joined(separator: ", "))")
        }
        return results
    }

    // MARK: - SOAP responses

    /// A landed SOAP response (RPX or Yardi) and what the manifest says about it.
    private struct SOAPItem {
        var file: String
        var relativePath: String
        var kind: ArtifactLoad.Kind
        var property: Property
        var asOf: LocalDate
        var sha256: String?
        /// The part of the tenant ledger the response holds (the manifest's `ledger`); nil for a whole ledger.
        var answer: LedgerAnswer?
    }

    /// The part of a ledger a manifest entry says its answer holds.
    static func answer(_ scope: LedgerScope?) -> LedgerAnswer? {
        guard let scope else { return nil }
        switch scope.part {
        case .dated:
            guard let from = scope.from, let to = scope.to else { return .applied }  // no dates: judged on nothing
            return .dated(from: from, to: to)
        case .applied: return .applied
        case .openItems: return .openItems
        case .household:
            guard let household = scope.household, let from = scope.from, let to = scope.to else { return .applied }
            return .household(household, from: from, to: to)
        }
    }

    /// The run's landed RPX and Yardi responses (filtered by `propertyKey`; none when `report` is set), and those
    /// that cannot be loaded at all (a property the registry no longer has, no as-of date).
    private func landedSOAP(log: Diagnostics) -> (items: [SOAPItem], refused: [ArtifactLoad]) {
        guard report == nil else { return ([], []) }
        var items: [SOAPItem] = []
        var refused: [ArtifactLoad] = []
        var notFetched = 0
        for entry in manifest.artifacts {
            guard let name = entry.operation, let pms = PMS(rawValue: entry.pms) else { continue }
            let kind: ArtifactLoad.Kind
            if pms == .realpage, let operation = RPXOperation(rawValue: name) {
                kind = .rpx(operation)
            } else if pms == .yardi, let operation = YardiOperation(rawValue: name) {
                kind = .yardi(operation)
            } else {
                continue
            }
            if let propertyKey, propertyKey != entry.property { continue }
            guard entry.error == nil, let relative = entry.path, let file = landedFile(entry) else {
                if entry.skipped == nil { notFetched += 1 }
                continue
            }
            func refuse(_ reason: String) {
                log.error(relative, reason, LogFields(stage: "load", property: entry.property, artifact: relative))
                refused.append(ArtifactLoad(kind: kind, property: entry.property, file: file, relativePath: relative,
                                            asOf: nil, rows: 0, alreadyLoaded: false, warnings: [], seconds: 0, error: reason))
            }
            guard let property = configuration.property(key: entry.property), property.pms == pms else {
                refuse("property \(entry.property) is not a \(pms.rawValue) property of the registry")
                continue
            }
            guard let asOf = (entry.asOf ?? entry.asOfRequested).flatMap({ LocalDate(iso: $0) }) else {
                refuse("the manifest records no as-of date for this artifact")
                continue
            }
            items.append(SOAPItem(file: file, relativePath: relative, kind: kind, property: property, asOf: asOf,
                                  sha256: entry.sha256, answer: Self.answer(entry.ledger)))
        }
        // The parts of a ledger are merged before a whole one of the same run (the manifest lists artifacts as they
        // ended): a full pull that reconciles then differs only by what the windows missed.
        let parts = items.filter { $0.answer != nil }
        items = parts + items.filter { $0.answer == nil }
        if notFetched > 0 {
            log.info(nil, "\(notFetched) SOAP response(s) of run \(runID.value) failed to fetch and are not loaded (see its manifest)")
        }
        return (items, refused)
    }

    /// Loads items one by one, keeping going after a bad one. The loaders refuse a file whose sha256 differs
    /// from the manifest's.
    private func loadEach(_ items: [SOAPItem], source: String, log: Diagnostics, each: (ArtifactLoad) -> Void,
                          load: (SOAPItem) throws -> (any SOAPLoadOutcome)?) -> [ArtifactLoad] {
        var results: [ArtifactLoad] = []
        for item in items {
            let started = Date()
            var result = ArtifactLoad(kind: item.kind, property: item.property.key, file: item.file,
                                      relativePath: item.relativePath, asOf: item.asOf, rows: 0, alreadyLoaded: false,
                                      warnings: [], seconds: 0, error: nil)
            do {
                guard let outcome = try load(item) else { continue }
                result.file = outcome.artifact
                result.asOf = outcome.asOf
                result.rows = outcome.rows
                result.alreadyLoaded = outcome.alreadyLoaded
                result.warnings = outcome.warnings
                for warning in outcome.warnings { log.warning(item.relativePath, warning) }
                if let note = outcome.note { log.info(nil, "load: \(item.relativePath): \(note)") }
                result.unchangedSinceRun = outcome.unchangedSinceRun
            } catch {
                log.error(Self.subject(item.relativePath, file: item.file), "\(error)",
                          LogFields(stage: "load", property: result.property.isEmpty ? nil : result.property,
                                    artifact: item.relativePath,
                                    durationMilliseconds: Int(Date().timeIntervalSince(started) * 1000)))
                result.error = "\(error)"
            }
            result.seconds = Date().timeIntervalSince(started)
            results.append(result)
            each(result)
        }
        let failed = results.filter { $0.error != nil }
        if !failed.isEmpty {
            log.error(nil, "\(failed.count) of \(items.count) \(source) response(s) failed: \(failed.map(\.file).joined(separator: ", "))")
        }
        return results
    }
}

/// The raw databases one `RunLoad` writes, each opened (created and migrated) when first needed.
private final class RawStores {
    private let dataDirectory: DataDirectory
    private var openRealPage: RealPageRawStore?
    private var openYardi: YardiRawStore?

    init(dataDirectory: DataDirectory) { self.dataDirectory = dataDirectory }

    func realpage() throws -> RealPageRawStore {
        if let openRealPage { return openRealPage }
        let store = try RealPageRawStore(path: dataDirectory.realpageRawDatabase)
        openRealPage = store
        return store
    }

    func yardi() throws -> YardiRawStore {
        if let openYardi { return openYardi }
        let store = try YardiRawStore(path: dataDirectory.yardiRawDatabase)
        openYardi = store
        return store
    }

    /// Checkpoints the databases opened so far (`Database.checkpoint`): the loads are done.
    func checkpoint() throws {
        try openRealPage?.database.checkpoint()
        try openYardi?.database.checkpoint()
    }
}
