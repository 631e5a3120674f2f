/// What a downloaded "spreadsheet" really is, judged from its first bytes (servers often send error pages as .xlsx).
public enum FileKind: Sendable, Equatable {
    /// A zip container, as every .xlsx is.
    case zip
    /// An OLE2 compound file: a legacy Excel 97-2003 .xls.
    case ole2
    case html
    case pdf
    /// XML that is not in a zip (for instance an Excel 2003 XML spreadsheet).
    case xml
    /// Plain text with commas, tabs or semicolons on its first line.
    case csvText
    case empty
    case unknown

    /// Classifies a file from its first bytes (a few KiB are plenty).
    public static func sniff(_ bytes: some Collection<UInt8>) -> FileKind {
        let head = Array(bytes.prefix(4096))
        if head.isEmpty { return .empty }
        if head.starts(with: [0x50, 0x4B, 0x03, 0x04]) || head.starts(with: [0x50, 0x4B, 0x05, 0x06])
            || head.starts(with: [0x50, 0x4B, 0x07, 0x08]) {
            return .zip
        }
        if head.starts(with: [0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1]) { return .ole2 }
        var text = head[...]
        if text.starts(with: [0xEF, 0xBB, 0xBF]) { text = text.dropFirst(3) }
        while let first = text.first, first == 0x20 || first == 0x09 || first == 0x0A || first == 0x0D {
            text = text.dropFirst()
        }
        if text.starts(with: Array("%PDF-".utf8)) { return .pdf }
        let lower = text.prefix(512).map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }
        let lowerText = String(decoding: lower, as: UTF8.self)
        for marker in ["<!doctype html", "<html", "<head", "<body", "<table", "<meta", "<title", "<script", "<div"]
            where lowerText.hasPrefix(marker) {
            return .html
        }
        if lowerText.hasPrefix("<?xml") || lowerText.hasPrefix("<") {
            return lowerText.contains("<html") ? .html : .xml
        }
        if head.contains(0) { return .unknown }
        let firstLine = text.prefix { $0 != 0x0A && $0 != 0x0D }
        if firstLine.contains(0x2C) || firstLine.contains(0x09) || firstLine.contains(0x3B) { return .csvText }
        return .unknown
    }

    /// Why a file of this kind is not read as a workbook, worded to follow "<path>: ".
    var refusal: String {
        switch self {
        case .zip: return "is a zip file"
        case .ole2: return "is really a legacy Excel 97-2003 .xls (OLE2) file; only .xlsx is read"
        case .html: return "is really an HTML page, not an .xlsx workbook (an error or login page?)"
        case .pdf: return "is a PDF, not an .xlsx workbook"
        case .xml: return "is XML text (an Excel 2003 XML spreadsheet?), not an .xlsx workbook"
        case .csvText: return "looks like CSV text, not an .xlsx workbook"
        case .empty: return "is empty (0 bytes)"
        case .unknown: return "is not an .xlsx workbook (not a zip file)"
        }
    }
}
