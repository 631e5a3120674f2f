import Foundation
import OwnerDashCore
import XLSXKit

/// `ownerdash sheet dump FILE`: print a sheet's grid as CSV, whatever the file really is (a debugging aid;
/// docs/contracts.md, "Reading spreadsheets").
struct SheetDumpCommand: Command {
    static let names = ["sheet", "dump"]
    static let aliases = [["xlsx", "dump"]]
    static let abstract = "Print one sheet of a downloaded report (.xlsx, .xls, HTML or CSV) as CSV."
    static let arguments: [ArgumentSpec] = [
        .positional("FILE", help: "the report file; its bytes decide how it is read, not its extension"),
        .option("--sheet", "NAME|INDEX", help: "sheet by name, or by position counting from 1 (default: the first sheet)"),
        .flag("--all-sheets", help: "every sheet in order, each after a line '== NAME =='"),
    ]
    static let discussion = """
        The file is read by what it is: an .xlsx (zip), a legacy Excel 97-2003 .xls (BIFF8), an HTML export
        (its tables, one sheet named HTML) or CSV text (one sheet named CSV), whatever its name says.
        One line per sheet row; empty cells are empty; numbers in shortest round-trip form;
        date-formatted cells as YYYY-MM-DD (or YYYY-MM-DDTHH:MM:SS); booleans TRUE/FALSE.
        'ownerdash xlsx dump' is the same command.
        """

    let file: String
    let sheet: String?
    let allSheets: Bool

    init(_ parsed: ParsedArguments, global: GlobalOptions) throws {
        file = parsed.value("FILE") ?? ""
        sheet = parsed.value("--sheet")
        allSheets = parsed.flag("--all-sheets")
    }

    func validate() throws {
        if allSheets && sheet != nil { throw UsageError("ownerdash sheet dump: --sheet and --all-sheets exclude each other") }
    }

    func run(_ log: Diagnostics) throws -> ExitCode {
        do {
            let book = try SpreadsheetFile(path: file)
            guard !book.sheetNames.isEmpty else {
                log.error(file, "the workbook has no sheets")
                return .failure
            }
            let sheets: [SpreadsheetSheet]
            if allSheets {
                sheets = try book.sheetNames.indices.map { try book.sheet(at: $0) }
            } else if let sheet {
                if book.sheetNames.contains(sheet) {
                    sheets = [try book.sheet(named: sheet)]
                } else if let index = Int(sheet), index >= 1, index <= book.sheetNames.count {
                    sheets = [try book.sheet(at: index - 1)]
                } else {
                    let names = book.sheetNames.map { "\"\($0)\"" }.joined(separator: ", ")
                    throw UsageError("\(file): no sheet \"\(sheet)\" (sheets: \(names); or an index 1-\(book.sheetNames.count))")
                }
            } else {
                sheets = [try book.sheet(at: 0)]
            }
            let output = StandardOutput(capacity: 1 << 20)
            defer { output.flush() }
            for sheet in sheets {
                if allSheets { output.write("== \(sheet.name) ==\n") }
                var rows = try sheet.rows()
                try SheetCSV.write(&rows) { output.write(bytes: $0) }
            }
            return .success
        } catch let error as UsageError {
            throw error
        } catch {
            log.error(file, "\(error)")
            return .failure
        }
    }
}
