#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import XMLKit
import ZipKit

/// An open .xlsx workbook: its sheets, shared strings and date formats; worksheets are streamed on demand.
public final class Workbook {
    /// Sheet names in workbook order (the tabs Excel shows, hidden ones included).
    public let sheetNames: [String]
    /// True when serials count from 1904-01-01 (old Mac workbooks).
    public let uses1904DateSystem: Bool

    let archive: ZipArchive
    let sheetParts: [String]
    let chartSheets: Set<Int>
    let sharedStrings: [String]
    let sharedStringsPart: String
    let cellStyles: CellStyles

    /// Opens the workbook at `path`; non-zip files are refused with what they really are.
    public convenience init(path: String, limits: ZipLimits = .standard) throws {
        let head = try Workbook.readHead(path)
        let kind = FileKind.sniff(head)
        guard kind == .zip else { throw XLSXError.notXLSX(kind) }
        let archive: ZipArchive
        do {
            archive = try ZipArchive(path: path, limits: limits)
        } catch let error as ZipError {
            throw XLSXError.zip(error)
        }
        try self.init(archive: archive)
    }

    /// Reads a workbook held in memory (a downloaded artifact).
    public convenience init(bytes: [UInt8], limits: ZipLimits = .standard) throws {
        let kind = FileKind.sniff(bytes.prefix(4096))
        guard kind == .zip else { throw XLSXError.notXLSX(kind) }
        let archive: ZipArchive
        do {
            archive = try ZipArchive(bytes: bytes, limits: limits)
        } catch let error as ZipError {
            throw XLSXError.zip(error)
        }
        try self.init(archive: archive)
    }

    init(archive: ZipArchive) throws {
        self.archive = archive
        let workbookPart = try Workbook.mainPart(archive)
        let workbook = try Workbook.document(archive, workbookPart)
        guard let root = workbook.root, root.hasLocalName("workbook") else {
            throw XLSXError.malformedPart(part: workbookPart, detail: "the root element is not <workbook>")
        }
        let flag = root.child(named: "workbookPr")?.attribute("date1904")
        uses1904DateSystem = flag == "1" || flag == "true"

        let relationships = try Workbook.relationships(archive, of: workbookPart)
        var names: [String] = []
        var parts: [String] = []
        var charts = Set<Int>()
        for sheet in root.child(named: "sheets")?.children(named: "sheet") ?? [] {
            guard let name = sheet.attribute("name") else {
                throw XLSXError.malformedPart(part: workbookPart, detail: "a <sheet> without a name")
            }
            // r:id is in the relationships namespace; its prefix varies, so match the local name "id".
            guard let id = sheet.attribute("id", namespaceURI: Workbook.relationshipNamespace)
                    ?? sheet.attribute("id", namespaceURI: Workbook.strictRelationshipNamespace),
                  let target = relationships.byID[id] else {
                throw XLSXError.malformedPart(part: workbookPart, detail: "sheet \"\(name)\" has no relationship to its part")
            }
            if target.type.hasSuffix("/chartsheet") { charts.insert(names.count) }
            names.append(name)
            parts.append(target.part)
        }
        sheetNames = names
        sheetParts = parts
        chartSheets = charts

        let directory = Workbook.directory(of: workbookPart)
        let stringsPart = relationships.firstPart(typeSuffix: "/sharedStrings") ?? directory + "sharedStrings.xml"
        sharedStringsPart = stringsPart
        if let entry = archive.entry(named: stringsPart) {
            sharedStrings = try SharedStringsReader.read(archive, entry)
        } else {
            sharedStrings = []
        }
        let stylesPart = relationships.firstPart(typeSuffix: "/styles") ?? directory + "styles.xml"
        if archive.entry(named: stylesPart) != nil {
            cellStyles = try CellStyles(document: Workbook.document(archive, stylesPart), part: stylesPart)
        } else {
            cellStyles = CellStyles(part: stylesPart)
        }
    }

