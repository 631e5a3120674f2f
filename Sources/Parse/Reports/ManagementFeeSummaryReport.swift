import OwnerDashCore

extension ReportType {
    public static let managementFeeSummary = ReportType(declaring: "management_fee_summary")
}

/// Management Fee Summary (LAR-120-321): per property, the fee base collected in the fiscal period, the fee
/// percentages and the fee before and after the minimum/maximum check.
///
/// Layout (checked on one real download, which holds no fee rows: only the labels `Property Date:`, `Fee Rules:`,
/// `Total Fee Minimum:`, `Total Fee Maximum:` and an empty `TOTALS` row): `Name`, `Gross Fee Amount`,
/// `Collected Amount`, `Management Fee Percentages`, `Fee Amount (Pre Min/Max Check)`, `Final Fee Amount` and
/// `Comments` one row lower. A fee row is a row with a name and amounts; `TOTALS` is held against them.
enum ManagementFeeSummaryReport: TabularReport {
    static let descriptor = ReportDescriptor(
        .managementFeeSummary, "management fee summary", titles: ["MANAGEMENT FEE SUMMARY"], codes: ["LAR-120-321"],
        table: RawTable("realpage_management_fee_summary", since: 21, columns: [
            .read("name", .text, header: "Name", synonyms: ["Property Name", "Property"], key: true),
            .read("gross_fee_amount", .money, header: "Gross Fee Amount", summed: true),
            .read("collected_amount", .money, header: "Collected Amount", summed: true),
            .read("fee_percent", .percent, header: "Management Fee Percentages",
                  synonyms: ["Management Fee Percentage", "Fee Percentage"]),
            .read("fee_amount_before_limits", .money, header: "Fee Amount (Pre Min/Max Check)",
                  synonyms: ["Fee Amount"], summed: true),
            .read("final_fee_amount", .money, header: "Final Fee Amount", summed: true),
            .read("comments", .text, header: "Comments"),
        ]),
        parser: TabularParser<ManagementFeeSummaryReport>.self)
}
