import Foundation
import OwnerDashCore
import Testing
import XMLKit
@testable import Render

/// The delinquency panel's forecast: drawn under the aging when the property has one (its model passed its backtest),
/// in the one-file dashboard and on the property's own page alike; otherwise the panel is exactly as before.
@Suite struct ForecastPanelTests {
    static let outlook = DelinquencyOutlook(
        modelID: 7, describedOn: DashboardFixtures.date("2026-10-31"), predicting: DashboardFixtures.date("2026-11-30"),
        households: 284, expectedBehind: 12.46, expectedOver30: Money(cents: 1_834_217),
        mostLikely: [
            .init(unit: "1204", name: "Lee, Ann & <Co>", probability: 0.9731, reason: "over_30 balance 2400 (+3.12)"),
            .init(unit: "310", name: nil, probability: 0.41, reason: nil),
        ])

    @Test func theForecastIsInTheDelinquencyPanelOnlyWhenThePropertyHasOne() throws {
        var with = DashboardFixtures.nexus
        with.forecast = Self.outlook
        for html in [PropertyPage.render(with, of: DashboardFixtures.dashboard, portfolio: "/"),
                     DashboardPage.render(Dashboard(portfolioName: "P", asOf: DashboardFixtures.date("2026-11-20"), generatedAt: "now",
                                                    properties: [with], portfolio: nil))] {
            let root = try DashboardFixtures.parse(html)
            let part = try #require(root.element(id: "p-nexus_east-forecast"))
            // Under the aging chart, in the same panel.
            #expect(root.descendants(named: "figure").contains { $0.element(id: "p-nexus_east-aging") != nil && $0.element(id: "p-nexus_east-forecast") != nil })
            #expect(part.descendants(named: "p", classed: "forecast-headline").first?.text
                    == "Forecast for Nov 30, 2026: $18,342 expected more than 30 days behind, 12.5 of 284 households")
            let rows = part.descendants(named: "tbody").first?.descendants(named: "tr").map { $0.descendants(named: "td").map(\.text) }
            #expect(rows == [["1204", "Lee, Ann & <Co>", "97.3%", "over_30 balance 2400 (+3.12)"], ["310", "\u{2013}", "41.0%", "\u{2013}"]])
            #expect(part.text.contains("From the ledgers to Oct 31, 2026 (model 7"))
        }
        let without = PropertyPage.render(DashboardFixtures.nexus, of: DashboardFixtures.dashboard, portfolio: "/")
        #expect(!without.contains("forecast"))
    }
}
