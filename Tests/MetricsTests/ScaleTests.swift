import Foundation
import OwnerDashCore
import SQLiteKit
@testable import Metrics
import Testing

/// The latency targets of `query summary` on a portfolio-sized unified.db (500 properties x 300 units, as
/// scripts/bench/scale.sh builds): p50 under 10 ms for one property and under 200 ms for the portfolio, in process
/// (the command adds the process start). Runs only when OWNERDASH_METRICS_SCALE_DB names such a database.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["OWNERDASH_METRICS_SCALE_DB"] != nil))
struct ScaleTests {
    static func median(_ runs: Int, _ body: () throws -> Void) rethrows -> Double {
        var times: [Double] = []
        for _ in 0..<runs {
            let started = Date()
            try body()
            times.append(Date().timeIntervalSince(started) * 1000)
        }
        return times.sorted()[runs / 2]
    }

    @Test func summaryLatency() throws {
        let path = try #require(ProcessInfo.processInfo.environment["OWNERDASH_METRICS_SCALE_DB"])
        let database = try Database(path: path, mode: .readOnly)
        let keys = try Metrics.properties(database: database).map(\.key)
        try #require(keys.count >= 100, "a portfolio-sized unified.db has hundreds of properties")
        let one = try Self.median(21) { _ = try Metrics.summary(database: database, properties: [keys[keys.count / 2]]) }
        let all = try Self.median(7) { _ = SummaryRow.rollUp(try Metrics.summary(database: database, properties: keys)) }
        print("query summary p50: one property \(one) ms, \(keys.count) properties \(all) ms")
        #expect(one < 10)
        #expect(all < 200)
    }
}
