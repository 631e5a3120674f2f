import CurlKit
import Foundation
import LibCryptoKit
import OwnerDashCore
import XLSXKit
import ZipKit

/// A download that could not be landed, or a landing zone that could not be written; the message says why.
public struct LandingError: Error, CustomStringConvertible, Sendable {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// What a downloaded body must be before it may land.
public struct ExpectedContent: Sendable {
    /// The kinds sniffed from the first bytes that may land (an .xlsx is a zip).
    public var kinds: Set<FileKind>
    /// Smaller bodies are failures: RealPage answers a failed download with a few hundred bytes.
    public var minimumSize: Int
    /// How the artifact is named in messages (`a report (.xlsx, .xls, HTML or CSV)`).
    public var label: String

    public init(kinds: Set<FileKind>, minimumSize: Int, label: String) {
        self.kinds = kinds; self.minimumSize = minimumSize; self.label = label
    }

    /// A RealPage report download: OneSite sends .xlsx, Crystal .xls, HTML "Excel" exports and CSV
    /// (docs/onesite-reports.md, "File forms"). An HTML page without a report table (a login page) is refused after
    /// this check, by reading it.
    public static let report = ExpectedContent(kinds: [.zip, .ole2, .html, .csvText], minimumSize: 500,
                                               label: "a report (.xlsx, .xls, HTML or CSV)")
}

/// A file that landed: where, how big, and the digest of its bytes.
public struct LandedArtifact: Sendable, Equatable {
    /// The artifact's name within the run (`<pms>/<property>/<artifact>`), as messages and the raw databases name it.
    public var relativePath: String
    /// Where its bytes are, relative to the landing directory (`objects/ab/abcd....xml.z`).
    public var object: String
    public var size: Int
    public var sha256: String
}

/// `data/landing/<run_id>/manifest.json` naming each artifact (`<pms>/<property>/<artifact>`) and the object holding
/// its bytes: `data/landing/objects/<first two hex digits>/<sha256>.<ext>`, content-addressed by the sha256 of the
/// bytes the vendor sent, so a report or response identical to an earlier run's is stored once. SOAP XML objects are
/// one raw DEFLATE stream (`.xml.z`, about a tenth of the XML); reports (.xlsx is already a zip) are stored as sent.
/// Runs landed before objects existed keep their files under the run directory (`path` only, no `object`); readers
/// take both (`ManifestEntry.landedFile`).
///
/// Bodies are streamed to a hidden staging file (`data/landing/.staging`, the same file system, so the link is
/// atomic) and become an object only once checked: the landing zone never holds a half file under an object's name,
/// and objects are never rewritten. The manifest is rewritten (temp + rename) after every artifact, so a killed run
/// still lists what landed.
public final class LandingZone: Sendable {
    public let runID: RunID
    /// `data/landing/<run_id>`.
    public let runDirectory: String
    /// `data/landing`, where `objects/` and `.staging/` are.
    public let landingDirectory: String
    private let manifest: Locked<RunManifest>
    /// Which id each report answered under, per account, across runs.
    public let reportIDs: ReportIDMemory
    /// When the manifest was last written (see `record`).
    private let lastWritten = Locked<Date>(.distantPast)
    /// Staging files of finished downloads, empty, waiting for the next download (`discard`).
    private let idleStaging = Locked<[String]>([])
    /// How often, at most, `record` rewrites the manifest: every artifact of a 30-property night rewrote (and
    /// fsynced) the whole growing file, quadratic in the artifacts; `finish` writes the rest. Once a second, its
    /// encoding (a few ms for the 450 entries of the 30 demo properties, at each second of a night's fetch) cost a
    /// night that changed nothing 0.05 of its 1.4 s of CPU; a run killed between two writes fetches its last seconds'
    /// artifacts again, whose bytes are landed already.
    static let manifestWriteInterval: TimeInterval = 5

    public static func runDirectory(in dataDirectory: DataDirectory, runID: RunID) -> String {
        (dataDirectory.landing as NSString).appendingPathComponent(runID.value)
    }

    /// `data/landing/objects`: the bytes of every landed artifact, one file per distinct sha256.
    public static func objectsDirectory(in dataDirectory: DataDirectory) -> String {
        (dataDirectory.landing as NSString).appendingPathComponent(objectsFolder)
    }

    /// The landing directory's folders that are not runs.
    public static let objectsFolder = "objects", stagingFolder = ".staging"

    /// zlib's level for landed XML: 3 compresses a 26 MB ledger to 1.27 MB in a third of level 6's time (1.04 MB);
    /// at 6 the compression was 4 % of a night's CPU, for a landing zone a tenth of the databases' size.
    static let compressionLevel: Int32 = 3

