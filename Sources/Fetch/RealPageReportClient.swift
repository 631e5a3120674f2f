import CurlKit
import Foundation
import OwnerDashCore
import XLSXKit

/// How the RealPage report flow talks to the server: base URL, retries, polling bounds.
public struct RealPageReportSettings: Sendable {
    /// Reporting REST base, e.g. `https://reportingapi.realpage.com/v1` (no trailing slash).
    public var baseURL: String
    public var http: HTTPClientSettings
    /// Polls of `/my/report-instances` before a report is given up as not ready.
    public var pollLimit = 60
    /// First wait before a poll, seconds; each later wait is 1.5 times longer, up to `pollMaxInterval`.
    public var pollInterval = 0.25
    public var pollMaxInterval = 5.0
    /// Earlier end dates tried when the server answers with the error-as-report file.
    public var earlierDays = 3
    /// Concurrent requests allowed to one host, whatever the number of worker threads.
    public var perHostLimit = 8
    public var expected = ExpectedContent.report
    /// The account the reports are asked as, for remembering which of a report's ids it answered under
    /// (`ReportIDMemory`): the registry's PMC id at the API's host.
    public var account: String

    public init(baseURL: String, pmcID: String = "") {
        var trimmed = baseURL
        while trimmed.hasSuffix("/") { trimmed.removeLast() }
        self.baseURL = trimmed
        account = "\(pmcID)@\(HTTPRequest(url: trimmed).host)"
        var http = HTTPClientSettings()
        http.connectTimeout = 10
        http.totalTimeout = 300  // a large rent roll over a slow link
        // One more attempt than CurlKit's default: a report costs three requests, each may meet a 429/5xx.
        http.retry = RetryPolicy(maxAttempts: 5, baseDelay: 0.5, maxDelay: 30)
        self.http = http
    }

    /// `OWNERDASH_REALPAGE_REPORTS_URL` when set, else the configuration's `realpage.reports_url`.
    public static func baseURL(configuration: Configuration, environment: [String: String]) -> String {
        if let url = environment["OWNERDASH_REALPAGE_REPORTS_URL"], !url.isEmpty { return url }
        return configuration.realpage.reportsURL
    }
}

/// One report download that failed; the message names the step and the reason, never a secret.
public struct ReportFetchError: Error, CustomStringConvertible, Sendable {
    public var description: String
    /// True when the token was refused even after a refresh.
    public var isAuthentication: Bool

    init(_ description: String, isAuthentication: Bool = false) {
        self.description = description
        self.isAuthentication = isAuthentication
    }

    static let tokenRefused = ReportFetchError(
        "RealPage token expired or invalid (refreshed once); set REALPAGE_TOKEN or REALPAGE_TOKEN_COMMAND",
        isAuthentication: true)
}

/// The RealPage Reporting REST flow (docs/onesite-reports.md, "Reporting REST API"): create a report instance, poll
/// until it is ready, download its file into the landing zone.
///
/// A 401 on any request refreshes the token once and repeats the request. A file that is really the
/// "Invalid end date entered" error-as-report is not landed; the report is requested again for the
/// previous day, up to `earlierDays` days back, and the manifest records the date that worked.
public final class RealPageReportClient: Sendable {
    public let settings: RealPageReportSettings
    private let tokens: TokenSource
    private let limiter: HostLimiter
    /// The instances this client's reports wait for, polled together.
    private let board = ReportInstanceBoard()

    public init(settings: RealPageReportSettings, tokens: TokenSource) {
        self.settings = settings
        self.tokens = tokens
        limiter = HostLimiter(perHost: settings.perHostLimit)
    }

    /// Fetches one report for one property as of `asOf` into `landing`, records it in the manifest and
    /// returns the entry (with `error` set when nothing landed). Never throws: a batch goes on. `slots`: the batch's
    /// places at work, lent to another artifact while the report waits for the server.
    func fetch(report: ReportDefinition, property: Property, asOf: LocalDate, into landing: LandingZone,
               slots: WorkSlots? = nil) -> ManifestEntry {
        let started = Date()
        var entry = ManifestEntry(pms: PMS.realpage.rawValue, property: property.key, report: report.parser,
                                  reportID: report.reportID, asOfRequested: asOf.iso, startedAt: Timestamp.iso(started, milliseconds: true))
        var counter = RequestCounter()
        do {
            let landed = try fetchLanding(report: report, property: property, asOf: asOf, landing: landing,
                                          slots: slots, entry: &entry, counter: &counter)
            entry.path = landed.relativePath
            entry.object = landed.object
            entry.size = landed.size
            entry.sha256 = landed.sha256
        } catch {
            entry.error = tokens.redactor.redact("\(error)")
        }
        let finished = Date()
        entry.attempts = counter.requests
        entry.finishedAt = Timestamp.iso(finished, milliseconds: true)
        entry.seconds = (finished.timeIntervalSince(started) * 1000).rounded() / 1000
        do {
            try landing.record(entry)
        } catch {
            entry.error = (entry.error.map { $0 + "; " } ?? "") + "\(error)"
        }
        return entry
    }

