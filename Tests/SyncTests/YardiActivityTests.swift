import Foundation
import OwnerDashCore
import SQLiteKit
@testable import Sync
import Testing

/// unified_activity: the leasing funnel from guest cards, move-ins/outs, notices and renewals from residents.
@Suite struct YardiActivityTests {
    @Test func guestCardAndResidentEventsMapToOneEventTypeEach() throws {
        let yardi = try YardiFixture()
        try yardi.loadedEverything()
        // A prospect who leased: lead (first contact, whatever the channel) ... lease signed.
        try yardi.guestEvent("p1", "Email", "2026-11-01", firstContact: true, tenant: "t9")
        try yardi.guestEvent("p1", "Show", "2026-11-03", tenant: "t9")
        try yardi.guestEvent("p1", "Application", "2026-11-04", tenant: "t9")
        try yardi.guestEvent("p1", "Approve", "2026-11-05", tenant: "t9")
        try yardi.guestEvent("p1", "LeaseSign", "2026-11-06", tenant: "t9")
        // A walk-in: the first contact is the lead, the Show the same day the tour.
        try yardi.guestEvent("p2", "WalkIn", "2026-11-10", firstContact: true)
        try yardi.guestEvent("p2", "Show", "2026-11-10")
        try yardi.guestEvent("p2", "ApplicationDenied", "2026-11-12")
        // Follow-ups are other; an unknown type is other (and warned); after the property date: left out.
        try yardi.guestEvent("p3", "CallFromProspect", "2026-10-01", firstContact: true, source: "")
        try yardi.guestEvent("p3", "Email", "2026-10-05")
        try yardi.guestEvent("p3", "CancelApplication", "2026-10-07")
        try yardi.guestEvent("p3", "Teleport", "2026-10-08")
        try yardi.guestEvent("p3", "MoveIn", "2026-10-09")
        try yardi.guestEvent("p3", "Show", "2026-11-21")
        // Residents: the leasing prospect moves in after the property date (no move-in yet).
        try yardi.resident("t9", "Future", unit: "109", moveIn: "2026-12-01")
        try yardi.resident("t10", "Past", unit: "110", leaseFrom: "2025-03-01", moveIn: "2024-03-01",
                           moveOut: "2026-06-30", notice: "2026-05-15", first: "Dee", last: "Fox")
        try yardi.resident("t11", "Current", unit: "111", leaseFrom: "2026-02-01", moveIn: "2026-02-01")
        try yardi.resident("t11r", "Current", unit: "111", leaseFrom: "2026-02-01", moveIn: "2026-02-01", roommate: true)
        let outcome = try #require(yardi.sync().first)
        #expect(outcome.error == nil)

        let counts = try yardi.keyed("SELECT event_type, count(*) FROM unified_activity GROUP BY event_type")
            .mapValues { $0[0].integerValue ?? 0 }
        #expect(counts == ["lead": 3, "tour": 2, "application": 1, "approval": 1, "lease_signed": 1, "denial": 1,
                           "cancellation": 1, "other": 3, "move_in": 2, "move_out": 1, "notice": 1, "renewal": 1])

        let signed = try yardi.rows("""
            SELECT event_date, pms_event_type, unit_number, party_name, party_id, source, agent
            FROM unified_activity WHERE event_type = 'lead' AND party_id = 'p1'
            """)
        #expect(signed == [[.text("2026-11-01"), .text("Email"), .text("109"), .text("Diaz, Pat"), .text("p1"),
                            .text("Zillow"), .text("Alex Rivera")]])
        let lead3 = try yardi.rows("SELECT source FROM unified_activity WHERE party_id = 'p3' AND event_type = 'lead'")
        #expect(lead3 == [[.null]], "an empty TransactionSource is no source")

        let resident = try yardi.rows("""
            SELECT event_type, event_date, pms_event_type, unit_number, party_name, party_id
            FROM unified_activity WHERE party_id = 't10' ORDER BY event_date
            """).map { $0.map { $0.textValue ?? "" } }
        #expect(resident == [["move_in", "2024-03-01", "MoveInDate", "110", "Fox, Dee", "t10"],
                             ["renewal", "2025-03-01", "LeaseFromDate", "110", "Fox, Dee", "t10"],
                             ["notice", "2026-05-15", "NoticeDate", "110", "Fox, Dee", "t10"],
                             ["move_out", "2026-06-30", "MoveOutDate", "110", "Fox, Dee", "t10"]])

        let unknown = outcome.warnings.filter { $0.check == "guest_event_type" }
        #expect(unknown.map(\.subject) == ["Teleport"])
        #expect(unknown.first?.message.contains("'Teleport' (1 events)") == true)
    }
}
