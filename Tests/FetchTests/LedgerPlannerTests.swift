import Fetch
import Foundation
import OwnerDashCore
import SOAP
import Testing

/// How each night's tenant ledger fetch is decided from the run history, and cut into the calls the vendors accept.
@Suite struct LedgerPlannerTests {
    static func date(_ iso: String) -> LocalDate { LocalDate(iso: iso)! }
    static let schedule = LedgerSchedule(overlapDays: 7, fullRefreshDays: 7)
    static let yardi = Property(key: "yp_test", name: "Test", pms: .yardi, propertyCode: "ytest")
    static let realpage = Property(key: "rp_test", name: "Test", pms: .realpage, siteID: "100")

    @Test func theFirstPullIsFull() {
        let plan = LedgerPlanner.plan(history: LedgerHistory(lastSuccess: nil, lastFull: nil), asOf: Self.date("2026-11-20"),
                                      schedule: Self.schedule)
        #expect(plan.isFull && plan.windowedCalls == nil, "\(plan)")
        #expect(plan.summary.hasPrefix("full (first pull"))
    }

    @Test func theNextNightFetchesFromTheLastSuccessLessTheOverlap() {
        let plan = LedgerPlanner.plan(history: LedgerHistory(lastSuccess: Self.date("2026-11-19"), lastFull: Self.date("2026-11-19")),
                                      asOf: Self.date("2026-11-20"), schedule: Self.schedule)
        #expect(plan == .incremental(LedgerWindow(from: Self.date("2026-11-12"), to: Self.date("2026-11-20"))))
        let wider = LedgerPlanner.plan(history: LedgerHistory(lastSuccess: Self.date("2026-11-19"), lastFull: Self.date("2026-11-19")),
                                       asOf: Self.date("2026-11-20"), schedule: LedgerSchedule(overlapDays: 3, fullRefreshDays: 7))
        #expect(wider.window?.from == Self.date("2026-11-16"), "the overlap is configurable")
    }

    @Test func aFailedNightWidensTheNextWindowBackToTheLastSuccess() {
        // The 19th failed: the history's last success is still the 18th, so the 20th reaches back from there.
        let plan = LedgerPlanner.plan(history: LedgerHistory(lastSuccess: Self.date("2026-11-18"), lastFull: Self.date("2026-11-16")),
                                      asOf: Self.date("2026-11-20"), schedule: Self.schedule)
        #expect(plan.window == LedgerWindow(from: Self.date("2026-11-11"), to: Self.date("2026-11-20")))
    }