    /// The worksheet with this name (exact match first, then ignoring case as Excel does).
    public func worksheet(named name: String) throws -> Worksheet {
        if let index = sheetNames.firstIndex(of: name) { return try worksheet(at: index) }
        let folded = name.lowercased()
        if let index = sheetNames.firstIndex(where: { $0.lowercased() == folded }) { return try worksheet(at: index) }
        throw XLSXError.noSuchSheet(name: name, available: sheetNames)
    }

    /// The worksheet at a 0-based position in workbook order.
    public func worksheet(at index: Int) throws -> Worksheet {
        guard index >= 0 && index < sheetNames.count else {
            throw XLSXError.sheetIndexOutOfRange(index: index, count: sheetNames.count)
        }
        guard !chartSheets.contains(index) else { throw XLSXError.notAWorksheet(sheet: sheetNames[index]) }
        return Worksheet(workbook: self, name: sheetNames[index], part: sheetParts[index])
    }

    // MARK: - Parts

    static let relationshipNamespace = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
    static let strictRelationshipNamespace = "http://purl.oclc.org/ooxml/officeDocument/relationships"

    private static func readHead(_ path: String) throws -> [UInt8] {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw XLSXError.cannotOpen(reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        var head = [UInt8](repeating: 0, count: 4096)
        let n = head.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard n >= 0 else { throw XLSXError.cannotOpen(reason: String(cString: strerror(errno))) }
        head.removeLast(head.count - n)
        return head
    }

    /// The workbook part named by [Content_Types].xml, else the conventional xl/workbook.xml.
    private static func mainPart(_ archive: ZipArchive) throws -> String {
        var part = "xl/workbook.xml"
        if archive.entry(named: "[Content_Types].xml") != nil {
            let types = try document(archive, "[Content_Types].xml")
            for override in types.root?.children(named: "Override") ?? [] {
                if let type = override.attribute("ContentType"), type.hasSuffix(".main+xml"),
                   type.contains("spreadsheetml") || type.contains("ms-excel"),
                   let name = override.attribute("PartName") {
                    part = name.hasPrefix("/") ? String(name.dropFirst()) : name
                    break
                }
            }
        }
        guard archive.entry(named: part) != nil else { throw XLSXError.missingPart(part) }
        return part
    }

    static func document(_ archive: ZipArchive, _ part: String) throws -> XMLDocument {
        guard let entry = archive.entry(named: part) else { throw XLSXError.missingPart(part) }
        do {
            return try XMLDocument(bytes: archive.contents(of: entry))
        } catch {
            throw XLSXError.wrap(error, part: part)
        }
    }

    struct Relationship {
        var type: String
        var part: String
    }

    struct Relationships {
        var byID: [String: Relationship] = [:]
        var ordered: [Relationship] = []

        func firstPart(typeSuffix: String) -> String? {
            ordered.first { $0.type.hasSuffix(typeSuffix) }?.part
        }
    }

    /// The relationships of a part (`dir/_rels/name.rels`), targets resolved to zip entry names.
    static func relationships(_ archive: ZipArchive, of part: String) throws -> Relationships {
        let directory = directory(of: part)
        let file = part.split(separator: "/").last.map(String.init) ?? part
        let relsPart = directory + "_rels/" + file + ".rels"
        var result = Relationships()
        guard archive.entry(named: relsPart) != nil else { return result }
        for element in try document(archive, relsPart).root?.children(named: "Relationship") ?? [] {
            guard element.attribute("TargetMode") != "External",
                  let id = element.attribute("Id"), let target = element.attribute("Target") else { continue }
            let relationship = Relationship(type: element.attribute("Type") ?? "", part: resolve(target, from: directory))
            result.byID[id] = relationship
            result.ordered.append(relationship)
        }
        return result
    }

    static func directory(of part: String) -> String {
        guard let slash = part.lastIndex(of: "/") else { return "" }
        return String(part[...slash])
    }

    /// Resolves a relationship target against the source part's directory (absolute targets start at the zip root).
    static func resolve(_ target: String, from directory: String) -> String {
        let joined = target.hasPrefix("/") ? String(target.dropFirst()) : directory + target
        var segments: [Substring] = []
        for segment in joined.split(separator: "/", omittingEmptySubsequences: true) {
            if segment == ".." { if !segments.isEmpty { segments.removeLast() } } else if segment != "." { segments.append(segment) }
        }
        return segments.joined(separator: "/")
    }
}

/// Which cell formats (`s` indices into cellXfs) show numbers as dates.
struct CellStyles {
    let part: String
    /// nil when the workbook has no styles part: then every style index counts as a plain number format.
    let isDate: [Bool]?
    /// Which cell formats show numbers as percents (their cells read as `88.24%` text, not the stored fraction).
    let isPercent: [Bool]?

