import Foundation
import OwnerDashCore
import SOAP
import SQLiteKit
import Testing
@testable import RawStore

@Suite struct RPXLoaderTests {
    let nexus = Property(key: "nexus_east", name: "Nexus East", pms: .realpage, siteID: "5472172")
    let asOf = LocalDate(year: 2026, month: 11, day: 20)!

    @Test func rpxResponsesLoadBesideTheReportsAndOnlyOnce() throws {
        let fixture = try LoaderFixture()
        #expect(try fixture.store.database.userVersion() == RealPageRawSchema.migrations.last?.version)
        let loader = RPXArtifactLoader(store: fixture.store, runID: RunID("run-1"))
        let files: [(RPXOperation, String, Int)] = [
            (.getbuildings, "rpx_getbuildings.xml", 2), (.unitlist, "rpx_unitlist.xml", 3),
            (.getresidentlistinfo, "rpx_getresidentlistinfo.xml", 4), (.getleaseinfo, "rpx_getleaseinfo.xml", 3),
            (.getrentableitems, "rpx_getrentableitems.xml", 3),
            // 22 transactions and the balances of their 2 households (realpage_ledger_households).
            (.getresidentledger, "rpx_getresidentledger.xml", 22 + 2), (.getscheduledcharges, "rpx_getscheduledcharges.xml", 4),
        ]
        for (operation, name, rows) in files {
            let outcome = try loader.load(path: try fixture.soapCopy(name), operation: operation, property: nexus, asOf: asOf)
            #expect(outcome.rows == rows && !outcome.alreadyLoaded, "\(operation)")
        }
        let database = fixture.store.database
        #expect(try database.query("SELECT unit_number, vacant, made_ready_date, market_rent FROM realpage_units ORDER BY source_row")
                == [[.text("1101"), .integer(0), .null, .real(2235)], [.text("1104"), .integer(0), .null, .real(1415)],
                    [.text("2301"), .integer(1), .text("2026-05-30"), .real(1700)]])
        #expect(try database.scalar("SELECT sum(balance) FROM realpage_residents WHERE head_of_household = 1") == .real(634.28))
        #expect(try database.scalar("SELECT last_renewal_date || ' ' || payment_due_date FROM realpage_leases WHERE lease_id = '9400001'")
                == .text("2026-09-09 2026-12-01"))
        #expect(try database.query("""
            SELECT transaction_type, post_month, transaction_code, amount, amount_paid, open_amount, household_balance
            FROM realpage_ledger WHERE transaction_id IN ('9200012921', '9200012955') ORDER BY transaction_id
            """) == [[.text("Charge"), .text("2026-11"), .text("RENT"), .real(2210), .real(1201.72), .real(1008.28), .real(1184.28)],
                       [.text("Payment"), .text("2026-11"), .text("PAYMENT"), .real(-1201.72), .real(0), .real(0), .real(1184.28)]])
        #expect(try database.scalar("SELECT sum(amount) FROM realpage_scheduled_charges WHERE lease_id = '9400003'") == .real(2411))
        let again = try loader.load(path: try fixture.soapCopy("rpx_unitlist.xml"), operation: .unitlist, property: nexus, asOf: asOf)
        #expect(again.alreadyLoaded && again.rows == 3)
        #expect(try fixture.count("realpage_units") == 3)
        #expect(try database.scalar("SELECT count(*) FROM loaded_artifacts WHERE report_type = 'unitlist'") == .integer(1))
    }

    @Test func residentsKeepTheirEmailAndPhoneAndBlankIsNull() throws {
        let fixture = try LoaderFixture()
        let loader = RPXArtifactLoader(store: fixture.store, runID: RunID("run-1"))
        _ = try loader.load(path: try fixture.soapCopy("rpx_getresidentlistinfo_phones.xml"), operation: .getresidentlistinfo,
                            property: nexus, asOf: asOf)
        _ = try loader.load(path: try fixture.soapCopy("rpx_getresidentlistinfo.xml"), operation: .getresidentlistinfo,
                            property: nexus, asOf: LocalDate(year: 2026, month: 11, day: 21)!)
        #expect(try fixture.store.database.query("""
            SELECT resident_member_id, email, phone FROM realpage_residents
            WHERE resident_member_id IN ('9600003', '9600005', '9600002') ORDER BY resident_member_id
            """) == [[.text("9600002"), .null, .null],
                     [.text("9600003"), .text("patricia.thompson35@example.com"), .text("(255) 555-2606")],
                     [.text("9600005"), .text("sandra.roberts67@example.com"), .text("(436) 555-1498")]])
    }

    /// A realpage_raw.db made before the contact columns migrates forward: its residents stay, without e-mail or phone.
    @Test func aDatabaseFromBeforeTheContactColumnsMigratesKeepingItsResidents() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rpx-contact-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("realpage_raw.db").path
        let contact = try #require(RealPageRawSchema.migrations.first { $0.name == "rpx resident email and phone" }).version
        do {
            let old = try Database(path: path)
            try old.migrate(RealPageRawSchema.migrations.filter { $0.version < contact })
            try old.execute("""
                INSERT INTO realpage_residents (run_id, property_id, as_of_date, artifact, artifact_sha256, source_row,
                                                household_id, last_name)
                VALUES ('run-0', 'nexus_east', '2026-11-19', 'a.xml', 'x', 1, '9200001', 'Mitchell')
                """)
        }
        let store = try RealPageRawStore(path: path)
        #expect(try store.database.userVersion() == RealPageRawSchema.migrations.last?.version)
        #expect(try store.database.query("SELECT household_id, last_name, email, phone FROM realpage_residents")
                == [[.text("9200001"), .text("Mitchell"), .null, .null]])
    }

    @Test func theSiteListKeepsOnlyThePropertysOwnSite() throws {
        let fixture = try LoaderFixture()
        let loader = RPXArtifactLoader(store: fixture.store, runID: RunID("run-1"))
        let kalaco = Property(key: "kalaco", name: "Kalaco", pms: .realpage, siteID: "5339721")
        _ = try loader.load(path: try fixture.soapCopy("rpx_getsitelist.xml"), operation: .getsitelist, property: kalaco, asOf: asOf)
        #expect(try fixture.store.database.query("SELECT site_id, sys_date, ar_accounting_period FROM realpage_sites")
                == [[.text("5339721"), .text("2026-11-20"), .text("2026-11")]])
        #expect {
            try loader.load(path: try fixture.soapCopy("rpx_getsitelist.xml"), operation: .getsitelist, property: nexus, asOf: asOf)
        } throws: { "\($0)" == "getsitelist for nexus_east: site 5472172 is not among the 2 sites the license key reaches" }
    }

    @Test func aBadValueRollsTheArtifactBack() throws {
        let fixture = try LoaderFixture()
        let loader = RPXArtifactLoader(store: fixture.store, runID: RunID("run-1"))
        _ = try loader.load(path: try fixture.soapCopy("rpx_unitlist.xml"), operation: .unitlist, property: nexus, asOf: asOf)
        let before = try fixture.store.database.query("SELECT * FROM realpage_units ORDER BY id")
        let bad = try fixture.soapCopy("rpx_unitlist.xml") { $0.replacingOccurrences(of: "<Vacant>T</Vacant>", with: "<Vacant>maybe</Vacant>") }
        #expect {
            try loader.load(path: bad, operation: .unitlist, property: nexus, asOf: asOf)
        } throws: { "\($0)".contains("unitlist for nexus_east: Unit 3: Vacant: \"maybe\" is not a flag") }
        #expect(try fixture.store.database.query("SELECT * FROM realpage_units ORDER BY id") == before)
    }
}
