import Foundation
import OwnerDashCore
import SQLiteKit
@testable import Sync
import Testing

/// unified_properties.address from the site the PMS sends, when the registry names none.
@Suite struct PropertyAddressTests {
    @Test func realPageTakesTheAddressGetSiteListSends() throws {
        let realpage = try RealPageFixture()
        try realpage.insert("realpage_sites", ["site_id": .text("5000001"), "site_name": .text("Test RealPage"),
                                               "sys_date": .text("2026-11-20"), "address1": .text("1200 Main St"),
                                               "city": .text("Denver"), "state": .text("CO"), "zip": .text("80202")])
        try realpage.unit("101", .occupied)
        #expect(realpage.sync().first?.error == nil)
        #expect(try realpage.texts("SELECT address FROM unified_properties") == ["1200 Main St, Denver, CO 80202"])
    }

    @Test func theRegistryAddressWinsOverTheSite() throws {
        let realpage = try RealPageFixture()
        try realpage.insert("realpage_sites", ["site_id": .text("5000001"), "sys_date": .text("2026-11-20"),
                                               "address1": .text("1200 Main St"), "city": .text("Denver")])
        try realpage.unit("101", .occupied)
        var property = RealPageFixture.property
        property.address = "1 Registry Way, Boulder, CO"
        #expect(realpage.sync([property]).first?.error == nil)
        #expect(try realpage.texts("SELECT address FROM unified_properties") == ["1 Registry Way, Boulder, CO"])
    }

    @Test func yardiTakesTheAddressOfItsPropertyConfiguration() throws {
        let yardi = try YardiFixture()
        try yardi.loadedEverything()
        try yardi.insert("yardi_properties", ["property_code": .text("yp1"), "address_line1": .text("55 Elm Ave"),
                                              "address_line2": .text("Suite 2"), "city": .text("Austin"),
                                              "state": .text("TX"), "postal_code": .text("78701")])
        try yardi.unit("101", "Occupied No Notice", tenant: "t1")
        try yardi.resident("t1", "Current", unit: "101")
        _ = yardi.sync()
        #expect(try yardi.store.database.query("SELECT address FROM unified_properties")
                    == [[.text("55 Elm Ave Suite 2, Austin, TX 78701")]])
    }
}
