import Foundation
import OwnerDashCore
import Testing

/// The one timestamp format: written as Foundation's ISO 8601 formatter writes it, parsed back to the same instant.
@Suite struct TimestampTests {
    static let instants: [Double] = [0, 951_782_400, 1_795_400_000.25, 1_795_443_199.999, 4_107_542_399.5, -86_400.5]

    @Test(arguments: instants)
    func writesWhatFoundationWrites(seconds: Double) {
        let date = Date(timeIntervalSince1970: seconds)
        let plain = ISO8601DateFormatter()
        plain.formatOptions = [.withInternetDateTime]
        #expect(Timestamp.iso(date) == plain.string(from: date))
        #expect(Timestamp.date(Timestamp.iso(date)) == Date(timeIntervalSince1970: seconds.rounded(.down)))
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        #expect(Timestamp.date(Timestamp.iso(date, milliseconds: true)) == fractional.date(from: Timestamp.iso(date, milliseconds: true)))
    }

    @Test func milliseconds() {
        #expect(Timestamp.iso(Date(timeIntervalSince1970: 1_795_400_000.05), milliseconds: true) == "2026-11-23T02:13:20.050Z")
        #expect(Timestamp.iso(Date(timeIntervalSince1970: 1_795_400_000), milliseconds: true) == "2026-11-23T02:13:20.000Z")
        #expect(Timestamp.minute(Date(timeIntervalSince1970: 1_795_400_000)) == "2026-11-23 02:13 UTC")
    }

    @Test func offsetsAndRefusals() {
        #expect(Timestamp.date("2027-03-01T04:30:00+02:00") == Timestamp.date("2027-03-01T02:30:00Z"))
        #expect(Timestamp.date("2027-03-01T00:30:00-02:00") == Timestamp.date("2027-03-01T02:30:00Z"))
        #expect(Timestamp.date("2027-03-01T02:30:00.5Z")?.timeIntervalSince1970 == (Timestamp.date("2027-03-01T02:30:00Z")?.timeIntervalSince1970 ?? 0) + 0.5)
        for bad in ["", "2027-03-01", "2027-03-01T02:30:00", "2027-02-30T02:30:00Z", "2027-03-01T24:00:00Z",
                    "2027-03-01T02:30:00.Z", "2027-03-01T02:30:00Zjunk", "2027-03-01 02:30:00Z", "tomorrow"] {
            #expect(Timestamp.date(bad) == nil, "\(bad)")
        }
    }
}
