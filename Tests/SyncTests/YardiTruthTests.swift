import Foundation
import OwnerDashCore
import SQLiteKit
@testable import Sync
import Testing

/// The Yardi properties of the simulated portfolio, synced from what `ownerdash fetch` + `load` stored, agree with the
/// simulator's ground truth (scripts/pms_sim/truth.py): counts exactly, money to the cent.
@Suite struct YardiTruthTests {
    /// truth.py unit_counts key -> unified_occupancy_metrics column.
    static let unitCounts = [
        ("total_units", "total_units"), ("occupied", "occupied_units"), ("vacant", "vacant_units"),
        ("vacant_leased", "vacant_leased"), ("vacant_not_leased", "vacant_not_leased"), ("on_notice", "on_notice"),
        ("notice_leased", "notice_leased"), ("notice_not_leased", "notice_not_leased"), ("model", "model_units"),
        ("down", "down_units"), ("vacant_ready", "vacant_ready"), ("vacant_not_ready", "vacant_not_ready"),
        ("aged_vacant_90", "aged_vacant_90"),
    ]
    /// The lead's channel, as Yardi names its first-contact event (pms_sim yardi.py LEAD_EVENT).
    static let channelOfLeadEvent = ["Email": "email", "CallFromProspect": "phone", "Webservice": "internet",
                                     "Other": "text", "WalkIn": "visit"]
    /// Days of guest-card history the simulator serves (portfolio.py ACTIVITY_DAYS): lease signings before it are
    /// not in GetYardiGuestActivity_Login.
    static let guestCardDays = 210

    @Test func yardiPropertiesMatchTheSimulatorsTruth() throws {
        let portfolio = try SimulatedPortfolio.shared.get()
        let data = try portfolio.copyOfLoadedData()
        defer { try? FileManager.default.removeItem(atPath: data.root) }
        let store = try UnifiedStore(dataDirectory: data)
        let properties = portfolio.properties.filter { $0.pms == .yardi }
        try #require(!properties.isEmpty)
        let outcomes = Synchronizer(store: store, runID: "truth").sync(properties, log: Diagnostics(sink: { _ in }))
        for outcome in outcomes {
            #expect(outcome.error == nil, "\(outcome.property)")
            #expect(outcome.asOf?.iso == SimulatedPortfolio.asOf)
            #expect(outcome.warnings.isEmpty, "\(outcome.property): \(outcome.warnings.map(\.message))")
        }
        for property in properties {
            let truth = try portfolio.truth(property.key)
            try Self.occupancy(store.database, property.key, truth)
            try Self.pricing(store.database, property.key, truth)
            try Self.delinquency(store.database, property.key, truth)
            try Self.funnel(store.database, property.key, truth)
            try Self.activityByMonth(store.database, property.key, truth)
        }
    }

