import Foundation

/// The one way artifacts are counted, wherever a count is printed or stored (fetch's log, the ingest and demo
/// summary, etl_runs.artifacts_fetched through the fetch items' status): `fetched` = landed (an answer kept in
/// the landing zone), `skipped` = the vendor does not offer it (not fetched, not failed), `failed` = the rest.
/// fetched + skipped + failed = total.
public struct FetchCounts: Sendable, Equatable {
    public var total = 0, fetched = 0, skipped = 0, failed = 0

    public init(_ entries: [ManifestEntry]) {
        total = entries.count
        for entry in entries {
            switch entry.outcome {
            case .landed: fetched += 1
            case .skipped: skipped += 1
            case .failed: failed += 1
            }
        }
    }

    /// `fetched 95 of 115 artifact(s), 6 failed, 14 skipped` (the skipped part only when some were).
    public var summary: String {
        "\(fetched) of \(total) artifact(s), \(failed) failed" + (skipped > 0 ? ", \(skipped) skipped" : "")
    }
}

/// Which part of a tenant ledger a landed answer holds, when it is not the whole ledger (`ledger` in the manifest):
/// the loader merges such an answer into the raw ledger and knows from it which stored transactions it speaks for.
public struct LedgerScope: Codable, Sendable, Equatable {
    /// What the answer covers.
    public enum Part: String, Codable, Sendable {
        /// Every transaction dated `from`...`to` (Yardi by charge date, RPX with `allopen` false).
        case dated
        /// Transactions a payment or credit was applied to in `from`...`to` (Yardi by application date): a partial
        /// answer, no stored transaction is missing from the ledger for not being in it.
        case applied
        /// Every charge still open, whatever its date (RPX `allopen` true).
        case openItems = "open_items"
        /// One household's whole ledger, every transaction of it dated `from`...`to` (RPX `reshid`): what the ledger
        /// check found off is asked for household by household.
        case household
    }

    public var part: Part
    public var from: String?
    public var to: String?
    /// The household of a `household` answer (its ReshID).
    public var household: String?

    public init(part: Part, from: String? = nil, to: String? = nil, household: String? = nil) {
        self.part = part; self.from = from; self.to = to; self.household = household
    }

    /// A window of a dated or applied answer.
    public init(_ part: Part, window: LedgerWindow) {
        self.init(part: part, from: window.from.iso, to: window.to.iso)
    }
}

/// One artifact of a run as recorded in `manifest.json`: where it came from, what landed, or why it failed.
public struct ManifestEntry: Codable, Sendable, Equatable {
    /// What became of an artifact, as every count reads it (`FetchCounts`).
    public enum Outcome: Sendable, Equatable { case landed, skipped, failed }

    /// Landed: a path and no error; skipped: the vendor does not offer it; failed: anything else.
    public var outcome: Outcome {
        if error == nil, path != nil { return .landed }
        if error == nil, skipped != nil { return .skipped }
        return .failed
    }

    public var pms: String
    public var property: String
    /// Report type (parser name, e.g. `rent_roll`) for report downloads; nil for SOAP operations.
    public var report: String?
    /// SOAP operation name; nil for report downloads.
    public var operation: String?
    /// Vendor report id (`4238`), for reports.
    public var reportID: Int?
    /// The date asked for.
    public var asOfRequested: String?
    /// The date the landed file is for (earlier than asked when the vendor refused a later end date).
    public var asOf: String?
    /// The artifact's name in the run (`realpage/nexus_east/rent_roll.xlsx`); nil when nothing landed. In runs landed
    /// before objects existed, also where the file is, relative to the run directory.
    public var path: String?
    /// Where the bytes are, relative to the landing directory (`objects/ab/ab12....xml.z`); nil in runs landed
    /// before objects existed (the file is then at `path` under the run directory).
    public var object: String?
    /// The final request's URL, secrets redacted.
    public var url: String?
    public var httpStatus: Int?
    public var size: Int?
    public var sha256: String?
    public var startedAt: String
    public var finishedAt: String
    public var seconds: Double
    /// HTTP requests made for this artifact, retries included.
    public var attempts: Int
    /// What happened on the way (an error-as-report date retried, a token refreshed).
    public var notes: [String]
    /// Why nothing landed; nil on success.
    public var error: String?
    /// Which of the report's ids the account answered under, when it was not the catalogue's first or an id was not
    /// found on the way (`account 4248314@host: Lease Expiration answered as report 3838; 4299 not found there`);
    /// the fetch logs it.
    public var reportIDNote: String?
    /// Why nothing landed although nothing failed: the vendor does not offer this artifact for the property (an RPX
    /// license key not authorized for the ledger). Not counted as a failure; nil otherwise.
    public var skipped: String?
    /// The part of the tenant ledger this answer holds; nil for a whole ledger and every other artifact.
    public var ledger: LedgerScope?

