/// Why an .xls file could not be read; one line without the file path (callers prefix it), naming the stream, record or sheet.
public enum XLSError: Error, Equatable, CustomStringConvertible {
    /// The OLE2 container is damaged: a chain loops or leaves the file, a stream is longer than its chain.
    case compoundFile(String)
    /// The bytes are some other kind of file (only the .xls reader's own entry points say this).
    case notXLS(FileKind)
    /// The container holds no Workbook (or Book) stream; `streams` lists what it does hold.
    case noWorkbookStream(streams: [String])
    /// An Excel 5.0/95 or older workbook: BIFF8 is the only BIFF version read.
    case unsupportedBIFFVersion(stream: String, version: Int)
    /// The workbook is encrypted (a FILEPASS record): the cells cannot be read without the password.
    case encrypted
    /// A record of the workbook globals is malformed.
    case malformedWorkbook(String)
    /// A record of a sheet's substream is malformed.
    case malformedSheet(sheet: String, detail: String)
    /// A BOUNDSHEET of a kind that holds no cells (macro sheet, VBA module).
    case notAWorksheet(sheet: String, kind: String)
    /// A compressed string has a byte 0x80 or above in a code page (CODEPAGE record) this reader does not decode.
    case unsupportedCodePage(Int)

    public var description: String {
        switch self {
        case .compoundFile(let detail):
            return "is a damaged legacy .xls (OLE2) file: \(detail)"
        case .notXLS(let kind):
            switch kind {
            case .zip: return "is a zip file (an .xlsx?), not a legacy Excel 97-2003 .xls"
            case .empty: return "is empty (0 bytes)"
            default: return "is not a legacy Excel 97-2003 .xls (no OLE2 signature)"
            }
        case .noWorkbookStream(let streams):
            if streams.contains(where: { $0.lowercased() == "encryptedpackage" }) {
                return "is a password-protected .xlsx (an OLE2 file with an EncryptedPackage stream); save it without a password"
            }
            return "is an OLE2 file without a Workbook stream, so not an Excel workbook (streams: \(streams.joined(separator: ", ")))"
        case .unsupportedBIFFVersion(let stream, let version):
            let name: String
            switch version {
            case 0x0500: name = "BIFF5 (Excel 5.0/95)"
            case 0x0400: name = "BIFF4 (Excel 4.0)"
            case 0x0300: name = "BIFF3 (Excel 3.0)"
            case 0x0200, 0x0007, 0x0000: name = "BIFF2 (Excel 2.x)"
            default: name = "an unknown BIFF version"
            }
            return "\(stream) stream is \(name), BOF version \(biffHex(version, width: 4)); only BIFF8 (Excel 97-2003) .xls is read"
        case .encrypted:
            return "the workbook is password-protected (FILEPASS record); save it without a password"
        case .malformedWorkbook(let detail):
            return "Workbook stream: \(detail)"
        case .malformedSheet(let sheet, let detail):
            return "sheet \"\(sheet)\": \(detail)"
        case .notAWorksheet(let sheet, let kind):
            return "sheet \"\(sheet)\" is \(kind), not a worksheet"
        case .unsupportedCodePage(let codePage):
            let read = CodePage.supported.map(String.init).joined(separator: ", ")
            return "the workbook's 8-bit strings are in code page \(codePage) (its CODEPAGE record), which is not read; only code pages \(read) are (re-save it from Excel as .xlsx)"
        }
    }
}

/// `0x00FD` style, as the BIFF specification writes record types and offsets.
func biffHex(_ value: Int, width: Int = 0) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return "0x" + String(repeating: "0", count: max(0, width - digits.count)) + digits
}
