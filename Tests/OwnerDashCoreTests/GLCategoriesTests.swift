import Testing
@testable import OwnerDashCore

/// GL account -> expense category: defaults by account range, report_definitions.json overrides, bad overrides refused.
@Suite struct GLCategoriesTests {
    @Test func accountsFallInTheirHundredsRangeWhateverTheirPunctuation() {
        let categories = GLCategories.standard
        #expect(categories.category(of: "6100-0001") == "Payroll")
        #expect(categories.category(of: "6300.0002") == "Repairs & Maintenance")
        #expect(categories.category(of: "64000010") == "Turnover")
        #expect(categories.category(of: "8100-0001") == nil)
        #expect(categories.category(of: "Bank fees") == nil)
    }

    @Test func theLongestPrefixWinsSoOneAccountCanLeaveItsRange() throws {
        let categories = try GLCategories(overrides: ["Turnover": ["6300-0001"], "Bad Debt": ["81"]])
        #expect(categories.category(of: "6300-0001") == "Turnover")
        #expect(categories.category(of: "6300-0002") == "Repairs & Maintenance")
        #expect(categories.category(of: "8100-0007") == "Bad Debt")
    }

    @Test func aPrefixUnderTwoCategoriesOrWithoutDigitsIsRefusedWithItsName() {
        #expect(throws: ConfigurationError.self) { try GLCategories(overrides: ["Payroll": ["6150"], "Admin": ["6150"]]) }
        do {
            _ = try GLCategories(overrides: ["Payroll": ["salaries"]])
            Issue.record("a prefix without digits was accepted")
        } catch let error as ConfigurationError {
            #expect(error.description.contains("\"salaries\"") && error.description.contains("Payroll"))
        } catch {
            Issue.record("unexpected \(error)")
        }
    }
}
