import XMLKit

/// A slow, plainly written reading of a worksheet through libxml2's DOM (whole sheet in memory).
/// The fast tokenizer is tested against it on every fixture; it shares only the style table and
/// the serial-to-date conversion with the tokenizer.
struct ReferenceWorksheetReader {
    let sheet: Worksheet

    /// Every row with at least one value, read the same way Excel's XML defines them.
    func rows() throws -> [SheetRow] {
        let workbook = sheet.workbook
        let strings = try sharedStrings()
        let document = try Workbook.document(workbook.archive, sheet.part)
        guard let sheetData = document.root?.child(named: "sheetData") else { return [] }
        var result: [SheetRow] = []
        var lastRow = 0
        for row in sheetData.children(named: "row") {
            let number = row.attribute("r").flatMap { Int($0) } ?? lastRow + 1
            lastRow = number
            var cells: [CellValue] = []
            var column = -1
            for cell in row.children(named: "c") {
                if let reference = cell.attribute("r") {
                    guard let parsed = CellReference(Substring(reference)) else {
                        throw XLSXError.malformedSheet(sheet: sheet.name, detail: "bad cell reference \(reference)")
                    }
                    column = parsed.column
                } else {
                    column += 1
                }
                let style = cell.attribute("s").flatMap { Int($0) } ?? 0
                let value = try self.value(of: cell, style: style, strings: strings, column: column, row: number)
                guard let value else { continue }
                while cells.count < column { cells.append(.empty) }
                if column < cells.count { cells[column] = value } else { cells.append(value) }
            }
            if !cells.isEmpty { result.append(SheetRow(number: number, cells: cells)) }
        }
        return result
    }

    /// The `ref` of every `<mergeCell>`, in document order.
    func mergedRanges() throws -> [MergedRange] {
        let document = try Workbook.document(sheet.workbook.archive, sheet.part)
        return try (document.root?.descendants(named: "mergeCell") ?? []).map { element in
            guard let ref = element.attribute("ref"), let range = MergedRange(reference: ref) else {
                throw XLSXError.malformedSheet(sheet: sheet.name, detail: "bad merged range")
            }
            return range
        }
    }

    private func value(of cell: XMLElement, style: Int, strings: [String], column: Int, row: Int) throws -> CellValue? {
        let type = cell.attribute("t") ?? "n"
        let v = cell.child(named: "v")?.text
        let inline = cell.child(named: "is").map(richText)
        let name = CellReference.name(column: column, row: row)
        switch type {
        case "n":
            if let inline { return .text(inline) }
            guard let v, !v.isEmpty else { return nil }
            guard let number = Double(v.trimmingXMLSpace()) else {
                throw XLSXError.malformedSheet(sheet: sheet.name, detail: "cell \(name) is not a number")
            }
            if let isDate = sheet.workbook.cellStyles.isDate, style < isDate.count, isDate[style],
               let date = ExcelDateTime(serial: number, uses1904DateSystem: sheet.workbook.uses1904DateSystem) {
                return .date(date)
            }
            if let isPercent = sheet.workbook.cellStyles.isPercent, style < isPercent.count, isPercent[style] {
                return .text(NumberFormat.percentText(number))
            }
            return .number(number)
        case "s":
            guard let v, !v.isEmpty else { return nil }
            guard let index = Int(v.trimmingXMLSpace()), index >= 0, index < strings.count else {
                throw XLSXError.malformedSheet(sheet: sheet.name, detail: "cell \(name) has a bad shared string index")
            }
            return .text(strings[index])
        case "str", "inlineStr":
            return (v ?? inline).map { CellValue.text($0) }
        case "b":
            guard let v, !v.isEmpty else { return nil }
            return .bool(v.trimmingXMLSpace() == "1" || v.trimmingXMLSpace() == "true")
        case "e":
            return v.map { CellValue.error($0) }
        case "d":
            guard let v, !v.isEmpty else { return nil }
            return ExcelDateTime(iso8601: Array(v.utf8)).map { CellValue.date($0) } ?? .text(v)
        default:
            throw XLSXError.malformedSheet(sheet: sheet.name, detail: "cell \(name) has unknown type \(type)")
        }
    }

    /// The text of `<si>` or `<is>`: its `<t>`, or the `<t>` of each rich-text run `<r>`; phonetic `<rPh>` left out.
    private func richText(_ element: XMLElement) -> String {
        var text = ""
        for child in element.children {
            if child.hasLocalName("t") {
                text += child.text
            } else if child.hasLocalName("r") {
                for t in child.children(named: "t") { text += t.text }
            }
        }
        return text
    }

    private func sharedStrings() throws -> [String] {
        let workbook = sheet.workbook
        guard workbook.archive.entry(named: workbook.sharedStringsPart) != nil else { return [] }
        let document = try Workbook.document(workbook.archive, workbook.sharedStringsPart)
        return document.root?.children(named: "si").map(richText) ?? []
    }
}
