import OwnerDashCore
import Testing

/// Lists in messages and help texts read as a sentence names them.
@Suite struct ProseListTests {
    @Test func itemsAreJoinedWithCommasAndALastAnd() {
        #expect([String]().listedInProse == "")
        #expect(["getbuildings"].listedInProse == "getbuildings")
        #expect(["getbuildings", "getrentableitems"].listedInProse == "getbuildings and getrentableitems")
        #expect(["occupancy", "exposure", "pricing"].listedInProse == "occupancy, exposure and pricing")
    }
}