    // MARK: - The flow

    private func fetchLanding(report: ReportDefinition, property: Property, asOf: LocalDate, landing: LandingZone,
                              slots: WorkSlots?, entry: inout ManifestEntry,
                              counter: inout RequestCounter) throws -> LandedArtifact {
        guard let siteID = property.siteID else {
            throw ReportFetchError("property \(property.key) has no RealPage site_id in the registry")
        }
        guard !report.identities.isEmpty else {
            throw ReportFetchError(report.fetchRefusal(configPath: "the configuration") ?? "no report id or key")
        }
        let account = settings.account
        let identities = landing.reportIDs.ordered(report.identities, account: account, parser: report.parser)
        var notFound: [Int] = []
        for identity in identities {
            do {
                entry.reportID = identity.reportID
                let landed = try fetchLanding(report: report, identity: identity, property: property, siteID: siteID,
                                              asOf: asOf, landing: landing, slots: slots, entry: &entry,
                                              counter: &counter)
                let catalogueFirst = report.identities.first?.reportID
                if identity.reportID != catalogueFirst || !notFound.isEmpty {
                    let refused = notFound.isEmpty ? "" : "; \(notFound.map(String.init).joined(separator: ", ")) "
                        + "not found there"
                    entry.reportIDNote = "account \(account): \(report.name) answered as report \(identity.reportID)"
                        + "\(refused)"
                }
                try landing.reportIDs.remember(account: account, parser: report.parser, reportID: identity.reportID,
                                               first: catalogueFirst)
                return landed
            } catch let error as ReportNotFound {
                // A report with one id fails as it always did, with the server's words.
                if identities.count == 1 { throw ReportFetchError("create report instance: HTTP 404: \(error.detail)") }
                notFound.append(identity.reportID)
                entry.notes.append(error.description)
            }
        }
        throw ReportFetchError("account \(account) offers \(report.name) under none of its ids: "
                               + notFound.map { "report \($0) was not found" }.joined(separator: ", ")
                               + " (realpage.reports[\"\(report.parser)\"].report_id / alternates)")
    }

    /// The flow for one of the report's ids; `ReportNotFound` when the server does not offer the report under it.
    private func fetchLanding(report: ReportDefinition, identity: ReportIdentity, property: Property, siteID: String,
                              asOf: LocalDate, landing: LandingZone, slots: WorkSlots?, entry: inout ManifestEntry,
                              counter: inout RequestCounter) throws -> LandedArtifact {
        let ids = (id: identity.reportID, key: identity.reportKey)
        let name = "\(report.parser).xlsx"
        var date = asOf
        var refusedDates: [String] = []
        for _ in 0...settings.earlierDays {
            let instanceID = try createInstance(report: report, identity: identity, property: property, siteID: siteID,
                                                date: date, counter: &counter)
            let fileID = try waitUntilReady(instanceID: instanceID, reportID: ids.id, slots: slots, counter: &counter)
            var outcome: DownloadOutcome?
            // A 200 whose bytes are wrong (cut short, not a workbook) is downloaded again, twice at most:
            // the file is ready on the server, so a second copy usually arrives intact.
            for downloadTry in 1...3 {
                do {
                    outcome = try downloadChecked(report: report, ids: ids, instanceID: instanceID, fileID: fileID,
                                                  property: property, name: name, landing: landing, entry: &entry,
                                                  counter: &counter)
                    break
                } catch let error as ContentError where downloadTry < 3 {
                    entry.notes.append("download \(downloadTry): \(error.description); downloading again")
                } catch let error as ContentError {
                    throw ReportFetchError(error.description)
                }
            }
            switch outcome {
            case .landed(let landed)?:
                entry.asOf = date.iso
                return landed
            case .errorAsReport(let message)?:
                refusedDates.append(date.iso)
                entry.notes.append("\(date.iso): the server sent an error-as-report (\"\(message)\"); trying \(date.adding(days: -1).iso)")
                date = date.adding(days: -1)
            case nil:
                throw ReportFetchError("download report file: no file")
            }
        }
        throw ReportFetchError("the server answered every date from \(refusedDates.first ?? asOf.iso) back to \(refusedDates.last ?? asOf.iso) "
                               + "with \"Invalid end date entered\" (the property date lags more than \(settings.earlierDays) days?)")
    }

