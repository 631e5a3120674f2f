import Foundation
import LibCryptoKit
import OwnerDashCore
import Parse
import SQLiteKit
import XLSXKit

/// What the caller knows about a report file beyond its bytes (command-line overrides).
public struct ReportFileHints: Sendable {
    public var report: ReportType?
    public var propertyKey: String?
    /// Overrides the title block's date.
    public var asOf: LocalDate?
    /// Used only when the title block has no date: a fetch's requested date is not the property date
    /// the report was run for (RealPage's property date can lag by days).
    public var fallbackAsOf: LocalDate?

    public init(report: ReportType? = nil, propertyKey: String? = nil, asOf: LocalDate? = nil,
                fallbackAsOf: LocalDate? = nil) {
        self.report = report; self.propertyKey = propertyKey; self.asOf = asOf; self.fallbackAsOf = fallbackAsOf
    }
}

/// The result of loading one report file.
public struct ReportLoadOutcome: Sendable, Equatable {
    public var artifact: String
    public var report: ReportType
    public var propertyKey: String
    public var asOf: LocalDate
    public var rows: Int
    public var warnings: [String]
    /// What is not a fault but worth saying: the report was empty.
    public var notes: [String] = []
    /// True when these exact bytes were loaded before: nothing was written.
    public var alreadyLoaded: Bool
    /// The run whose rows this snapshot is, when they equal the previous snapshot's (nothing stored again).
    public var unchangedSinceRun: String? = nil
    /// Other sheets of the same workbook that held a report too, each loaded as its own snapshot
    /// (Lease Expiration/Renewal Detail (Excel) carries two).
    public var additional: [ReportLoadOutcome] = []

    /// This outcome and the additional ones, in sheet order.
    public var all: [ReportLoadOutcome] { [self] + additional }
}

/// What identifies a raw report snapshot: a later load of the same key replaces it.
struct SnapshotKey: Hashable {
    var report: ReportType
    var property: String
    var asOf: LocalDate

    init(report: ReportType, property: String, asOf: LocalDate) {
        self.report = report; self.property = property; self.asOf = asOf
    }

    init(_ outcome: ReportLoadOutcome) {
        self.init(report: outcome.report, property: outcome.propertyKey, asOf: outcome.asOf)
    }
}

/// A report file that could not be loaded; `description` is the one-line reason, without the path.
public struct ReportLoadError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// Loads RealPage report files into realpage_raw.db, one transaction per file.
///
/// A file's rows replace the earlier snapshot of the same (report, property, as-of date);
/// loading the same bytes again changes nothing; a file that fails leaves the database as it was.
public struct ReportFileLoader {
    private let store: RealPageRawStore
    private let configuration: Configuration
    private let runID: RunID
    private let reload: Bool

    /// `reload`: parse again even bytes loaded before (replaying a run after a parser fix); the snapshot is replaced.
    public init(store: RealPageRawStore, configuration: Configuration, runID: RunID, reload: Bool = false) {
        self.store = store; self.configuration = configuration; self.runID = runID; self.reload = reload
    }

