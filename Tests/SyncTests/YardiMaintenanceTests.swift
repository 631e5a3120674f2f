import Foundation
import OwnerDashCore
import SQLiteKit
@testable import Sync
import Testing

/// unified_work_orders from Yardi service requests (YardiMaintenance.swift), on hand-made raw rows.
@Suite struct YardiMaintenanceTests {
    @Test func completedRequestsCloseOnTheirCompletedTimeStampAndTheRestStayOpen() throws {
        let yardi = try YardiFixture()
        try yardi.loadedEverything()
        try yardi.unit("101", "Occupied No Notice", tenant: "t101")
        try yardi.serviceRequest("5001", unit: "101", status: "Completed", requestedAt: "2026-11-01T09:00:00",
                                 updatedAt: "2026-11-09T08:00:00", completedAt: "2026-11-04T17:30:00")
        // Closed without a Completed entry in its history: UpdateDate is when it closed.
        try yardi.serviceRequest("5002", unit: "101", category: "  ", status: "closed", requestedAt: "2026-10-30T23:50:00",
                                 updatedAt: "2026-11-02T07:00:00")
        try yardi.serviceRequest("5003", unit: "101", status: "On Hold", requestedAt: "2026-09-15T10:00:00")
        try yardi.serviceRequest("5004", unit: "101", status: "Cancelled", requestedAt: "2026-11-10T10:00:00")
        // Listed twice in one snapshot: the later row wins.
        try yardi.serviceRequest("5005", unit: "101", status: "Open", requestedAt: "2026-11-12T10:00:00")
        try yardi.serviceRequest("5005", unit: "101", status: "In Progress", requestedAt: "2026-11-12T10:00:00")
        let outcome = try #require(yardi.sync().first)
        #expect(outcome.error == nil)
        #expect(try yardi.rows("SELECT work_order_source FROM unified_properties") == [[.text(YardiMaintenance.source)]])
        #expect(try yardi.rows("""
            SELECT work_order_id, category, status, pms_status, opened_date, completed_date, days_to_complete
            FROM unified_work_orders ORDER BY work_order_id
            """) == [
            [.text("5001"), .text("Plumbing"), .text("closed"), .text("Completed"), .text("2026-11-01"), .text("2026-11-04"), .integer(3)],
            [.text("5002"), .text("General"), .text("closed"), .text("closed"), .text("2026-10-30"), .text("2026-11-02"), .integer(3)],
            [.text("5003"), .text("Plumbing"), .text("open"), .text("On Hold"), .text("2026-09-15"), .null, .null],
            [.text("5005"), .text("Plumbing"), .text("open"), .text("In Progress"), .text("2026-11-12"), .null, .null],
        ])
    }

    @Test func withoutAServiceRequestSnapshotThePropertyHasNoWorkOrderSource() throws {
        let yardi = try YardiFixture()
        try yardi.loaded("GetUnitInformation")
        try yardi.unit("101", "Occupied No Notice", tenant: "t101")
        let outcome = try #require(yardi.sync().first)
        #expect(outcome.error == nil)
        #expect(try yardi.rows("SELECT work_order_source FROM unified_properties") == [[.null]])
        #expect(outcome.warnings.contains { $0.check == "snapshot" && $0.subject == "GetServiceRequest_Search" && $0.actual == "none" })
    }
}