    /// An object's path relative to the landing directory: XML is compressed (`.xml.z`), anything else keeps its
    /// extension so readers that sniff by name still can.
    public static func objectName(sha256: String, artifactName: String) -> String {
        let ext = (artifactName as NSString).pathExtension.lowercased()
        let suffix = ext == "xml" ? ".xml.z" : ext.isEmpty ? "" : "." + ext
        return "\(objectsFolder)/\(sha256.prefix(2))/\(sha256)\(suffix)"
    }

    /// The object of an XML answer landed as `sha256` (any run's), nil when the landing zone does not hold it (never
    /// landed, or pruned).
    public static func landedAnswer(sha256: String, in dataDirectory: DataDirectory) -> String? {
        let object = (dataDirectory.landing as NSString)
            .appendingPathComponent(objectName(sha256: sha256, artifactName: "answer.xml"))
        return FileManager.default.fileExists(atPath: object) ? object : nil
    }

    public static func manifestPath(in dataDirectory: DataDirectory, runID: RunID) -> String {
        (runDirectory(in: dataDirectory, runID: runID) as NSString).appendingPathComponent("manifest.json")
    }

    /// Creates the run directory and an empty manifest; a run id that already has a directory is refused.
    public init(dataDirectory: DataDirectory, runID: RunID, now: Date = Date()) throws {
        self.runID = runID
        runDirectory = Self.runDirectory(in: dataDirectory, runID: runID)
        landingDirectory = dataDirectory.landing
        reportIDs = ReportIDMemory(dataDirectory: dataDirectory)
        manifest = Locked(RunManifest(runID: runID.value, startedAt: Timestamp.iso(now, milliseconds: true)))
        if FileManager.default.fileExists(atPath: runDirectory) {
            throw LandingError("\(runDirectory): a run with this id already exists; landed runs are never rewritten")
        }
        do {
            try FileManager.default.createDirectory(atPath: runDirectory, withIntermediateDirectories: true)
        } catch {
            throw LandingError("\(runDirectory): cannot create the run directory: \(error.localizedDescription)")
        }
        try manifest.withLock { try write($0) }
    }

    public var manifestPath: String { (runDirectory as NSString).appendingPathComponent("manifest.json") }

    /// A staging path in `data/landing/.staging` (the directory is created): an idle staging file of this run when
    /// there is one (`discard`), else a fresh name. A download truncates the file it writes to.
    public func stagingPath(pms: PMS, property: String, name: String) throws -> String {
        if let idle = idleStaging.withLock({ $0.popLast() }) { return idle }
        let directory = (landingDirectory as NSString).appendingPathComponent(Self.stagingFolder)
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw LandingError("\(directory): cannot create the directory: \(error.localizedDescription)")
        }
        return (directory as NSString).appendingPathComponent("\(pms.rawValue)-\(property)-\(name).partial-\(UUID().uuidString.prefix(8))")
    }

    /// Checks a staged body against what was expected; returns its size. The error quotes a short,
    /// redacted excerpt of an error body, so `HTTP 500: An error has occurred.` reaches the operator.
    public static func check(staged path: String, status: Int, expected: ExpectedContent,
                             redactor: Redactor = Redactor(secrets: [])) throws -> Int {
        let size = FileStatus.size(atPath: path) ?? 0
        let head = Self.head(of: path, bytes: 4096)
        guard status == 200 else {
            let excerpt = Self.excerpt(head, redactor: redactor)
            throw LandingError("HTTP \(status)" + (excerpt.isEmpty ? "" : ": \(excerpt)"))
        }
        let kind = FileKind.sniff(head)
        let firstByte = head.first { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }
        let isJSON = firstByte == UInt8(ascii: "{") || firstByte == UInt8(ascii: "[")
        if isJSON || !expected.kinds.contains(kind) {
            let what: String
            switch kind {
            case .html: what = "an HTML page"
            case .empty: what = "an empty body"
            case .pdf: what = "a PDF"
            case .ole2: what = "a legacy .xls (OLE2) file"
            case .xml: what = "XML"
            case .zip: what = "a zip file"
            case .csvText, .unknown: what = isJSON ? "JSON" : "something else"
            }
            let excerpt = kind == .zip || kind == .ole2 || kind == .pdf ? "" : Self.excerpt(head, redactor: redactor)
            throw LandingError("the server sent \(what) instead of \(expected.label)" + (excerpt.isEmpty ? "" : " (\"\(excerpt)\")"))
        }
        guard size > expected.minimumSize else {
            throw LandingError("only \(size) bytes, too small for \(expected.label) (a failed download?)")
        }
        return size
    }

    /// The artifact a staging file (its `digest(staged:)`) already is when an earlier run landed the same bytes under the same name's
    /// extension, else nil (the staging file is left as it was either way; `discard` lets go of it). Only checked
    /// bytes are ever committed, so such bytes passed the checks a caller would run again: an unchanged night skips
    /// them (re-reading a report or scanning a SOAP answer was most of its fetch's own CPU).
    public func alreadyLanded(_ digest: StagedDigest, pms: PMS, property: String, name: String) -> LandedArtifact? {
        reuse(relative: "\(pms.rawValue)/\(property)/\(name)", name: name, sha256: digest.sha256, size: digest.size)
    }