    /// Loads one report file in one transaction; throws a one-line reason (without the path) when it cannot.
    /// `verifiedSHA256`: the file's digest when the caller already checked it (a landed artifact against its run's
    /// manifest), so bytes loaded before are recognised without opening the file.
    public func load(path: String, hints: ReportFileHints = ReportFileHints(),
                     verifiedSHA256: String? = nil) throws -> ReportLoadOutcome {
        if let key = hints.propertyKey, configuration.property(key: key) == nil {
            throw ReportLoadError("unknown property \"\(key)\" (not in the configuration's property registry)")
        }
        guard FileManager.default.fileExists(atPath: path) else { throw ReportLoadError("no such file") }
        if !reload, let verifiedSHA256, let earlier = try previousLoad(sha256: verifiedSHA256, hints: hints) {
            return earlier
        }
        // Hashing reads the whole file: beside opening it, on the other core; not at all when the caller verified it
        // (the ingest's loads: no thread started for it).
        let hashing = verifiedSHA256.map(BackgroundWork.init(finished:)) ?? BackgroundWork { try SHA256.hexDigest(ofFile: path) }
        // Opened by its bytes: .xlsx, legacy .xls, an HTML export or CSV, whatever the file name says.
        let workbook: SpreadsheetFile
        do {
            workbook = try SpreadsheetFile(path: path)
        } catch {
            _ = try? hashing.result()
            throw error
        }
        let sha256: String
        do {
            sha256 = try hashing.result()
        } catch {
            throw ReportLoadError("cannot read the file")
        }
        if !reload, verifiedSHA256 == nil, let earlier = try previousLoad(sha256: sha256, hints: hints) { return earlier }

        // A data-only workbook prints its title block once, on its first sheet (a table of contents): the property
        // and date of sheets that print none.
        let workbookTitle = workbook.sheetNames.count > 1 ? try? Self.firstSheetTitle(workbook) : nil
        let database = store.database
        return try database.withTransaction {
            var firstError: Error?
            var outcomes: [ReportLoadOutcome] = []
            for index in workbook.sheetNames.indices {
                let sheet = try workbook.sheet(at: index)
                let loadedTargets = Set(outcomes.map(SnapshotKey.init))
                let newSink = {
                    LoadingSink(store: store, configuration: configuration, hints: hints,
                                lineage: (runID.value, path, sha256), workbookTitle: workbookTitle,
                                loadedTargets: loadedTargets)
                }
                var sink = newSink()
                do {
                    let (summary, rowCount) = try parse(sheet, as: hints.report, into: &sink, newSink: newSink)
                    guard let pipeline = sink.pipeline, let target = sink.target else {
                        throw ReportLoadError("sheet \"\(sheet.name)\": the parser produced no report header")
                    }
                    let stored = try storedOnce(target, rowsSHA256: pipeline.rowsSHA256())
                    if stored.unchanged == nil {
                        try store.recordTotals(summary.totals, of: target.report, property: target.property,
                                               asOf: target.asOf, runID: runID.value, sha256: sha256)
                    }
                    try store.database.prepare("""
                        INSERT INTO loaded_artifacts (report_type, property_id, as_of_date, artifact, artifact_sha256,
                                                      run_id, row_count, warnings)
                        VALUES (:report, :property, :as_of, :artifact, :sha, :run, :rows, :warnings)
                        ON CONFLICT (report_type, property_id, as_of_date) DO UPDATE SET
                            artifact = excluded.artifact, artifact_sha256 = excluded.artifact_sha256,
                            run_id = excluded.run_id, row_count = excluded.row_count,
                            warnings = excluded.warnings, loaded_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now')
                        """).execute([
                            ":report": .text(target.report.rawValue), ":property": .text(target.property),
                            ":as_of": .text(target.asOf.iso), ":artifact": .text(path), ":sha": .text(sha256),
                            ":run": .text(runID.value), ":rows": .integer(Int64(rowCount)),
                            ":warnings": summary.warnings.isEmpty ? .null : .text(summary.warnings.joined(separator: "\n")),
                        ])
                    try UnchangedSnapshots.record(store.database, keyColumn: "report_type", key: target.report.rawValue,
                                                  property: target.property, asOf: target.asOf,
                                                  rowsSHA256: stored.rowsSHA256, unchangedSince: stored.unchanged)
                    outcomes.append(ReportLoadOutcome(artifact: path, report: target.report, propertyKey: target.property,
                                                      asOf: target.asOf, rows: rowCount, warnings: summary.warnings,
                                                      notes: summary.notes, alreadyLoaded: false,
                                                      unchangedSinceRun: stored.unchanged?.runID))
                } catch {
                    sink.pipeline?.abort()
                    // A sheet whose header was never recognized (a table of contents, a legend) is not a report:
                    // go on with the next sheet. Any failure after the header is the file's failure.
                    if sink.target != nil || workbook.sheetNames.count == 1 { throw error }
                    // A sheet the loader could not place (no property or date) says more than one without a header.
                    if firstError == nil || (sink.placing && !(firstError is ReportLoadError)) { firstError = error }
                }
            }
            if let index = outcomes.firstIndex(where: { $0.report == .leasingActivityDetail }), workbook.sheetNames.count > 1 {
                outcomes[index].warnings += try reconcileConsultantSheet(workbook, outcome: outcomes[index],
                                                                         sha256: sha256)
            }
            if let index = outcomes.firstIndex(where: { $0.report == .renewalDetail }), workbook.sheetNames.count > 1 {
                outcomes[index].warnings += try reconcileFloorplanSummary(workbook, outcome: outcomes[index],
                                                                          sha256: sha256)
                outcomes[index].warnings += try reconcileRenewalSheet(workbook, outcome: outcomes[index],
                                                                      sha256: sha256)
            }
            guard var first = outcomes.first else { throw firstError ?? ReportLoadError("the workbook has no sheets") }
            first.additional = Array(outcomes.dropFirst())
            return first
        }
    }

