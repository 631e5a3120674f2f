import ZipKit
import XMLKit

/// Why a workbook or sheet could not be read; one line without the file path (callers prefix it), naming the part or sheet.
public enum XLSXError: Error, Equatable, CustomStringConvertible {
    case cannotOpen(reason: String)
    /// The bytes are some other kind of file.
    case notXLSX(FileKind)
    case zip(ZipError)
    case missingPart(String)
    case malformedPart(part: String, detail: String)
    case noSuchSheet(name: String, available: [String])
    case sheetIndexOutOfRange(index: Int, count: Int)
    case notAWorksheet(sheet: String)
    case malformedSheet(sheet: String, detail: String)
    /// Bytes that are no report form at all (`SpreadsheetFile` reads .xlsx, .xls, HTML and CSV).
    case notAReport(FileKind)
    /// An HTML page with no table at all: what a server sends instead of the report (a login or error page).
    case htmlWithoutTable(title: String?)

    public var description: String {
        switch self {
        case .cannotOpen(let reason): return "cannot open: \(reason)"
        case .notXLSX(let kind): return kind.refusal
        case .zip(let error): return error.description
        case .missingPart(let part): return "missing part \(part)"
        case .malformedPart(let part, let detail): return "\(part): \(detail)"
        case .noSuchSheet(let name, let available):
            return "no sheet named \"\(name)\" (sheets: \(available.map { "\"\($0)\"" }.joined(separator: ", ")))"
        case .sheetIndexOutOfRange(let index, let count):
            return "no sheet at index \(index) (the workbook has \(count) sheet\(count == 1 ? "" : "s"))"
        case .notAWorksheet(let sheet): return "sheet \"\(sheet)\" is a chart sheet, not a worksheet"
        case .malformedSheet(let sheet, let detail): return "sheet \"\(sheet)\": \(detail)"
        case .notAReport(let kind):
            switch kind {
            case .pdf: return "is a PDF, not a spreadsheet: download the report in its Excel format"
            case .xml: return "is XML text (an Excel 2003 XML spreadsheet?), which is not read: save it as .xlsx"
            case .empty: return "is empty (0 bytes)"
            default: return "is not a report file: neither .xlsx, .xls, HTML nor CSV"
            }
        case .htmlWithoutTable(let title):
            return "is an HTML page without any table\(title.map { " (titled \"\($0)\")" } ?? ""): an error or login page, not a report"
        }
    }

    static func wrap(_ error: any Error, part: String) -> XLSXError {
        switch error {
        case let error as XLSXError: return error
        case let error as ZipError: return .zip(error)
        case let error as XMLError: return .malformedPart(part: part, detail: error.description)
        default: return .malformedPart(part: part, detail: "\(error)")
        }
    }
}