    /// What one download turned out to be.
    private enum DownloadOutcome {
        case landed(LandedArtifact)
        case errorAsReport(String)
    }

    /// A 200 response whose bytes are not the report; worth downloading again.
    private struct ContentError: Error, CustomStringConvertible {
        var description: String
    }

    /// Downloads into a staging file, checks it and lands it; the staging file never outlives the call.
    private func downloadChecked(report: ReportDefinition, ids: (id: Int, key: String), instanceID: String, fileID: String,
                                 property: Property, name: String, landing: LandingZone, entry: inout ManifestEntry,
                                 counter: inout RequestCounter) throws -> DownloadOutcome {
        let staged = try landing.stagingPath(pms: .realpage, property: property.key, name: name)
        defer { landing.discard(staged: staged) }
        let response = try download(ids: ids, instanceID: instanceID, fileID: fileID, property: property,
                                    to: staged, counter: &counter)
        entry.url = response.url
        entry.httpStatus = response.status
        guard response.status == 200 else {
            // Not retried here: CurlKit already retried 429/5xx, and other statuses are answers.
            do {
                _ = try LandingZone.check(staged: staged, status: response.status, expected: settings.expected, redactor: tokens.redactor)
            } catch {
                throw ReportFetchError("download report file: \(error)")
            }
            throw ReportFetchError("download report file: HTTP \(response.status)")
        }
        let digest = landing.digest(staged: staged)
        if let digest, let earlier = landing.alreadyLanded(digest, pms: .realpage, property: property.key, name: name) {
            return .landed(earlier)
        }
        // A PDF is the format saved with the report at that property: downloading it again brings the same PDF.
        if FileKind.sniff(LandingZone.head(of: staged, bytes: 16)) == .pdf {
            throw ReportFetchError(Self.pdfRefusal(report: report, property: property, fileName: response.fileName,
                                                   size: response.size))
        }
        do {
            _ = try LandingZone.check(staged: staged, status: 200, expected: settings.expected, redactor: tokens.redactor)
            if let message = try Self.errorAsReport(at: staged) { return .errorAsReport(message) }
        } catch {
            throw ContentError(description: "\(error)")
        }
        return .landed(try landing.commit(staged: staged, pms: .realpage, property: property.key, name: name, digest: digest))
    }

    private func createInstance(report: ReportDefinition, identity: ReportIdentity, property: Property, siteID: String,
                                date: LocalDate, counter: inout RequestCounter) throws -> String {
        var asked = report
        asked.formatCode = identity.formatCode ?? report.formatCode
        let body = CreateInstanceBody(report: asked, reportKey: identity.reportKey, property: property, siteID: siteID,
                                      parameters: RealPageReportParameters.parameters(for: report, asOf: date))
        let response = try send(step: "create report instance", path: "/reports/\(identity.reportID)/report-instances",
                                body: body, counter: &counter)
        // `404 {"message": "Report 4299 was not found"}`: this account does not offer the report under that id.
        if response.status == 404 {
            throw ReportNotFound(reportID: identity.reportID, detail: excerpt(response.body))
        }
        guard response.status == 200 || response.status == 201 else {
            throw stepFailure("create report instance", response)
        }
        guard let created = try? JSONDecoder().decode(CreatedInstance.self, from: Data(response.body)),
              let id = created.instanceId?.value ?? created.reportInstanceId?.value else {
            throw ReportFetchError("create report instance: the answer has no instanceId: \(excerpt(response.body))")
        }
        return id
    }