    /// Parses one sheet into `sink` and waits for its rows to be written; returns the summary and the rows written.
    ///
    /// An .xlsx sheet lists its merged cells after its rows, and reading them first would inflate the sheet twice
    /// (a third of a large load). So it is parsed without them, inside a savepoint, and its merged cells are read
    /// on the way to the end; only when they would have changed the header (HeaderCheck), or when the parse failed
    /// and the sheet has merged cells, is the savepoint undone and the sheet parsed again with them.
    private func parse(_ sheet: SpreadsheetSheet, as report: ReportType?, into sink: inout LoadingSink,
                       newSink: () -> LoadingSink) throws -> (ReportSummary, Int) {
        func parse(merges: [MergedRange], check: Bool) throws -> (ReportSummary, Int) {
            var rows = try sheet.rows()
            do {
                let summary = try RealPageReports.parse(report, rows: &rows, merges: merges, sheetName: sheet.name,
                                                        sink: &sink)
                if check, let trailing = try rows.mergedRangesAfterRows(), !(summary.headerCheck?.holds(for: trailing) ?? true) {
                    throw MergedCellsChangeHeader(merges: trailing)
                }
                return (summary, try sink.pipeline?.finish() ?? 0)
            } catch {
                // The writer thread stops before the database is used again (a savepoint undone, the next sheet).
                sink.pipeline?.abort()
                throw error
            }
        }
        guard sheet.mergesFollowRows else { return try parse(merges: try sheet.mergedRanges(), check: false) }
        let merges: [MergedRange]
        do {
            return try store.database.withSavepoint("sheet") { try parse(merges: [], check: true) }
        } catch let change as MergedCellsChangeHeader {
            merges = change.merges
        } catch {
            guard let all = try? sheet.mergedRanges(), !all.isEmpty else { throw error }
            merges = all
        }
        sink = newSink()
        return try parse(merges: merges, check: false)
    }

    /// The merged cells read after a sheet's rows change the header its first rows gave without them.
    private struct MergedCellsChangeHeader: Error {
        var merges: [MergedRange]
    }

    /// A report stored once while unchanged whose rows equal its previous snapshot's: the rows just written are
    /// deleted again (inside the file's transaction, so they never reach the disk) and the snapshot refers to the
    /// stored one. Returns the rows' hash (nil for reports stored every time) and the stored snapshot, if unchanged.
    private func storedOnce(_ target: (report: ReportType, property: String, asOf: LocalDate),
                            rowsSHA256: String) throws -> (rowsSHA256: String?, unchanged: UnchangedSnapshots.Stored?) {
        guard UnchangedSnapshots.storesOnce(target.report.rawValue) else { return (nil, nil) }
        guard let previous = try UnchangedSnapshots.previous(
            store.database, keyColumn: "report_type", key: target.report.rawValue, property: target.property,
            asOf: target.asOf), previous.rowsSHA256 == rowsSHA256 else { return (rowsSHA256, nil) }
        for table in [target.report.rawTable] + target.report.childTables {
            try store.database.prepare("DELETE FROM \(table) WHERE property_id = :property AND as_of_date = :as_of")
                .execute([":property": .text(target.property), ":as_of": .text(target.asOf.iso)])
        }
        return (rowsSHA256, previous)
    }

