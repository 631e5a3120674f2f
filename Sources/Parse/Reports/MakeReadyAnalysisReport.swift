import OwnerDashCore

extension ReportType {
    public static let makeReadyAnalysis = ReportType(declaring: "make_ready_analysis")
}

/// Make Ready Analysis (130.080.120.999, OneSite Facilities): per period, the units made ready, the hours they took
/// and what the work cost.
///
/// Layout (checked on one real download): `Period` rows (`2/2026`) under a two-row header whose `Cost` is merged over
/// `Avg`, `Labor`, `Parts` and `Total`; `Avg Hrs:Min` and `Total Hrs:Min` are printed twice, first for make-readies
/// then for renovations (matched left to right). A `Total` row follows, held against the periods; the "Averages per
/// period" block after it restates the same figures and is not read.
enum MakeReadyAnalysisReport: TabularReport {
    static let endsAtFirstTotal = true

    static let descriptor = ReportDescriptor(
        .makeReadyAnalysis, "make ready analysis", titles: ["MAKE READY ANALYSIS"], codes: ["130.080.120.999"],
        table: RawTable("realpage_make_ready_analysis", since: 21, columns: [
            .read("period", .text, header: "Period", key: true),
            .read("units_made_ready", .integer, header: "Units made ready", summed: true),
            .read("avg_minutes", .minutes, header: "Avg Hrs:Min"),
            .read("total_minutes", .minutes, header: "Total Hrs:Min", summed: true),
            .read("renovations", .integer, header: "Make ready renovation", summed: true),
            .read("renovation_avg_minutes", .minutes, header: "Renovation Avg Hrs:Min", synonyms: ["Avg Hrs:Min"]),
            .read("renovation_total_minutes", .minutes, header: "Renovation Total Hrs:Min",
                  synonyms: ["Total Hrs:Min"], summed: true),
            .read("avg_cost", .money, header: "Cost Avg", synonyms: ["Avg", "Avg Cost"]),
            .read("labor_cost", .money, header: "Cost Labor", synonyms: ["Labor"], summed: true),
            .read("parts_cost", .money, header: "Cost Parts", synonyms: ["Parts"], summed: true),
            .read("total_cost", .money, header: "Cost Total", synonyms: ["Total", "Total Cost"], summed: true),
        ]),
        parser: TabularParser<MakeReadyAnalysisReport>.self)
}
