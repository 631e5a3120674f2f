import XMLKit

/// The small fixed parts of a written workbook: xl/workbook.xml, the relationships and [Content_Types].xml.
enum WorkbookParts {
    /// What the parts need to know of each sheet.
    struct Sheet {
        var name: String
        var hasComments: Bool
        var filter: String?
    }

    static let declaration = #"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>"# + "\n"
    static let main = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
    static let relationships = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
    static let packageRelationships = "http://schemas.openxmlformats.org/package/2006/relationships"

    static func workbook(_ sheets: [Sheet]) -> String {
        var xml = declaration + #"<workbook xmlns="\#(main)" xmlns:r="\#(relationships)">"#
        xml += #"<workbookPr/><bookViews><workbookView activeTab="0"/></bookViews><sheets>"#
        for (i, sheet) in sheets.enumerated() {
            xml += #"<sheet name="\#(XMLText.escape(sheet.name))" sheetId="\#(i + 1)" r:id="rId\#(i + 1)"/>"#
        }
        xml += "</sheets>"
        // Excel keeps each autofilter's range in this hidden name; without it Excel still opens the file but
        // LibreOffice shows no filter buttons.
        let filters = sheets.enumerated().compactMap { i, sheet in sheet.filter.map { (i, sheet.name, $0) } }
        if !filters.isEmpty {
            xml += "<definedNames>"
            for (i, name, range) in filters {
                let absolute = range.split(separator: ":").map { absoluteReference(String($0)) }.joined(separator: ":")
                let quoted = "'" + String(name.flatMap { $0 == "'" ? ["'", "'"] : [$0] }) + "'"
                xml += #"<definedName name="_xlnm._FilterDatabase" localSheetId="\#(i)" hidden="1">\#(XMLText.escape(quoted + "!" + absolute))</definedName>"#
            }
            xml += "</definedNames>"
        }
        xml += "</workbook>\n"
        return xml
    }

    static func workbookRelationships(_ sheets: [Sheet]) -> String {
        var xml = declaration + #"<Relationships xmlns="\#(packageRelationships)">"#
        for i in sheets.indices {
            xml += #"<Relationship Id="rId\#(i + 1)" Type="\#(relationships)/worksheet" Target="worksheets/sheet\#(i + 1).xml"/>"#
        }
        xml += #"<Relationship Id="rId\#(sheets.count + 1)" Type="\#(relationships)/styles" Target="styles.xml"/>"#
        xml += "</Relationships>\n"
        return xml
    }

    /// A sheet's comments (rId1) and the VML drawing that shows them (rId2, named by the sheet's legacyDrawing).
    static func sheetRelationships(_ number: Int) -> String {
        declaration + #"<Relationships xmlns="\#(packageRelationships)">"#
            + #"<Relationship Id="rId1" Type="\#(relationships)/comments" Target="../comments\#(number).xml"/>"#
            + #"<Relationship Id="rId2" Type="\#(relationships)/vmlDrawing" Target="../drawings/vmlDrawing\#(number).vml"/>"#
            + "</Relationships>\n"
    }

    static let rootRelationships = declaration + #"<Relationships xmlns="\#(packageRelationships)">"#
        + #"<Relationship Id="rId1" Type="\#(relationships)/officeDocument" Target="xl/workbook.xml"/>"#
        + "</Relationships>\n"

    static func contentTypes(_ sheets: [Sheet]) -> String {
        let types = "application/vnd.openxmlformats-officedocument"
        var xml = declaration + #"<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">"#
        xml += #"<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>"#
        xml += #"<Default Extension="xml" ContentType="application/xml"/>"#
        if sheets.contains(where: \.hasComments) {
            xml += #"<Default Extension="vml" ContentType="\#(types).vmlDrawing"/>"#
        }
        xml += #"<Override PartName="/xl/workbook.xml" ContentType="\#(types).spreadsheetml.sheet.main+xml"/>"#
        xml += #"<Override PartName="/xl/styles.xml" ContentType="\#(types).spreadsheetml.styles+xml"/>"#
        for (i, sheet) in sheets.enumerated() {
            xml += #"<Override PartName="/xl/worksheets/sheet\#(i + 1).xml" ContentType="\#(types).spreadsheetml.worksheet+xml"/>"#
            if sheet.hasComments {
                xml += #"<Override PartName="/xl/comments\#(i + 1).xml" ContentType="\#(types).spreadsheetml.comments+xml"/>"#
            }
        }
        xml += "</Types>\n"
        return xml
    }

    /// `$A$3` from `A3`.
    static func absoluteReference(_ reference: String) -> String {
        let letters = reference.prefix { $0.isLetter }
        return "$" + letters + "$" + reference.dropFirst(letters.count)
    }
}
