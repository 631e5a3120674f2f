import Foundation
import Testing
@testable import XLSXKit

/// An HTML export whose bytes are not valid in the charset it declares: libxml2 stops converting at the bad bytes and
/// drops the rest of the page. That is refused as damaged, in one line carrying libxml2's own words, instead of
/// being read as a shorter report or, when the damage comes before the first table, called a login page.
@Suite struct DamagedHTMLTests {
    /// windows-1252 leaves 0x81 and 0x8D undefined, so the declared conversion fails on them.
    static func page(damageBeforeTable: Bool) -> [UInt8] {
        let head = Array("<html><head><meta http-equiv=\"Content-Type\" content=\"text/html; charset=windows-1252\"><title>Rent Roll</title></head><body>".utf8)
        let damage: [UInt8] = Array("<p>Caf".utf8) + [0x81, 0x20, 0x8D] + Array("</p>".utf8)
        let table = Array("<table><tr><td>Unit</td><td>Name</td></tr><tr><td>101</td><td>Smith</td></tr><tr><td>102</td><td>Jones</td></tr></table>".utf8)
        let tail = Array("</body></html>".utf8)
        return damageBeforeTable ? head + damage + table + tail : head + table + damage + table + tail
    }

    static let refusal = "HTML: the page is damaged: its bytes are not valid in the encoding it declares, and the rest of it could not be read (input conversion failed due to input error, bytes 0x81 0x20 0x8D 0x3C)"

    @Test func damageBeforeTheTableIsNotCalledALoginPage() {
        #expect(message { _ = try SpreadsheetFile(bytes: Self.page(damageBeforeTable: true)) } == Self.refusal)
    }

    @Test func damageAfterATableIsNotReadAsAShorterReport() {
        #expect(message { _ = try SpreadsheetFile(bytes: Self.page(damageBeforeTable: false)) } == Self.refusal)
    }

    @Test func aPageWithoutDamageInTheSameCharsetIsRead() throws {
        // 0xE9 (é) is defined in windows-1252: the same page with a real letter reads, accent converted.
        var bytes = Self.page(damageBeforeTable: false)
        for index in bytes.indices where bytes[index] == 0x81 || bytes[index] == 0x8D { bytes[index] = 0xE9 }
        let rows = try allRows(SpreadsheetFile(bytes: bytes).sheet(at: 0).rows())
        #expect(rows.map { $0.cells.compactMap { if case .text(let t) = $0 { t } else { nil } } }.contains(["Caf\u{E9} \u{E9}"]))
        #expect(rows.filter { $0.cells.first == .text("101") }.count == 2)
    }
}