    /// Waits until the instance is completed (status 3) with a file id: after each wait, the first poll of the
    /// instance list started since answers (ReportInstanceBoard: one poll for every report whose wait ended before
    /// it started, where each report polled for itself). The waits lend this artifact's place in the batch to another.
    private func waitUntilReady(instanceID: String, reportID: Int, slots: WorkSlots?,
                                counter: inout RequestCounter) throws -> String {
        var interval = settings.pollInterval
        var waited = 0.0
        board.watch(instanceID)
        defer { board.forget(instanceID) }
        func lending<T>(_ body: () throws -> T) rethrows -> T { try slots.map { try $0.lending(body) } ?? body() }
        for _ in 0..<settings.pollLimit {
            lending { Thread.sleep(forTimeInterval: interval) }
            waited += interval
            interval = min(settings.pollMaxInterval, interval * 1.5)
            let seen = try lending {
                try board.status(of: instanceID, after: DispatchTime.now().uptimeNanoseconds) { instances in
                    try pollInstances(instances, counter: &counter)
                }
            }
            if let seen, seen.status == 3, let fileID = seen.fileID { return fileID }
        }
        throw ReportFetchError("report \(reportID) instance \(instanceID) was not ready after \(settings.pollLimit) polls "
                               + "(\(Int(waited.rounded())) s); the report server may be busy, try again later")
    }

    /// One poll of `/my/report-instances`: pages of the list, newest first, until every instance asked for is found or
    /// the list ends (20 pages at most: a busy account can push an instance past page 1). Returns what it says of
    /// those found.
    private func pollInstances(_ instances: [String],
                               counter: inout RequestCounter) throws -> [String: ReportInstanceBoard.Seen] {
        let today = LocalDate(daysSinceEpoch: Int((Date().timeIntervalSince1970 / 86_400).rounded(.down)))
        let wanted = Set(instances)
        var found: [String: ReportInstanceBoard.Seen] = [:]
        for page in 1...20 {
            let body = ListInstancesBody(pageNumber: page, startDate: today.adding(days: -2).iso + "T00:00:00.000Z",
                                         endDate: today.adding(days: 1).iso + "T23:59:59.999Z")
            let response = try send(step: "poll report instances", path: "/my/report-instances", body: body, counter: &counter)
            guard response.status == 200 else { throw stepFailure("poll report instances", response) }
            guard let list = try? JSONDecoder().decode(InstanceList.self, from: Data(response.body)) else {
                throw ReportFetchError("poll report instances: not the expected JSON: \(excerpt(response.body))")
            }
            for item in list.data {
                for id in [item.sourceReportInstanceId?.value, item.reportInstanceId?.value].compactMap({ $0 })
                where wanted.contains(id) && found[id] == nil {
                    found[id] = ReportInstanceBoard.Seen(status: item.status, fileID: item.reportFileId?.value)
                }
            }
            guard found.count < wanted.count, page * body.pageSize < (list.totalCount ?? 0) else { break }
        }
        return found
    }

    private func download(ids: (id: Int, key: String), instanceID: String, fileID: String, property: Property,
                          to staged: String, counter: inout RequestCounter) throws
        -> (status: Int, url: String, fileName: String?, size: Int) {
        let body = DownloadBody(reportId: ids.id, reportKey: ids.key, fileId: fileID, propertyName: property.name)
        let path = "/reports/\(ids.id)/report-instances/\(instanceID)/files"
        let response = try send(step: "download report file", path: path, body: body, destination: .file(staged), counter: &counter)
        return (response.status, tokens.redactor.redact(settings.baseURL + path),
                response.headers["content-disposition"].flatMap(Self.attachmentFileName), response.bodySize)
    }

    /// The file name of `attachment; filename="BoxScore_8880001.xls"` (quotes optional), nil without one.
    static func attachmentFileName(_ disposition: String) -> String? {
        guard let range = disposition.range(of: "filename=", options: .caseInsensitive) else { return nil }
        var name = disposition[range.upperBound...].prefix { $0 != ";" }.trimmingCharacters(in: .whitespaces)
        if name.hasPrefix("\"") { name = String(name.dropFirst().prefix { $0 != "\"" }) }
        return name.isEmpty ? nil : name
    }

    /// One line for a report that came as a PDF: which report, which property, the file the server named, and the
    /// setting to change. OneSite exports a report in the format saved with it at the property, so asking again
    /// brings the same PDF; nothing of it can be read.
    static func pdfRefusal(report: ReportDefinition, property: Property, fileName: String?, size: Int) -> String {
        let file = fileName.map { "\"\($0)\", " } ?? ""
        let id = report.reportID.map { " (report \($0))" } ?? ""
        return "\(report.name)\(id) for \(property.key) came as a PDF (\(file)\(size) bytes), not a spreadsheet: nothing "
            + "landed; save the report with its Excel format at the property in OneSite (format_code "
            + "\(report.formatCode ?? "not set") of realpage.reports[\"\(report.parser)\"] is the one asked for)"
    }

