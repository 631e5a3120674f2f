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

/// The RealPage report downloads of a run (FetchBatch runs them with the SOAP calls).
public enum RealPageFetch {
    /// Every (property, report) pair, properties in the given order, reports in catalogue order.
    public static func jobs(properties: [Property], reports: [ReportDefinition]) -> [ReportJob] {
        properties.flatMap { property in reports.map { ReportJob(property: property, report: $0) } }
    }
}