    /// The data-only Leasing Activity Detail prints its counts per consultant on a sheet of their own: its
    /// `Totals for Property` figures held against the contacts this file stored, recorded with the snapshot's printed
    /// totals (`LeadDetailTally`); the mismatches of the figures the rows give, also recorded with the loaded artifact.
    private func reconcileConsultantSheet(_ workbook: SpreadsheetFile, outcome: ReportLoadOutcome,
                                          sha256: String) throws -> [String] {
        for index in workbook.sheetNames.indices {
            guard let printed = LeadDetailTally.printedTotals(in: try Self.firstRows(of: workbook, sheet: index))
            else { continue }
            var tally = LeadDetailTally()
            try store.database.prepare("""
                SELECT contact_type, contact_date, return_visits, off_site_conversion, prospect_name, initial_contact_type
                FROM realpage_leasing_activity_detail
                WHERE property_id = :property AND as_of_date = :as_of
                  AND lineage_id IN (SELECT id FROM raw_lineage WHERE artifact_sha256 = :sha)
                """).forEachRow([
                ":property": .text(outcome.propertyKey), ":as_of": .text(outcome.asOf.iso), ":sha": .text(sha256),
            ]) { row in
                guard let date = row.text("contact_date").flatMap({ LocalDate(iso: $0) }) else { return }
                tally.add(type: row.text("contact_type"), date: date, returnVisits: row.int("return_visits"),
                          offSite: row.text("off_site_conversion"), name: row.text("prospect_name"),
                          initialType: row.text("initial_contact_type"))
            }
            let checks = tally.totals(printed.printed, label: printed.label, row: printed.row)
            try store.recordTotals(checks, of: outcome.report, property: outcome.propertyKey, asOf: outcome.asOf,
                                   runID: runID.value, sha256: sha256)
            let warnings = checks.filter { $0.printed != $0.computed && LeadDetailTally.derivedFromRows($0.measure) }.map {
                "\(ReportType.leasingActivityDetail.displayName): sheet \"\(workbook.sheetNames[index])\": the rows count "
                    + "\(Int($0.computed)) \($0.measure) but \"\($0.label)\" (row \($0.row)) says \(Int($0.printed))"
            }
            try recordWarnings(warnings, of: outcome)
            return warnings
        }
        return []
    }

    /// The first rows of a sheet, enough for a summary sheet of a data-only workbook.
    private static func firstRows(of workbook: SpreadsheetFile, sheet index: Int) throws -> [SheetRow] {
        var rows = try workbook.sheet(at: index).rows()
        var buffer: [SheetRow] = []
        while buffer.count < 2_000, let row = try rows.nextRow() { buffer.append(row) }
        return buffer
    }

    /// Adds warnings found after a sheet was loaded to what its loaded artifact records.
    private func recordWarnings(_ warnings: [String], of outcome: ReportLoadOutcome) throws {
        guard !warnings.isEmpty else { return }
        try store.database.prepare("""
            UPDATE loaded_artifacts SET warnings = :warnings
            WHERE report_type = :report AND property_id = :property AND as_of_date = :as_of
            """).execute([":warnings": .text((outcome.warnings + warnings).joined(separator: "\n")),
                          ":report": .text(outcome.report.rawValue), ":property": .text(outcome.propertyKey),
                          ":as_of": .text(outcome.asOf.iso)])
    }

    /// Per floor plan, the figures the `Summary by Floorplan` sheet prints, from the leases this file stored (`:sha`),
    /// or those of the snapshot an unchanged one refers to (`:sha` NULL; `RenewalFloorplanSummary` says how each is
    /// counted).
    static let floorplanTallies = """
        SELECT coalesce(floorplan, '') AS floorplan,
               sum(decision IN ('Renewed', 'Vacating', 'Unknown', 'MTM', 'Month to Month')) AS possible,
               sum(decision = 'Renewed') AS renewed, sum(decision = 'Vacating') AS vacating,
               sum(decision = 'Unknown') AS unknown, sum(decision IN ('MTM', 'Month to Month')) AS month_to_month,
               avg(CASE WHEN decision = 'Renewed' THEN new_lease_term END) AS average_term,
               round(avg(CASE WHEN decision = 'Renewed' THEN new_rent END), 2) AS average_new_rent,
               round(avg(market_rent), 2) AS average_market_rent
        FROM realpage_renewal_detail
        WHERE property_id = :property AND as_of_date = :as_of
          AND (:sha IS NULL OR lineage_id IN (SELECT id FROM raw_lineage WHERE artifact_sha256 = :sha))
        GROUP BY coalesce(floorplan, '')
        """