    init(part: String) {
        self.part = part
        isDate = nil
        isPercent = nil
    }

    init(document: XMLDocument, part: String) throws {
        self.part = part
        guard let root = document.root else {
            throw XLSXError.malformedPart(part: part, detail: "no root element")
        }
        var customDate: [Int: Bool] = [:]
        var customPercent: [Int: Bool] = [:]
        for format in root.child(named: "numFmts")?.children(named: "numFmt") ?? [] {
            guard let id = format.attribute("numFmtId").flatMap({ Int($0) }) else { continue }
            customDate[id] = NumberFormat.isDateFormat(code: format.attribute("formatCode") ?? "")
            customPercent[id] = NumberFormat.isPercentFormat(code: format.attribute("formatCode") ?? "")
        }
        let formats = (root.child(named: "cellXfs")?.children(named: "xf") ?? []).map { xf in
            xf.attribute("numFmtId").flatMap { Int($0) } ?? 0
        }
        isDate = formats.map { customDate[$0] ?? NumberFormat.isBuiltInDate($0) }
        isPercent = formats.map { customPercent[$0] ?? NumberFormat.isBuiltInPercent($0) }
    }

    /// How many cell formats the styles part defines (for bounds checks and messages).
    var count: Int { isDate?.count ?? 0 }
}

/// Reads sharedStrings.xml with the byte scanner: the table of a big sheet can be tens of MB, which as a DOM would be ten times that.
enum SharedStringsReader {
    static func read(_ archive: ZipArchive, _ entry: ZipEntry) throws -> [String] {
        let reader: any EntryByteStream
        do {
            reader = try PrefetchingEntryReader.stream(archive.reader(for: entry))
        } catch {
            throw XLSXError.wrap(error, part: entry.name)
        }
        var scanner = ByteScanner(reader: reader)
        var strings: [String] = []
        var text = ScratchBytes(capacity: 1024)
        var totalBytes = 0
        while true {
            switch try scanner.next() {
            case .startTag:
                if scanner.name == .si {
                    text.removeAll()
                    do {
                        try scanner.collectRichText(into: &text)
                    } catch is TextLimitExceeded {
                        throw XLSXError.malformedPart(part: entry.name, detail: "shared string \(strings.count) holds more than \(TextLimits.cellDescription); refused rather than held in memory")
                    }
                    totalBytes += text.count
                    guard totalBytes <= TextLimits.sharedStringsBytes else {
                        throw XLSXError.malformedPart(part: entry.name, detail: "the shared strings hold more than \(TextLimits.sharedStringsBytes >> 20) MiB of text by string \(strings.count) (a 500,000-row export holds about 12 MB); refused rather than held in memory")
                    }
                    strings.append(text.string())
                } else if scanner.name == .sst {
                    // Reserve from uniqueCount, capped so a lying header cannot allocate much.
                    for i in 0..<scanner.attributeCount where scanner.attributeName(i) == "uniqueCount" {
                        let (start, end) = scanner.attributeValue(i)
                        if let count = NumberText.parseIndex(scanner.base + start, end - start) {
                            strings.reserveCapacity(min(count, 1 << 20))
                        }
                    }
                }
            case .emptyTag:
                if scanner.name == .si { strings.append("") }
            case .end:
                return strings
            default:
                break
            }
        }
    }
}
