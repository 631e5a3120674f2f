import Foundation
import OwnerDashCore
import XLSXKit

/// `ownerdash xlsx dump FILE`: print a sheet's grid as CSV (a debugging aid, DESIGN 5.1).
struct XLSXDumpCommand: Command {
    static let names = ["xlsx", "dump"]
    static let abstract = "Print one sheet of an .xlsx file as CSV."
    static let arguments: [ArgumentSpec] = [
        .positional("FILE", help: "the .xlsx file"),
        .option("--sheet", "NAME|INDEX", help: "sheet by name, or by position counting from 1 (default: the first sheet)"),
    ]
    static let discussion = """
        One line per sheet row; empty cells are empty; numbers in shortest round-trip form;
        date-formatted cells as YYYY-MM-DD (or YYYY-MM-DDTHH:MM:SS); booleans TRUE/FALSE.
        """

    let file: String
    let sheet: String?

    init(_ parsed: ParsedArguments, global: GlobalOptions) throws {
        file = parsed.value("FILE") ?? ""
        sheet = parsed.value("--sheet")
    }

    func run(_ log: Diagnostics) throws -> ExitCode {
        do {
            let workbook = try Workbook(path: file)
            let worksheet: Worksheet
            if let sheet {
                if workbook.sheetNames.contains(sheet) {
                    worksheet = try workbook.worksheet(named: sheet)
                } else if let index = Int(sheet), index >= 1, index <= workbook.sheetNames.count {
                    worksheet = try workbook.worksheet(at: index - 1)
                } else {
                    let names = workbook.sheetNames.map { "\"\($0)\"" }.joined(separator: ", ")
                    throw UsageError("\(file): no sheet \"\(sheet)\" (sheets: \(names); or an index 1-\(workbook.sheetNames.count))")
                }
            } else {
                guard !workbook.sheetNames.isEmpty else {
                    log.error(file, "the workbook has no sheets")
                    return .failure
                }
                worksheet = try workbook.worksheet(at: 0)
            }
            let output = StandardOutput(capacity: 1 << 20)
            defer { output.flush() }
            var rows = try worksheet.rows()
            try SheetCSV.write(&rows) { output.write(bytes: $0) }
            return .success
        } catch let error as UsageError {
            throw error
        } catch {
            log.error(file, "\(error)")
            return .failure
        }
    }
}
