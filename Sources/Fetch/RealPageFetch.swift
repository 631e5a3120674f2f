import Foundation
import OwnerDashCore

/// One download of a run: a report of the catalogue for one property.
public struct ReportJob: Sendable, Equatable {
    public var property: Property
    public var report: ReportDefinition

    public init(property: Property, report: ReportDefinition) {
        self.property = property; self.report = report
    }
}

/// Runs a batch of RealPage report downloads on a bounded number of threads.
public enum RealPageFetch {
    /// Every (property, report) pair, properties in the given order, reports in catalogue order.
    public static func jobs(properties: [Property], reports: [ReportDefinition]) -> [ReportJob] {
        properties.flatMap { property in reports.map { ReportJob(property: property, report: $0) } }
    }

    /// Fetches every job into `landing`, `parallel` at a time, and stamps the manifest finished.
    /// `progress` is called once per job as it ends (from worker threads, one call at a time).
    /// Returns the entries in job order; a failed job's entry carries its error.
    public static func run(_ jobs: [ReportJob], asOf: LocalDate, client: RealPageReportClient, landing: LandingZone,
                           parallel: Int, progress: @escaping @Sendable (ManifestEntry, Int) -> Void = { _, _ in }) throws -> [ManifestEntry] {
        let results = Locked([ManifestEntry?](repeating: nil, count: jobs.count))
        let done = Locked(0)
        WorkerPool.run(items: jobs.count, width: parallel) { index in
            let job = jobs[index]
            let entry = client.fetch(report: job.report, property: job.property, asOf: asOf, into: landing)
            results.withLock { $0[index] = entry }
            done.withLock { count in
                count += 1
                progress(entry, count)
            }
        }
        try landing.finish()
        return results.withLock { $0.compactMap { $0 } }
    }
}