    @Test func aFullRefreshComesOnScheduleAndReconcilesWithTheWindow() {
        let history = LedgerHistory(lastSuccess: Self.date("2026-11-19"), lastFull: Self.date("2026-11-13"))
        let due = LedgerPlanner.plan(history: history, asOf: Self.date("2026-11-20"), schedule: Self.schedule)
        #expect(due == .full(reason: "scheduled refresh: the last full pull, as of 2026-11-13, is 7 days old (every 7)",
                             reconcile: LedgerWindow(from: Self.date("2026-11-12"), to: Self.date("2026-11-20")), refresh: true))
        #expect(due.isRefresh, "the night's sync is checked against a full rebuild")
        let notYet = LedgerPlanner.plan(history: history, asOf: Self.date("2026-11-19"), schedule: Self.schedule)
        #expect(!notYet.isFull, "six days after the last full pull")
        let monthly = LedgerPlanner.plan(history: history, asOf: Self.date("2026-11-20"),
                                         schedule: LedgerSchedule(overlapDays: 7, fullRefreshDays: 30))
        #expect(!monthly.isFull, "full_refresh_days 30")
        let always = LedgerPlanner.plan(history: history, asOf: Self.date("2026-11-20"),
                                        schedule: LedgerSchedule(overlapDays: 7, fullRefreshDays: 0))
        #expect(always.isFull, "full_refresh_days 0: every night")
        let asked = LedgerPlanner.plan(history: LedgerHistory(lastSuccess: Self.date("2026-11-19"), lastFull: Self.date("2026-11-19")),
                                       asOf: Self.date("2026-11-20"), schedule: Self.schedule, forceFull: true)
        #expect(asked.isFull && asked.windowedCalls?.from == Self.date("2026-11-12") && asked.isRefresh)
        let past = LedgerPlanner.plan(history: history, asOf: Self.date("2026-10-01"), schedule: Self.schedule)
        #expect(past.isFull && past.windowedCalls == nil && !past.isRefresh, "a run for a date before the last success is pulled whole")
    }

    /// Issue 36: the weekly refresh spread over the week. 70 properties ingested every night for 8 weeks: after the
    /// first night (every ledger new) every night of the second week on pulls exactly a seventh of them whole, each
    /// property's full pulls come exactly 7 days apart.
    @Test func theWeeklyRefreshIsSpreadOverTheWeekAndStablePerProperty() {
        let keys = (1...70).map { "property_\($0)" }
        let slots = LedgerPlanner.refreshSlots(keys, every: 7)
        let (fullsPerNight, fullDays) = Self.nights(keys, slots: slots, count: 56)
        #expect(fullsPerNight[0] == 70, "the first night pulls every ledger whole")
        #expect(fullsPerNight.dropFirst().allSatisfy { $0 <= 10 }, "no night pulls more than a seventh whole: \(fullsPerNight)")
        #expect(fullsPerNight.dropFirst(7).allSatisfy { $0 == 10 }, "every night of every later week pulls a seventh")
        #expect(fullsPerNight.dropFirst(7).reduce(0, +) == 70 * 7, "each property once a week")
        for key in keys {
            let days = fullDays[key]!.dropFirst()
            #expect(zip(days, days.dropFirst()).allSatisfy { $1 - $0 == 7 }, "\(key): \(days)")
            #expect(days.first! <= 7, "\(key): its first refresh within the first week")
            #expect(days.allSatisfy { Self.start.adding(days: $0).daysSinceEpoch % 7 == slots[key]!.night })
        }
    }

    /// A failed night (every source down) leaves its share of the weekly refresh undone. The nights after it catch
    /// that share up one property a night on top of their own, never both shares on one night (which had made the
    /// night after a failure, or the night the age rule fell on, cost double: 8 ledgers whole instead of 4 in a
    /// `year.sh` run of the 30), and each before the property's next night comes; then the week is as before.
    @Test func aMissedNightsRefreshIsCaughtUpOnePropertyANight() {
        for count in [30, 70, 500] {
            let keys = (1...count).map { "property_\($0)" }
            let slots = LedgerPlanner.refreshSlots(keys, every: 7)
            let share = (count + 6) / 7, failed = 17
            let (fullsPerNight, fullDays) = Self.nights(keys, slots: slots, count: 35, failed: [failed])
            let missed = keys.filter { Self.start.adding(days: failed).daysSinceEpoch % 7 == slots[$0]!.night }
            #expect(!missed.isEmpty && fullsPerNight[failed] == 0)
            let extra = (missed.count + 5) / 6
            #expect(fullsPerNight[(failed + 1)...].allSatisfy { $0 <= share + extra },
                    "\(count): no night after the failed one pulls more than its share and \(extra) more: \(fullsPerNight)")
            #expect(fullsPerNight[(failed + 1)..<(failed + 7)].reduce(0, +) == count,
                    "\(count): the six nights after it pull every ledger whole once, the missed ones too")
            for key in missed {
                let caughtUp = fullDays[key]!.first { $0 > failed }!
                #expect(caughtUp < failed + 7, "\(key): caught up at night \(caughtUp), before its next night (\(failed + 7))")
                #expect(fullDays[key]!.contains(failed + 7), "\(key): its own night again the week after")
            }
            #expect(fullsPerNight[(failed + 7)...].allSatisfy { $0 <= share }, "\(count): the week after, a share a night")
        }
    }

    static let start = date("2026-01-05")

    /// `count` nights of `keys` ingested from `start`, but the nights in `failed`, which plan nothing and change no
    /// history: how many ledgers each night pulled whole, and the nights each property did.
    static func nights(_ keys: [String], slots: [String: RefreshSlot], count: Int,
                       failed: Set<Int> = []) -> (perNight: [Int], days: [String: [Int]]) {
        var history = Dictionary(uniqueKeysWithValues: keys.map { ($0, LedgerHistory(lastSuccess: nil, lastFull: nil)) })
        var fullDays: [String: [Int]] = [:]
        var fullsPerNight: [Int] = []
        for night in 0..<count {
            let asOf = start.adding(days: night)
            var fulls = 0
            for key in keys where !failed.contains(night) {
                let plan = LedgerPlanner.plan(history: history[key]!, asOf: asOf, schedule: schedule, slot: slots[key])
                if plan.isFull { fulls += 1; fullDays[key, default: []].append(night) }
                history[key] = LedgerHistory(lastSuccess: asOf, lastFull: plan.isFull ? asOf : history[key]!.lastFull)
            }
            fullsPerNight.append(fulls)
        }
        return (fullsPerNight, fullDays)
    }

    /// The nights are the registry's, whatever its size or order: 30 properties (the demo's) give 4 or 5 a night
    /// (a hash of each key alone had put 7 on one night and 2 on another), listed in any order or twice the same.
    @Test func everyNightOfTheCycleGetsItsShareOfTheRegistry() {
        let keys = (1...30).map { "property_\($0)" }
        let slots = LedgerPlanner.refreshSlots(keys, every: 7)
        let perNight = Dictionary(grouping: slots.values, by: \.night).mapValues(\.count)
        #expect(perNight.keys.sorted() == Array(0..<7) && perNight.values.allSatisfy { $0 == 4 || $0 == 5 }, "\(perNight)")
        #expect(LedgerPlanner.refreshSlots(keys.reversed() + keys, every: 7) == slots)
        #expect(Set(LedgerPlanner.refreshSlots(keys, every: 1).values.map(\.night)) == [0])
    }

    @Test func windowsAreCutIntoCallsOfAtMost31Days() {
        let window = LedgerWindow(from: Self.date("2026-09-01"), to: Self.date("2026-11-20"))
        let chunks = LedgerPlanner.chunks(window, maxSpan: YardiOperation.ledgerWindowDays - 1)
        #expect(chunks.map(\.description) == ["2026-09-01_2026-10-01", "2026-10-02_2026-11-01", "2026-11-02_2026-11-20"])
        #expect(chunks.allSatisfy { $0.span <= 30 })
        #expect(LedgerPlanner.chunks(LedgerWindow(from: Self.date("2026-11-20"), to: Self.date("2026-11-20")), maxSpan: 30).count == 1)
    }

    @Test func anIncrementalYardiNightCallsTheWindowedOperationsInsteadOfTheWholeLedger() {
        let window = LedgerWindow(from: Self.date("2026-10-01"), to: Self.date("2026-11-20"))
        let jobs = YardiFetch.jobs(properties: [Self.yardi], operations: [.getUnitInformation, .getResidentTransactions],
                                   ledger: [Self.yardi.key: .incremental(window)])
        #expect(jobs.map(\.operation) == [.getUnitInformation, .getResidentTransactionsByChargeDate,
                                          .getResidentTransactionsByChargeDate, .getResidentTransactionsByApplicationDate,
                                          .getResidentTransactionsByApplicationDate])
        #expect(jobs.compactMap(\.window).map(\.description)
                == ["2026-10-01_2026-10-31", "2026-11-01_2026-11-20", "2026-10-01_2026-10-31", "2026-11-01_2026-11-20"])
        let refresh = YardiFetch.jobs(properties: [Self.yardi], operations: [.getResidentTransactions],
                                      ledger: [Self.yardi.key: .full(reason: "test", reconcile: window)])
        #expect(refresh.last?.operation == .getResidentTransactions && refresh.last?.window == nil && refresh.count == 5,
                "a reconciling full pull: the windows first, then the whole ledger")
        #expect(YardiFetch.jobs(properties: [Self.yardi], operations: [.getResidentTransactions]).map(\.operation)
                == [.getResidentTransactions], "no plan: the whole ledger, as a bare fetch")
    }

    /// Lease charges are asked for by post month: every one of the 24 on a full pull, on an incremental night only
    /// the months the window touches (a closed month's schedule does not change; the sync reads each charge as its
    /// latest snapshot stated it).
    @Test func anIncrementalNightAsksOnlyForTheLeaseChargeMonthsItsWindowTouches() {
        func months(_ plan: LedgerFetch?) -> [Int] {
            YardiFetch.jobs(properties: [Self.yardi], operations: [.getResidentLeaseCharges],
                            ledger: plan.map { [Self.yardi.key: $0] } ?? [:]).map(\.monthsBack)
        }
        #expect(months(nil) == Array(0..<24), "a bare fetch: the whole window")
        #expect(months(.full(reason: "first pull", reconcile: nil)) == Array(0..<24))
        #expect(months(.incremental(LedgerWindow(from: Self.date("2026-11-13"), to: Self.date("2026-11-20")))) == [0])
        #expect(months(.incremental(LedgerWindow(from: Self.date("2026-10-28"), to: Self.date("2026-11-04")))) == [0, 1],
                "a window over a month end: both months")
        #expect(months(.incremental(LedgerWindow(from: Self.date("2024-01-01"), to: Self.date("2026-11-20")))) == Array(0..<24),
                "never more than the full window")
    }

    @Test func theWindowedYardiRequestCarriesFromDateAndToDate() {
        let login = YardiLogin(username: "u", password: "p", serverName: "s", database: "d", interfaceEntity: "e",
                               interfaceLicense: "l")
        let request = YardiOperation.getResidentTransactionsByChargeDate.request(
            baseURL: "https://example.test/ws", interfaceName: "ItfResidentTransactions20", login: login, propertyCode: "p1",
            asOfYear: 2026, asOfMonth: 11, window: ("2026-11-01", "2026-11-20"))
        let body = String(decoding: request.body, as: UTF8.self)
        #expect(body.contains("<YardiPropertyId>p1</YardiPropertyId><FromDate>2026-11-01T00:00:00</FromDate><ToDate>2026-11-20T00:00:00</ToDate><InterfaceEntity>"),
                "\(body)")
        #expect(request.soapAction.hasSuffix("/GetResidentTransactions_ByChargeDate_Login"))
        #expect(!YardiOperation.catalogue.contains(.getResidentTransactionsByApplicationDate))
    }

    @Test func anIncrementalRPXNightAsksForTheWindowAndTheOpenCharges() {
        let window = LedgerWindow(from: Self.date("2026-11-12"), to: Self.date("2026-11-20"))
        let jobs = RPXJob.jobs(property: Self.realpage, operations: [.unitlist, .getresidentledger], ledger: .incremental(window))
        #expect(jobs.map(\.operation) == [.unitlist, .getresidentledger, .getresidentledger])
        #expect(jobs.map(\.ledger) == [nil, LedgerScope(part: .dated, from: "2026-11-12", to: "2026-11-20"),
                                       LedgerScope(part: .openItems)])
        let arguments = SOAPEnvelope.build(operation: "getresidentledger", namespace: RPXOperation.namespace,
                                           parameters: RPXOperation.ledgerArguments(from: "2026-11-12", to: "2026-11-20",
                                                                                    openItems: false))
        let body = String(decoding: arguments, as: UTF8.self)
        #expect(body.contains("<startdate>2026-11-12</startdate><enddate>2026-11-20</enddate><allopen>false</allopen>"), "\(body)")
    }

    @Test func theScheduleComesFromTheConfigurationAndTheEnvironmentWins() throws {
        let configured = Configuration.Ledger(overlapDays: 3, fullRefreshDays: 14)
        #expect(try LedgerSchedule(configured: configured, environment: [:]) == LedgerSchedule(overlapDays: 3, fullRefreshDays: 14))
        #expect(try LedgerSchedule(configured: nil, environment: [:]) == LedgerSchedule.standard)
        #expect(try LedgerSchedule(configured: configured, environment: ["OWNERDASH_LEDGER_FULL_REFRESH_DAYS": "1"])
                == LedgerSchedule(overlapDays: 3, fullRefreshDays: 1))
        #expect(throws: ConfigurationError.self) {
            try LedgerSchedule(configured: nil, environment: ["OWNERDASH_LEDGER_OVERLAP_DAYS": "a week"])
        }
    }
}