    enum CodingKeys: String, CodingKey {
        case pms, property, report, operation, path, object, url, size, sha256, seconds, attempts, notes, error, skipped
        case ledger
        case reportID = "report_id"
        case reportIDNote = "report_id_note"
        case asOfRequested = "as_of_requested"
        case asOf = "as_of"
        case httpStatus = "http_status"
        case startedAt = "started_at"
        case finishedAt = "finished_at"
    }

    public init(pms: String, property: String, report: String? = nil, operation: String? = nil, reportID: Int? = nil,
                asOfRequested: String? = nil, startedAt: String) {
        self.pms = pms; self.property = property; self.report = report; self.operation = operation
        self.reportID = reportID; self.asOfRequested = asOfRequested; self.startedAt = startedAt
        finishedAt = startedAt; seconds = 0; attempts = 0; notes = []
    }

    /// Explicit nulls: readers of the manifest see every field, `"error": null` on success.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(pms, forKey: .pms)
        try container.encode(property, forKey: .property)
        try container.encode(report, forKey: .report)
        try container.encode(operation, forKey: .operation)
        try container.encode(reportID, forKey: .reportID)
        try container.encode(asOfRequested, forKey: .asOfRequested)
        try container.encode(asOf, forKey: .asOf)
        try container.encode(path, forKey: .path)
        if let object { try container.encode(object, forKey: .object) }
        try container.encode(url, forKey: .url)
        try container.encode(httpStatus, forKey: .httpStatus)
        try container.encode(size, forKey: .size)
        try container.encode(sha256, forKey: .sha256)
        try container.encode(startedAt, forKey: .startedAt)
        try container.encode(finishedAt, forKey: .finishedAt)
        try container.encode(seconds, forKey: .seconds)
        try container.encode(attempts, forKey: .attempts)
        try container.encode(notes, forKey: .notes)
        try container.encode(error, forKey: .error)
        try container.encode(skipped, forKey: .skipped)
        if let reportIDNote { try container.encode(reportIDNote, forKey: .reportIDNote) }
        if let ledger { try container.encode(ledger, forKey: .ledger) }
    }

    /// The landed file to read: the object when there is one, else the old layout's file under the run directory;
    /// nil when nothing landed. A `.z` file is compressed (read it with `DeflatedFile.inflate`).
    public func landedFile(landingDirectory: String, runDirectory: String) -> String? {
        if let object { return (landingDirectory as NSString).appendingPathComponent(object) }
        return path.map { (runDirectory as NSString).appendingPathComponent($0) }
    }

    /// `realpage/nexus_east/rent_roll.xlsx`-style name for messages, whether or not anything landed.
    public var subject: String { "\(property)/\(artifactName)" }

    /// The file name the artifact has (or would have had) in the landing zone.
    public var artifactName: String {
        if let path { return path.split(separator: "/").last.map(String.init) ?? path }
        return report.map { "\($0).xlsx" } ?? operation.map { "\($0).xml" } ?? "artifact"
    }
}

/// `data/landing/<run_id>/manifest.json`: the run and every artifact it fetched or failed to fetch.
public struct RunManifest: Codable, Sendable, Equatable {
    public var runID: String
    public var startedAt: String
    /// Nil while the run is still going (or when it was killed).
    public var finishedAt: String?
    public var artifacts: [ManifestEntry]

    enum CodingKeys: String, CodingKey {
        case artifacts
        case runID = "run_id"
        case startedAt = "started_at"
        case finishedAt = "finished_at"
    }

    public init(runID: String, startedAt: String, finishedAt: String? = nil, artifacts: [ManifestEntry] = []) {
        self.runID = runID; self.startedAt = startedAt; self.finishedAt = finishedAt; self.artifacts = artifacts
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(runID, forKey: .runID)
        try container.encode(startedAt, forKey: .startedAt)
        try container.encode(finishedAt, forKey: .finishedAt)
        try container.encode(artifacts, forKey: .artifacts)
    }

    /// Reads a run's manifest; the error names the file.
    public static func read(path: String) throws -> RunManifest {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw LandingError("\(path): no manifest.json (no such run, or it was never started)")
        }
        do {
            return try JSONDecoder().decode(RunManifest.self, from: data)
        } catch {
            throw LandingError("\(path): not a readable manifest: \(error)")
        }
    }
}

