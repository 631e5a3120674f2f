import Foundation
import OwnerDashCore

/// One artifact of a fetch run: a RealPage report download or a Yardi SOAP call.
public enum FetchJob: Sendable, Equatable {
    case report(ReportJob)
    case rpx(RPXJob)
    case yardi(YardiJob)

    /// The property the artifact belongs to.
    public var propertyKey: String {
        switch self {
        case .report(let job): job.property.key
        case .rpx(let job): job.property.key
        case .yardi(let job): job.property.key
        }
    }
}

/// Runs a mixed batch (reports and SOAP calls) on one bounded pool, so every PMS shares `--parallel`.
///
/// `parallel` counts the artifacts at work; a RealPage report spends most of its time waiting for the server to build
/// it (at least one poll interval, seconds on a real gateway), and lends its place meanwhile (WorkSlots), so up to
/// `reportsWaitingPerPlace` times as many reports can be waiting, polled together (ReportInstanceBoard).
public enum FetchBatch {
    /// Reports that may wait for the server per place at work (threads: `parallel` times this).
    static let reportsWaitingPerPlace = 4

    /// Fetches every job into `landing` and stamps the manifest finished. A job whose client is nil
    /// fails with a message (the caller builds the clients its jobs need). Entries come back in job order.
    public static func run(_ jobs: [FetchJob], asOf: LocalDate, reports: RealPageReportClient?, rpx: RPXClient? = nil, yardi: YardiClient?,
                           landing: LandingZone, parallel: Int,
                           progress: @escaping @Sendable (ManifestEntry, Int) -> Void = { _, _ in }) throws -> [ManifestEntry] {
        let results = Locked([ManifestEntry?](repeating: nil, count: jobs.count))
        let done = Locked(0)
        let slots = WorkSlots(parallel)
        let hasReports = jobs.contains { if case .report = $0 { true } else { false } }
        let width = hasReports ? parallel * reportsWaitingPerPlace : parallel
        WorkerPool.run(items: jobs.count, width: width) { index in slots.withSlot {
            let entry: ManifestEntry
            switch jobs[index] {
            case .report(let job):
                if let reports {
                    entry = reports.fetch(report: job.report, property: job.property, asOf: asOf, into: landing,
                                          slots: slots)
                } else {
                    entry = Self.unconfigured(pms: .realpage, property: job.property.key, report: job.report.parser, landing: landing)
                }
            case .rpx(let job):
                if let rpx {
                    entry = rpx.fetch(job.operation, property: job.property, asOf: asOf, into: landing, ledger: job.ledger)
                } else {
                    entry = Self.unconfigured(pms: .realpage, property: job.property.key, operation: job.operation.name, landing: landing)
                }
            case .yardi(let job):
                if let yardi {
                    entry = yardi.fetch(job.operation, property: job.property, asOf: asOf, into: landing,
                                        monthsBack: job.monthsBack, window: job.window)
                } else {
                    entry = Self.unconfigured(pms: .yardi, property: job.property.key, operation: job.operation.name, landing: landing)
                }
            }
            results.withLock { $0[index] = entry }
            done.withLock { count in
                count += 1
                progress(entry, count)
            }
        } }
        try landing.finish()
        return results.withLock { $0.compactMap { $0 } }
    }

    private static func unconfigured(pms: PMS, property: String, report: String? = nil, operation: String? = nil,
                                     landing: LandingZone) -> ManifestEntry {
        var entry = ManifestEntry(pms: pms.rawValue, property: property, report: report, operation: operation,
                                  startedAt: Timestamp.iso(Date(), milliseconds: true))
        entry.error = "no \(pms.rawValue) client was configured for this run"
        try? landing.record(entry)
        return entry
    }
}