    /// The stored leases' columns each amount of the `Renewal Detail` sheet's `Totals:` row is held against.
    static let renewalSheetColumns = ["actual rent": "actual_rent", "other billings": "other_billings",
                                      "last increase amount": "last_increase_amount", "market rent": "market_rent",
                                      "new rent": "new_rent", "new other billings": "new_other_billings"]

    /// Per measure of `renewalSheetColumns`, the stored leases OneSite lists on the `Renewal Detail` sheet: those
    /// renewed and those transferring to another unit (`:sha` as in `floorplanTallies`).
    static let renewalSheetSums = """
        SELECT count(*) AS leases, sum(actual_rent) AS actual_rent, sum(other_billings) AS other_billings,
               sum(last_increase_amount) AS last_increase_amount, sum(market_rent) AS market_rent,
               sum(new_rent) AS new_rent, sum(new_other_billings) AS new_other_billings
        FROM realpage_renewal_detail
        WHERE property_id = :property AND as_of_date = :as_of AND decision IN ('Renewed', 'Transferring')
          AND (:sha IS NULL OR lineage_id IN (SELECT id FROM raw_lineage WHERE artifact_sha256 = :sha))
        """

    /// The real 4156 workbook lists every lease on its `Lease Expiration Detail` sheet (the one stored) and the renewed
    /// and transferring ones again on its `Renewal Detail` sheet, with a `Totals:` row of their own: that sheet's
    /// lease count and each printed amount are held against those stored leases, recorded with the snapshot's printed
    /// totals, and a mismatch warns. A workbook whose `Renewal Detail` sheet is the one stored (the same count) has
    /// nothing more to check.
    private func reconcileRenewalSheet(_ workbook: SpreadsheetFile, outcome: ReportLoadOutcome,
                                       sha256: String) throws -> [String] {
        guard let index = workbook.sheetNames.firstIndex(where: {
            $0.lowercased().split(whereSeparator: \.isWhitespace) == ["renewal", "detail"]
        }) else { return [] }
        var rows = try workbook.sheet(at: index).rows()
        var sink = CountingSink()
        let summary: ReportSummary
        do {
            summary = try RealPageReports.parse(.renewalDetail, rows: &rows, merges: [],
                                                sheetName: workbook.sheetNames[index], sink: &sink)
        } catch {
            return ["\(ReportType.renewalDetail.displayName): sheet \"\(workbook.sheetNames[index])\": \(error)"]
        }
        guard sink.records != outcome.rows else { return [] }
        let leases = try storedRows(of: outcome, sha256: sha256)
        var stored: [String: Double] = [:]
        var storedLeases = 0
        try store.database.prepare(Self.renewalSheetSums).forEachRow([
            ":property": .text(outcome.propertyKey), ":as_of": .text(leases.asOf), ":sha": SQLValue(leases.sha256),
        ]) { row in
            storedLeases = row.int("leases") ?? 0
            for column in Self.renewalSheetColumns.values { stored[column] = row.double(column) ?? 0 }
        }
        let label = "Renewal Detail"
        var checks = [PrintedTotal(label: label, row: 1, measure: "renewed and transferring leases",
                                   printed: Double(sink.records), computed: Double(storedLeases))]
        for total in summary.totals where total.label.lowercased().hasPrefix("totals") {
            guard let column = Self.renewalSheetColumns[total.measure] else { continue }
            checks.append(PrintedTotal(label: "\(label) \(total.label)", row: total.row, measure: total.measure,
                                       printed: total.printed, computed: ((stored[column] ?? 0) * 100).rounded() / 100))
        }
        if outcome.unchangedSinceRun == nil {
            try store.recordTotals(checks, of: outcome.report, property: outcome.propertyKey, asOf: outcome.asOf,
                                   runID: runID.value, sha256: sha256)
        }
        let warnings = checks.filter { abs($0.printed - $0.computed) > 0.005 }.map {
            "\(ReportType.renewalDetail.displayName): sheet \"\(workbook.sheetNames[index])\": \"\($0.label)\" "
                + "(row \($0.row)) prints \($0.printed) \($0.measure) but the stored renewed and transferring "
                + "leases give \($0.computed)"
        }
        try recordWarnings(warnings, of: outcome)
        return warnings
    }