    // MARK: - Requests

    /// One JSON POST with retries (CurlKit) and the one-refresh 401 rule.
    private func send(step: String, path: String, body: some Encodable, destination: ResponseDestination = .memory,
                      counter: inout RequestCounter) throws -> HTTPResponse {
        let url = settings.baseURL + path
        let payload: [UInt8]
        do {
            payload = Array(try JSONEncoder().encode(body))
        } catch {
            throw ReportFetchError("\(step): cannot encode the request: \(error)")
        }
        var token = try tokens.token()
        var refreshed = false
        while true {
            let request = HTTPRequest(method: "POST", url: url, headers: [
                ("Authorization", "Bearer \(token)"),
                ("Content-Type", "application/json"),
                ("Accept", "application/json, application/octet-stream"),
                // The reporting API serves the RealPage web UI and checks where calls come from.
                ("Origin", "https://www.realpage.com"),
                ("Referer", "https://www.realpage.com/"),
            ], body: payload)
            let client = HTTPClient(settings: settings.http, redactor: tokens.redactor)
            let response: HTTPResponse
            if let reason = limiter.unreachableReason(request.host) {
                throw ReportFetchError("\(step): not tried: \(tokens.redactor.redact(reason))")
            }
            do {
                let result = try limiter.withPermit(host: request.host) {
                    try client.sendRetrying(request, to: destination)
                }
                counter.requests += result.attempts
                response = result.response
            } catch let error as HTTPError {
                limiter.noteFailure(request.host, error, attempts: settings.http.retry.maxAttempts)
                counter.requests += settings.http.retry.maxAttempts
                throw ReportFetchError("\(step): \(tokens.redactor.redact(error.message)) (\(tokens.redactor.redact(url)), after \(settings.http.retry.maxAttempts) attempts)")
            }
            guard response.status == 401 else { return response }
            guard !refreshed else { throw ReportFetchError.tokenRefused }
            refreshed = true
            do {
                token = try tokens.refresh(replacing: token)
            } catch {
                throw ReportFetchError("\(step): the token was refused and could not be refreshed: \(error)", isAuthentication: true)
            }
        }
    }

    private func stepFailure(_ step: String, _ response: HTTPResponse) -> ReportFetchError {
        let detail = excerpt(response.body)
        return ReportFetchError("\(step): HTTP \(response.status)" + (detail.isEmpty ? "" : ": \(detail)"))
    }

    private func excerpt(_ body: [UInt8]) -> String {
        LandingZone.excerpt(body, redactor: tokens.redactor)
    }

    // MARK: - Error-as-report

    /// How much of an HTML or CSV download the check for an error page reads (`errorAsReport`).
    static let errorPageHead = 64 * 1024

    /// The "Invalid end date entered ..." line when the workbook is RealPage's error-as-report, else nil.
    /// A workbook that cannot be read at all is an error: it would only fail later, at load.
    static func errorAsReport(at path: String) throws -> String? {
        do {
            // An HTML or CSV download is parsed whole when opened: its head holds the rows looked at (a 250 KB Lease
            // Details page parsed whole was a tenth of a night's fetch). Whole when the head makes no sheet (a page
            // whose first table starts past it).
            let workbook = try (try? SpreadsheetFile(path: path, head: Self.errorPageHead)) ?? SpreadsheetFile(path: path)
            guard !workbook.sheetNames.isEmpty else { throw ReportFetchError("the workbook has no sheets") }
            var rows = try workbook.sheet(at: 0).rows()
            // The message sits right under the title block; real reports have data by row 40.
            for _ in 0..<40 {
                guard let row = try rows.nextRow() else { break }
                for case .text(let text) in row.cells where text.contains("Invalid end date entered") {
                    return text.trimmingCharacters(in: .whitespacesAndNewlines)
                }
            }
            return nil
        } catch let error as ReportFetchError {
            throw error
        } catch {
            throw ReportFetchError("the download is not a readable report (.xlsx, .xls, HTML or CSV): \(error)")
        }
    }
}

/// The reporting API does not offer a report under the id asked (HTTP 404 to the create request), so the next of the
/// report's ids is tried.
struct ReportNotFound: Error, CustomStringConvertible {
    var reportID: Int
    var detail: String

    var description: String {
        "create report instance: HTTP 404 for report \(reportID)" + (detail.isEmpty ? "" : ": \(detail)")
    }
}

/// Requests made for one artifact, retries included.
struct RequestCounter {
    var requests = 0
}
