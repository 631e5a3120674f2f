import OwnerDashCore

extension ReportType {
    public static let concessions = ReportType(declaring: "concessions")
}

/// Concessions Assigned to Residents (120.080.342): the concession transactions (P-type codes such as
/// `PW CONC/MONTHLY`) assigned to each resident as of a date.
///
/// OneSite sends it as HTML named `.xlsx`. The one real download seen holds no records: its title, the parameters
/// (resident statuses and the concession codes) and `No results were returned for the selected parameters.`, which
/// loads as an empty snapshot with a note. The columns below are those of the report's on-screen layout as far as
/// they are known: unit, resident, status, transaction code, description, date and amount; a download whose header
/// differs is refused naming the columns it has, and this descriptor is then the one place to correct.
enum ConcessionsReport: TabularReport {
    static let descriptor = ReportDescriptor(
        .concessions, "concessions assigned to residents", titles: ["Concessions Assigned to Residents"],
        codes: ["120.080.342"],
        table: RawTable("realpage_concessions", since: 21, columns: [
            .read("unit_number", .text, header: "Unit", synonyms: ["Bldg/Unit", "Bldg-Unit"], key: true),
            .read("resident_name", .text, header: "Name", synonyms: ["Resident", "Resident Name"]),
            .read("resident_status", .text, header: "Status", synonyms: ["Resident Status"]),
            .read("code", .text, header: "Code", synonyms: ["Transaction Code", "Trans Code"], key: true),
            .read("description", .text, header: "Description"),
            .read("transaction_date", .date, header: "Date", synonyms: ["Transaction Date", "Date Posted"]),
            .read("amount", .money, header: "Amount", summed: true),
        ]),
        parser: TabularParser<ConcessionsReport>.self)
}