    /// The data-only Lease Expiration/Renewal Detail prints a renewal summary per floor plan on a sheet of its own:
    /// each figure held against the leases this file stored, recorded with the snapshot's printed totals; the
    /// mismatches, also recorded with the loaded artifact.
    private func reconcileFloorplanSummary(_ workbook: SpreadsheetFile, outcome: ReportLoadOutcome,
                                           sha256: String) throws -> [String] {
        for index in workbook.sheetNames.indices {
            guard let summary = RenewalFloorplanSummary.printed(in: try Self.firstRows(of: workbook, sheet: index))
            else { continue }
            var tallies: [String: RenewalFloorplanSummary.Tally] = [:]
            let leases = try storedRows(of: outcome, sha256: sha256)
            try store.database.prepare(Self.floorplanTallies).forEachRow([
                ":property": .text(outcome.propertyKey), ":as_of": .text(leases.asOf), ":sha": SQLValue(leases.sha256),
            ]) { row in
                tallies[row.text("floorplan") ?? ""] = RenewalFloorplanSummary.Tally(
                    possible: row.int("possible") ?? 0,
                    renewed: row.int("renewed") ?? 0,
                    vacating: row.int("vacating") ?? 0,
                    unknown: row.int("unknown") ?? 0,
                    monthToMonth: row.int("month_to_month") ?? 0,
                    averageTerm: row.double("average_term"),
                    averageNewRent: row.double("average_new_rent").flatMap(Money.init(dollars:)),
                    averageMarketRent: row.double("average_market_rent").flatMap(Money.init(dollars:)))
            }
            let checks = summary.reconcile(with: tallies)
            // An unchanged snapshot's printed totals are its stored snapshot's, recorded when that one loaded.
            if outcome.unchangedSinceRun == nil {
                try store.recordTotals(checks, of: outcome.report, property: outcome.propertyKey, asOf: outcome.asOf,
                                       runID: runID.value, sha256: sha256)
            }
            let warnings = checks.filter { $0.printed != $0.computed }.map {
                "\(ReportType.renewalDetail.displayName): sheet \"\(workbook.sheetNames[index])\": \"\($0.label)\" "
                    + "(row \($0.row)) prints \($0.printed) \($0.measure) but the leases give \($0.computed)"
            }
            try recordWarnings(warnings, of: outcome)
            return warnings
        }
        return []
    }

    /// Where the rows of a snapshot this file just loaded are: its own date and file, or, when it was recorded
    /// unchanged (UnchangedSnapshots), the stored snapshot's date (its rows identical; whichever file stored them, a
    /// date holds one snapshot of a report). Read there, a summary sheet is held against the leases it describes,
    /// not against no rows at all.
    private func storedRows(of outcome: ReportLoadOutcome, sha256: String) throws -> (asOf: String, sha256: String?) {
        guard outcome.unchangedSinceRun != nil, let stored = try store.database.scalar("""
            SELECT stored_as_of FROM loaded_artifacts
            WHERE report_type = :report AND property_id = :property AND as_of_date = :as_of
            """, [":report": .text(outcome.report.rawValue), ":property": .text(outcome.propertyKey),
                  ":as_of": .text(outcome.asOf.iso)])?.textValue
        else { return (outcome.asOf.iso, sha256) }
        return (stored, nil)
    }

    /// The title block of the first sheet (its first rows).
    static func firstSheetTitle(_ workbook: SpreadsheetFile) throws -> TitleBlock {
        var rows = try workbook.sheet(at: 0).rows()
        var buffer: [SheetRow] = []
        while buffer.count < 15, let row = try rows.nextRow() { buffer.append(row) }
        return TitleBlock(rows: buffer)
    }

    private func previousLoad(sha256: String, hints: ReportFileHints) throws -> ReportLoadOutcome? {
        let rows = try store.database.query("""
            SELECT report_type, property_id, as_of_date, row_count, artifact FROM loaded_artifacts
            WHERE artifact_sha256 = :sha
            """, [":sha": .text(sha256)])
        for row in rows {
            guard let report = row[0].textValue.flatMap(ReportType.init(rawValue:)),
                  let property = row[1].textValue,
                  let asOf = row[2].textValue.flatMap({ LocalDate(iso: $0) }) else { continue }
            if let wanted = hints.report, wanted != report { continue }
            if let wanted = hints.propertyKey, wanted != property { continue }
            if let wanted = hints.asOf, wanted != asOf { continue }
            return ReportLoadOutcome(artifact: row[4].textValue ?? "", report: report, propertyKey: property, asOf: asOf,
                                     rows: Int(row[3].integerValue ?? 0), warnings: [], alreadyLoaded: true)
        }
        return nil
    }
}

