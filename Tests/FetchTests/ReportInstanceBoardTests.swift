import Dispatch
import Foundation
import OwnerDashCore
import Testing
@testable import Fetch

/// Reports waiting for RealPage to build them share the polls of the instance list: one poll answers every report
/// whose wait ended before it started, never one whose wait ended after.
@Suite struct ReportInstanceBoardTests {
    @Test func reportsWaitingTogetherShareAPollAndEachGetsItsOwnInstance() throws {
        let board = ReportInstanceBoard()
        let instances = (1...8).map { "88810\($0)" }
        for instance in instances { board.watch(instance) }
        let polls = Locked(0)
        let answers = Locked([String: ReportInstanceBoard.Seen]())
        let group = DispatchGroup()
        // Eight reports whose waits ended at the same moment, each on its own thread (as in the fetch batch).
        let waitsEnded = DispatchTime.now().uptimeNanoseconds
        for instance in instances {
            group.enter()
            Thread {
                let seen = try? board.status(of: instance, after: waitsEnded) { asked in
                    polls.withLock { $0 += 1 }
                    Thread.sleep(forTimeInterval: 0.05)   // the request's round trip
                    return Dictionary(uniqueKeysWithValues: asked.map { ($0, .init(status: 3, fileID: "file-\($0)")) })
                }
                answers.withLock { $0[instance] = seen }
                group.leave()
            }.start()
        }
        group.wait()
        #expect(answers.withLock { $0 } == Dictionary(uniqueKeysWithValues: instances.map { ($0, .init(status: 3, fileID: "file-\($0)")) }))
        // Each report polling for itself made 8 requests; one poll answers them all.
        #expect(polls.withLock { $0 } == 1, "\(polls.withLock { $0 }) polls for 8 reports")
    }

    @Test func aPollStartedBeforeAReportsWaitEndedDoesNotAnswerIt() throws {
        let board = ReportInstanceBoard()
        board.watch("1")
        board.watch("2")
        let firstPollRunning = DispatchSemaphore(value: 0)
        let releaseFirstPoll = DispatchSemaphore(value: 0)
        let polls = Locked(0)
        // The server's view: instance 2 is still being built at the first poll, ready at the second.
        let poll: @Sendable ([String]) throws -> [String: ReportInstanceBoard.Seen] = { asked in
            let number = polls.withLock { count in count += 1; return count }
            if number == 1 {
                firstPollRunning.signal()
                releaseFirstPoll.wait()
            }
            return Dictionary(uniqueKeysWithValues: asked.map { ($0, .init(status: number == 1 ? 2 : 3, fileID: number == 1 ? nil : "f\($0)")) })
        }
        let first = Locked<ReportInstanceBoard.Seen?>(nil)
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) {
            first.withLock { $0 = try? board.status(of: "1", after: DispatchTime.now().uptimeNanoseconds, poll: poll) }
        }
        firstPollRunning.wait()
        // Instance 2's wait ends while the first poll is under way: it needs a poll started after that.
        let after = DispatchTime.now().uptimeNanoseconds
        DispatchQueue.global().async(group: group) { releaseFirstPoll.signal() }
        let second = try board.status(of: "2", after: after, poll: poll)
        group.wait()
        #expect(first.withLock { $0 } == .init(status: 2, fileID: nil))
        #expect(second == .init(status: 3, fileID: "f2"))
        #expect(polls.withLock { $0 } == 2)
    }

    @Test func aFailedPollFailsTheReportThatRanItAndTheNextWaiterPollsAgain() throws {
        let board = ReportInstanceBoard()
        board.watch("1")
        struct Refused: Error {}
        #expect(throws: Refused.self) {
            try board.status(of: "1", after: DispatchTime.now().uptimeNanoseconds) { _ in throw Refused() }
        }
        let seen = try board.status(of: "1", after: DispatchTime.now().uptimeNanoseconds) { asked in
            Dictionary(uniqueKeysWithValues: asked.map { ($0, .init(status: 3, fileID: "f")) })
        }
        #expect(seen == .init(status: 3, fileID: "f"))
    }
}