    static func occupancy(_ database: Database, _ key: String, _ truth: [String: Any]) throws {
        let row = try #require(try database.query("""
            SELECT * FROM unified_occupancy_metrics WHERE unified_property_id = :p AND as_of_date = :d
            """, [":p": .text(key), ":d": .text(SimulatedPortfolio.asOf)]).first)
        let statement = try database.prepare("SELECT * FROM unified_occupancy_metrics LIMIT 0")
        let column = Dictionary(uniqueKeysWithValues: (0..<statement.columnCount).map { (statement.columnName($0), $0) })
        func value(_ name: String) -> Double? { column[name].flatMap { row[$0].doubleValue } }
        let counts = truth["unit_counts"] as? [String: Int] ?? [:]
        for (truthKey, unified) in unitCounts {
            #expect(value(unified) == counts[truthKey].map(Double.init), "\(key) \(truthKey)")
        }
        #expect(value("physical_occupancy") == truth["physical_occupancy_pct"] as? Double, "\(key) occupancy")
        #expect(value("leased_units") == (truth["leased_units"] as? Int).map(Double.init), "\(key) leased")
        #expect(value("leased_pct") == truth["leased_pct"] as? Double, "\(key) leased %")
        let exposure = truth["exposure"] as? [String: [String: Any]] ?? [:]
        for (window, unified) in [("now", "exposure_now"), ("30", "exposure_30"), ("60", "exposure_60")] {
            #expect(value(unified) == (exposure[window]?["units"] as? Int).map(Double.init), "\(key) exposure \(window)")
            #expect(value(unified + "_pct") == exposure[window]?["pct"] as? Double, "\(key) exposure \(window) %")
        }
    }

    static func pricing(_ database: Database, _ key: String, _ truth: [String: Any]) throws {
        // Yardi unit types are the floorplan codes in lower case (a1); truth prints them as the simulator's A1.
        let rows = try database.query("""
            SELECT upper(floorplan), floorplan_name, bedrooms, units, occupied_units, avg_sqft, in_place_rent,
                   in_place_psf, asking_rent, asking_psf
            FROM unified_pricing_metrics WHERE unified_property_id = :p AND as_of_date = :d
            """, [":p": .text(key), ":d": .text(SimulatedPortfolio.asOf)])
        let unified = Dictionary(uniqueKeysWithValues: rows.map { ($0[0].textValue ?? "", Array($0.dropFirst())) })
        let floorplans = truth["pricing"] as? [[String: Any]] ?? []
        #expect(unified.keys.sorted() == floorplans.compactMap { $0["floorplan"] as? String }.sorted(), "\(key) floorplans")
        for floorplan in floorplans {
            let code = floorplan["floorplan"] as? String ?? ""
            let expected: [SQLValue] = [
                SQLValue(floorplan["floorplan_name"] as? String), SQLValue(floorplan["bedrooms"] as? Int),
                SQLValue(floorplan["units"] as? Int), SQLValue(floorplan["occupied_units"] as? Int),
                SQLValue(floorplan["avg_sqft"] as? Double), SQLValue(floorplan["in_place_rent"] as? Double),
                SQLValue(floorplan["in_place_psf"] as? Double), SQLValue(floorplan["asking_rent"] as? Double),
                SQLValue(floorplan["asking_psf"] as? Double),
            ]
            #expect(unified[code].map(numbersAsDoubles) == numbersAsDoubles(expected), "\(key) \(code)")
        }
    }

    /// Integers and reals compared as numbers (JSON does not say which a count is).
    static func numbersAsDoubles(_ values: [SQLValue]) -> [SQLValue] {
        values.map { if case .integer(let number) = $0 { return .real(Double(number)) } else { return $0 } }
    }

    static func delinquency(_ database: Database, _ key: String, _ truth: [String: Any]) throws {
        let rows = try database.query("""
            SELECT resident_id, unit_number, name, resident_status, current_balance,
                   balance_0_30, balance_31_60, balance_61_90, balance_over_90, prepaid
            FROM unified_delinquency WHERE unified_property_id = :p AND as_of_date = :d
            """, [":p": .text(key), ":d": .text(SimulatedPortfolio.asOf)])
        let unified = Dictionary(uniqueKeysWithValues: rows.map { ($0[0].textValue ?? "", Array($0.dropFirst())) })
        let section = truth["delinquency"] as? [String: Any] ?? [:]
        let residents = section["residents"] as? [[String: Any]] ?? []
        #expect(unified.keys.sorted() == residents.compactMap { $0["tenant_code"] as? String }.sorted(), "\(key) households")
        let money = ["current_balance", "balance_0_30", "balance_31_60", "balance_61_90", "balance_over_90", "prepaid"]
        for resident in residents {
            let tenant = resident["tenant_code"] as? String ?? ""
            let expected: [SQLValue] = [SQLValue(resident["unit"] as? String), SQLValue(resident["name"] as? String),
                                        SQLValue(resident["status"] as? String)]
                + money.map { SQLValue(resident[$0] as? Double) }
            #expect(unified[tenant] == expected, "\(key) \(tenant)")
        }
        let totals = section["totals"] as? [String: Any] ?? [:]
        let sums = try #require(try database.query("""
            SELECT sum(CAST(round(current_balance * 100) AS INTEGER)), sum(CAST(round(balance_0_30 * 100) AS INTEGER)),
                   sum(CAST(round(balance_31_60 * 100) AS INTEGER)), sum(CAST(round(balance_61_90 * 100) AS INTEGER)),
                   sum(CAST(round(balance_over_90 * 100) AS INTEGER)), sum(CAST(round(prepaid * 100) AS INTEGER))
            FROM unified_delinquency WHERE unified_property_id = :p AND as_of_date = :d
            """, [":p": .text(key), ":d": .text(SimulatedPortfolio.asOf)]).first)
        let expectedCents = money.map { Int64(((totals[$0] as? Double ?? .nan) * 100).rounded()) }
        #expect(sums.map { $0.integerValue ?? -1 } == expectedCents, "\(key) totals")
    }

    static func funnel(_ database: Database, _ key: String, _ truth: [String: Any]) throws {
        let funnel = truth["funnel_30d"] as? [String: Any] ?? [:]
        let window = [":p": SQLValue.text(key), ":from": SQLValue(funnel["window_start"] as? String),
                      ":to": SQLValue(funnel["window_end"] as? String)]
        let counts = Dictionary(uniqueKeysWithValues: try database.query("""
            SELECT event_type, count(*) FROM unified_activity
            WHERE unified_property_id = :p AND event_date BETWEEN :from AND :to GROUP BY event_type
            """, window).map { ($0[0].textValue ?? "", Int($0[1].integerValue ?? 0)) })
        for (truthKey, eventType) in [("leads", "lead"), ("tours", "tour"), ("applications", "application"),
                                      ("approvals", "approval"), ("leases", "lease_signed"), ("denied", "denial"),
                                      ("canceled", "cancellation")] {
            #expect(counts[eventType, default: 0] == funnel[truthKey] as? Int, "\(key) funnel \(truthKey)")
        }
        var channels: [String: Int] = [:]
        for row in try database.query("""
            SELECT pms_event_type FROM unified_activity
            WHERE unified_property_id = :p AND event_type = 'lead' AND event_date BETWEEN :from AND :to
            """, window) {
            channels[channelOfLeadEvent[row[0].textValue ?? ""] ?? "unknown", default: 0] += 1
        }
        #expect(channels == funnel["leads_by_channel"] as? [String: Int], "\(key) leads by channel")
    }

    static func activityByMonth(_ database: Database, _ key: String, _ truth: [String: Any]) throws {
        let months = truth["activity_by_month"] as? [String: [String: Int]] ?? [:]
        var unified: [String: [String: Int]] = [:]
        for row in try database.query("""
            SELECT substr(event_date, 1, 7), event_type, count(*) FROM unified_activity
            WHERE unified_property_id = :p GROUP BY 1, 2
            """, [":p": .text(key)]) {
            unified[row[0].textValue ?? "", default: [:]][row[1].textValue ?? ""] = Int(row[2].integerValue ?? 0)
        }
        let asOf = try #require(LocalDate(iso: SimulatedPortfolio.asOf))
        let guestCardsFrom = asOf.adding(days: -guestCardDays)
        for (month, expected) in months {
            let actual = unified[month, default: [:]]
            #expect(actual["move_in", default: 0] == expected["move_ins"], "\(key) \(month) move-ins")
            #expect(actual["move_out", default: 0] == expected["move_outs"], "\(key) \(month) move-outs")
            #expect(actual["notice", default: 0] == expected["notices"], "\(key) \(month) notices")
            // Lease signings: wherever the guest-card history covers the whole month.
            if let first = LocalDate(iso: month + "-01"), first >= guestCardsFrom {
                #expect(actual["lease_signed", default: 0] == expected["new_leases"], "\(key) \(month) new leases")
            }
            // Renewals are not compared: truth counts every renewal lease by signing date; Yardi's residents carry
            // only each household's current lease and no signing date (YardiActivity documents it).
        }
    }
}