/// Receives parsed records: resolves property and as-of date from hints or the title block,
/// replaces the snapshot, and inserts rows.
struct LoadingSink: ReportSink {
    let store: RealPageRawStore
    let configuration: Configuration
    let hints: ReportFileHints
    let lineage: (runID: String, artifact: String, sha256: String)
    /// The workbook's first-sheet title block, for sheets without their own (data-only exports).
    let workbookTitle: TitleBlock?
    /// The snapshots earlier sheets of this file loaded: a sheet repeating one is skipped.
    let loadedTargets: Set<SnapshotKey>
    private(set) var target: (report: ReportType, property: String, asOf: LocalDate)?
    private(set) var pipeline: RecordPipeline?
    /// True once a report header was recognized and the sink was asked to place it (property, date).
    private(set) var placing = false

    init(store: RealPageRawStore, configuration: Configuration, hints: ReportFileHints,
         lineage: (runID: String, artifact: String, sha256: String), workbookTitle: TitleBlock? = nil,
         loadedTargets: Set<SnapshotKey> = []) {
        self.store = store; self.configuration = configuration; self.hints = hints; self.lineage = lineage
        self.workbookTitle = workbookTitle; self.loadedTargets = loadedTargets
    }

    mutating func begin(_ metadata: ReportMetadata) throws {
        placing = true
        let property: String
        if let key = hints.propertyKey {
            property = key
        } else if let site = metadata.siteNumber ?? workbookTitle?.siteNumber,
                  let match = configuration.property(siteID: site) {
            // The site number printed beside the name is the registry's key; the name may be spelt differently.
            property = match.key
        } else if let name = metadata.propertyName ?? workbookTitle?.propertyName {
            guard let match = configuration.property(named: name) else {
                throw ReportLoadError("property \"\(name)\" from the title block is not in the registry; pass --property KEY")
            }
            property = match.key
        } else {
            throw ReportLoadError("no property name in the title block; pass --property KEY")
        }
        guard let asOf = hints.asOf ?? metadata.asOf ?? workbookTitle?.asOf ?? hints.fallbackAsOf else {
            throw ReportLoadError("no as-of date in the title block; pass --as-of YYYY-MM-DD")
        }
        if loadedTargets.contains(SnapshotKey(report: metadata.reportType, property: property, asOf: asOf)) {
            // Another sheet of this file already holds this snapshot (a summary sheet of the same report).
            placing = false
            throw ReportLoadError("sheet repeats a report snapshot an earlier sheet of the file holds")
        }
        let lineage = Lineage(runID: lineage.runID, propertyID: property, asOf: asOf,
                              artifact: lineage.artifact, sha256: lineage.sha256)
        let writer = RawReportWriter(database: store.database, lineage: lineage)
        // Later snapshots recorded as unchanged since this one keep its rows (they move to the earliest of them).
        try UnchangedSnapshots.releaseDependents(store.database, keyColumn: "report_type", key: metadata.reportType.rawValue,
                                                 property: property, asOf: asOf,
                                                 tables: [metadata.reportType.rawTable] + metadata.reportType.childTables,
                                                 totals: true)
        try writer.clearSnapshot(of: metadata.reportType)
        self.pipeline = RecordPipeline(writer: writer)
        self.target = (metadata.reportType, property, asOf)
    }

    mutating func emit(_ record: ReportRecord) throws {
        guard let pipeline else { throw ReportLoadError("a record arrived before the report header") }
        try pipeline.append(record)
    }
}

/// Counts the records of a sheet parsed only for its printed totals (the `Renewal Detail` sheet of 4156).
struct CountingSink: ReportSink {
    var records = 0
    mutating func begin(_ metadata: ReportMetadata) throws {}
    mutating func emit(_ record: ReportRecord) throws { records += 1 }
}
