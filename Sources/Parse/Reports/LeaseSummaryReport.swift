import OwnerDashCore

extension ReportType {
    public static let leaseSummary = ReportType(declaring: "lease_summary")
}

/// Lease Summary (Online Leasing's "Lease summary"): the month's guest cards, quotes, applications, screenings and
/// leases of each site, by how the leases were signed.
///
/// Layout (checked on two real downloads, one site each): the title `Lease summary`, the management company (no
/// property on that line), `Date range: 1/1/2026 - 1/31/2026`, then the site's name on a line of its own above a
/// two-row header (`Total` over `GuestCards`, `LeasesSigned` over `DocuSign` ... `Mixed`), the site's one row of
/// counts, `SiteTotal :` and, for the whole company, `PMC Total :`, both held against the rows.
enum LeaseSummaryReport: TabularReport {
    static let descriptor = ReportDescriptor(
        .leaseSummary, "lease summary", titles: ["Lease summary", "Online Leasing Lease Summary"],
        table: RawTable("realpage_lease_summary", since: 21, columns: [
            .read("guest_cards", .integer, header: "Total GuestCards", synonyms: ["Total Guest Cards"], key: true,
                  summed: true),
            .read("online_guest_cards", .integer, header: "Online GuestCards", synonyms: ["Online Guest Cards"],
                  summed: true),
            .read("quotes", .integer, header: "Quotes", summed: true),
            .read("applications", .integer, header: "Applications", summed: true),
            .read("screenings", .integer, header: "Screenings", summed: true),
            .read("signed_docusign", .integer, header: "LeasesSigned DocuSign", synonyms: ["DocuSign"], summed: true),
            .read("signed_rp_esign", .integer, header: "LeasesSigned RP E-Sign", synonyms: ["RP E-Sign"],
                  summed: true),
            .read("signed_ofsa", .integer, header: "LeasesSigned OFSA", synonyms: ["OFSA"], summed: true),
            .read("signed_mixed", .integer, header: "LeasesSigned Mixed", synonyms: ["Mixed"], summed: true),
            .read("not_signed", .integer, header: "NotSigned", synonyms: ["Not Signed", "LeasesSigned NotSigned"],
                  summed: true),
            .read("total_leases", .integer, header: "Total Leases", summed: true),
        ]),
        parser: TabularParser<LeaseSummaryReport>.self, propertyAboveHeader: true)
}
