#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import XMLKit
import ZipKit

/// A sheet's cell comments, spooled to two anonymous temporary files as they are added (the commentsN.xml entries and
/// the VML shapes Excel needs to show them), so a sheet with a comment on every row keeps memory flat.
final class SheetComments {
    private let list: Spool
    private let shapes: Spool
    private(set) var count = 0
    /// The first 1024-id block of this sheet's VML shape ids (each VML drawing owns whole blocks, numbered across the workbook).
    let firstBlock: Int

    init(firstBlock: Int) throws {
        list = try Spool()
        shapes = try Spool()
        self.firstBlock = firstBlock
    }

    /// How many 1024-id blocks the shapes use.
    var blocks: Int { count / 1024 + 1 }

    /// Adds the comment on the cell at a 0-based column and 1-based row.
    func add(_ text: String, column: Int, row: Int) throws {
        let reference = cellReference(column: column, row: row)
        try list.write(#"<comment ref="\#(reference)" authorId="0"><text><t xml:space="preserve">\#(XMLText.escape(text))</t></text></comment>"#)
        // The note box is anchored to the right of its cell, four rows tall, hidden until the cell is hovered.
        let anchor = "\(column + 1), 15, \(max(row - 2, 0)), 10, \(column + 4), 15, \(max(row - 2, 0) + 5), 4"
        try shapes.write("""
            <v:shape id="_x0000_s\(firstBlock * 1024 + count + 1)" type="#_x0000_t202" \
            style="position:absolute;margin-left:80pt;margin-top:2pt;width:180pt;height:66pt;z-index:\(count + 1);visibility:hidden" \
            fillcolor="#ffffe1" o:insetmode="auto"><v:fill color2="#ffffe1"/><v:shadow on="t" color="black" obscured="t"/>\
            <v:path o:connecttype="none"/><v:textbox style="mso-direction-alt:auto"><div style="text-align:left"></div></v:textbox>\
            <x:ClientData ObjectType="Note"><x:MoveWithCells/><x:SizeWithCells/><x:Anchor>\(anchor)</x:Anchor>\
            <x:AutoFill>False</x:AutoFill><x:Row>\(row - 1)</x:Row><x:Column>\(column)</x:Column></x:ClientData></v:shape>

            """)
        count += 1
    }

    /// Writes xl/commentsN.xml into `zip`.
    func writeComments(_ name: String, to zip: ZipWriter) throws {
        try zip.startEntry(name)
        try zip.write(#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>"# + "\n"
            + #"<comments xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><authors><author>OwnerDash</author></authors><commentList>"#)
        try list.copy(to: zip)
        try zip.write("</commentList></comments>\n")
        try zip.endEntry()
    }

    /// Writes xl/drawings/vmlDrawingN.vml into `zip`.
    func writeDrawing(_ name: String, to zip: ZipWriter) throws {
        try zip.startEntry(name)
        let ids = (firstBlock..<(firstBlock + blocks)).map(String.init).joined(separator: ",")
        try zip.write("""
            <xml xmlns:v="urn:schemas-microsoft-com:vml" xmlns:o="urn:schemas-microsoft-com:office:office" \
            xmlns:x="urn:schemas-microsoft-com:office:excel">
            <o:shapelayout v:ext="edit"><o:idmap v:ext="edit" data="\(ids)"/></o:shapelayout>
            <v:shapetype id="_x0000_t202" coordsize="21600,21600" o:spt="202" path="m,l,21600r21600,l21600,xe">\
            <v:stroke joinstyle="miter"/><v:path gradientshapeok="t" o:connecttype="rect"/></v:shapetype>

            """)
        try shapes.copy(to: zip)
        try zip.write("</xml>\n")
        try zip.endEntry()
    }
}

/// An anonymous temporary file (tmpfile: unlinked at once, gone when closed) written, then read back once.
final class Spool {
    private let file: UnsafeMutablePointer<FILE>

    init() throws {
        guard let file = tmpfile() else {
            throw XLSXWriteError.io(detail: "cannot create a temporary file: \(String(cString: strerror(errno)))")
        }
        self.file = file
    }

    deinit { fclose(file) }

    func write(_ text: String) throws {
        var text = text
        let ok = text.withUTF8 { bytes in
            bytes.isEmpty || fwrite(bytes.baseAddress, 1, bytes.count, file) == bytes.count
        }
        guard ok else { throw XLSXWriteError.io(detail: "cannot write a temporary file: \(String(cString: strerror(errno)))") }
    }

    /// Copies everything written so far into the zip's current entry.
    func copy(to zip: ZipWriter) throws {
        guard fflush(file) == 0 else { throw XLSXWriteError.io(detail: "cannot write a temporary file: \(String(cString: strerror(errno)))") }
        rewind(file)
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let n = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
            if n > 0 { try chunk.withUnsafeBytes { try zip.write(UnsafeRawBufferPointer(rebasing: $0[0..<n])) } }
            if n < chunk.count {
                guard ferror(file) == 0 else { throw XLSXWriteError.io(detail: "cannot read a temporary file back") }
                break
            }
        }
    }
}