    /// A staging file's sha256 and size, read once for both questions a fetch asks of a download (`alreadyLanded`,
    /// `commit`): each read the whole file for it before, a second SHA-256 of every new artifact of a night.
    public struct StagedDigest: Sendable, Equatable {
        public let sha256: String
        public let size: Int
    }

    /// The digest of a staging file as it is now; nil when it cannot be read (`commit` then says why).
    public func digest(staged path: String) -> StagedDigest? {
        (try? Self.digest(of: path)).map { StagedDigest(sha256: $0.0, size: $0.1) }
    }

    /// Turns a checked staging file into the artifact's object: an object with the same sha256 already there is
    /// reused (identical bytes are stored once); otherwise XML is compressed into it and anything else linked into
    /// place. A file linked into place is the object now and leaves the staging folder; one whose bytes were
    /// compressed or are stored already stays the caller's, to `discard` (emptied, for the run's next download: a
    /// churned night compresses some 150 answers, and creating a staging file for each cost a millisecond of the
    /// kernel's time on this ext4, which scans past recently deleted inodes for a free one).
    /// `digest`: the staging file's, when the caller read it since the file was last written (`digest(staged:)`).
    public func commit(staged path: String, pms: PMS, property: String, name: String,
                       digest known: StagedDigest? = nil) throws -> LandedArtifact {
        let relative = "\(pms.rawValue)/\(property)/\(name)"
        let sha256: String
        let size: Int
        if let known {
            (sha256, size) = (known.sha256, known.size)
        } else {
            do {
                (sha256, size) = try Self.digest(of: path)
            } catch {
                throw LandingError("\(relative): cannot read the downloaded file: \(error)")
            }
        }
        if let earlier = reuse(relative: relative, name: name, sha256: sha256, size: size) { return earlier }
        let object = Self.objectName(sha256: sha256, artifactName: name)
        let target = (landingDirectory as NSString).appendingPathComponent(object)
        let directory = (target as NSString).deletingLastPathComponent
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw LandingError("\(directory): cannot create the directory: \(error.localizedDescription)")
        }
        // Written under a private name, then link(2)ed: a concurrent run landing the same bytes either finds the
        // object whole or links its own identical copy first (EEXIST is then success), never a half object.
        let temporary = (directory as NSString).appendingPathComponent(".\(sha256).tmp-\(UUID().uuidString.prefix(8))")
        defer { unlink(temporary) }
        if object.hasSuffix(".z") {
            do {
                try DeflatedFile.compress(path, to: temporary, level: Self.compressionLevel)
            } catch {
                throw LandingError("\(relative): cannot compress into \(object): \(error)")
            }
        } else {
            // On disk before it is named: the download was written without a sync.
            guard let handle = FileHandle(forWritingAtPath: path), (try? handle.synchronize()) != nil,
                  (try? handle.close()) != nil else {
                throw LandingError("\(relative): cannot sync the downloaded file to disk")
            }
            guard link(path, temporary) == 0 else {
                throw LandingError("\(relative): cannot land the file: \(String(cString: strerror(errno)))")
            }
        }
        guard link(temporary, target) == 0 || errno == EEXIST else {
            throw LandingError("\(relative): cannot land the file as \(object): \(String(cString: strerror(errno)))")
        }
        // Linked, the staging name is the object's second: gone before a `discard` could empty the object through it.
        if !object.hasSuffix(".z") { unlink(path) }
        return LandedArtifact(relativePath: relative, object: object, size: size, sha256: sha256)
    }

    /// A staged file's sha256 and size.
    private static func digest(of path: String) throws -> (String, Int) {
        (try SHA256.hexDigest(ofFile: path), FileStatus.size(atPath: path) ?? 0)
    }

    /// The artifact of bytes whose object is already there (the caller's `discard` lets go of the staging file); nil
    /// when there is none. The object is touched so `prune`'s grace period covers it: a prune deciding now must not
    /// take an object a run is about to name in its manifest (fetch does not take the data directory's lock).
    private func reuse(relative: String, name: String, sha256: String, size: Int) -> LandedArtifact? {
        let object = Self.objectName(sha256: sha256, artifactName: name)
        guard utimes((landingDirectory as NSString).appendingPathComponent(object), nil) == 0 else { return nil }
        return LandedArtifact(relativePath: relative, object: object, size: size, sha256: sha256)
    }

    /// Lets go of a staging file once its bytes landed or will not: the file, emptied, waits for the next download
    /// of the run (`stagingPath`) instead of being unlinked, since an unchanged night stages ~650 bodies that are
    /// all already landed, and creating a file was most of what staging one cost (ext4 inode allocation, 13 % of the
    /// night's CPU). A file linked into place as an object (`commit`) is gone already; the idle ones go with the run.
    public func discard(staged path: String) {
        guard truncate(path, 0) == 0 else { return }
        let kept = idleStaging.withLock { idle -> Bool in
            guard idle.count < Self.idleStagingLimit else { return false }
            idle.append(path)
            return true
        }
        if !kept { unlink(path) }
    }

    /// Idle staging files kept at most (one per download under way is enough; the fetch runs 8 at once by default).
    static let idleStagingLimit = 32

    /// Unlinks the idle staging files (the run's end, or the landing zone let go of without one).
    private func removeIdleStaging() {
        for path in idleStaging.withLock({ idle -> [String] in defer { idle = [] }; return idle }) { unlink(path) }
    }

    deinit { removeIdleStaging() }

    /// Adds or replaces an artifact's entry; rewrites the manifest when it was last written `manifestWriteInterval` ago or more.
    public func record(_ entry: ManifestEntry) throws {
        try manifest.withLock { manifest in
            // One entry per artifact: a Yardi operation asked for several months (GetResidentLeaseCharges_Login's
            // PostMonth) is one artifact per month, a ledger asked for in parts one artifact per part.
            manifest.artifacts.removeAll {
                $0.pms == entry.pms && $0.property == entry.property && $0.report == entry.report && $0.operation == entry.operation
                    && $0.asOfRequested == entry.asOfRequested && $0.ledger == entry.ledger
            }
            manifest.artifacts.append(entry)
            // A run that dies between writes loses at most five seconds of entries: their objects are on disk, and
            // the next run fetches those artifacts again.
            let now = Date()
            guard now.timeIntervalSince(lastWritten.withLock { $0 }) >= Self.manifestWriteInterval else { return }
            try write(manifest)
            lastWritten.withLock { $0 = now }
        }
    }

    /// Stamps the end of the run into the manifest; the idle staging files go.
    public func finish(now: Date = Date()) throws {
        removeIdleStaging()
        try manifest.withLock { manifest in
            manifest.finishedAt = Timestamp.iso(now, milliseconds: true)
            try write(manifest)
        }
    }

    /// The manifest as it stands.
    public var snapshot: RunManifest { manifest.withLock { Self.ordered($0) } }

    /// The manifest with its artifacts in reading order (system, property, file name). Entries are appended as they
    /// land and ordered only when the manifest is written or read: sorting on every entry, by a key built through
    /// NSString path calls, was half of an unchanged night's CPU at 30 properties (650 artifacts).
    static func ordered(_ manifest: RunManifest) -> RunManifest {
        var manifest = manifest
        manifest.artifacts = manifest.artifacts.map { (key: ($0.pms, $0.property, $0.artifactName), entry: $0) }
            .sorted { $0.key < $1.key }.map(\.entry)
        return manifest
    }

    private func write(_ manifest: RunManifest) throws {
        let manifest = Self.ordered(manifest)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let temporary = manifestPath + ".tmp-\(UUID().uuidString.prefix(8))"
        do {
            let data = try encoder.encode(manifest)
            guard FileManager.default.createFile(atPath: temporary, contents: data + Data("\n".utf8)),
                  let handle = FileHandle(forWritingAtPath: temporary) else {
                throw LandingError("cannot create \(temporary)")
            }
            try handle.synchronize()
            try handle.close()
        } catch {
            unlink(temporary)
            throw LandingError("\(manifestPath): cannot write the manifest: \(error)")
        }
        guard rename(temporary, manifestPath) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw LandingError("\(manifestPath): cannot replace the manifest: \(reason)")
        }
    }

    static func head(of path: String, bytes: Int) -> [UInt8] {
        guard let handle = FileHandle(forReadingAtPath: path) else { return [] }
        defer { try? handle.close() }
        return [UInt8]((try? handle.read(upToCount: bytes)) ?? Data())
    }

    /// One line of readable text from an error body: tags dropped, whitespace collapsed, secrets redacted.
    static func excerpt(_ bytes: [UInt8], redactor: Redactor, limit: Int = 160) -> String {
        var text = String(decoding: bytes.prefix(2048), as: UTF8.self)
        if let regex = try? NSRegularExpression(pattern: "<[^>]*>") {
            text = regex.stringByReplacingMatches(in: text, range: NSRange(text.startIndex..., in: text), withTemplate: " ")
        }
        let words = text.split(whereSeparator: { $0.isWhitespace || $0.isNewline || $0.asciiValue.map { $0 < 0x20 } == true })
        var line = redactor.redact(words.joined(separator: " "))
        if line.count > limit { line = String(line.prefix(limit)) + "..." }
        return line
    }
}
