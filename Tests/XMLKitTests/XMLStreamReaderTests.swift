import Foundation
import Testing
@testable import XMLKit

private func fixture(_ name: String) throws -> [UInt8] {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    return [UInt8](try Data(contentsOf: root.appendingPathComponent("Fixtures/soap/\(name)")))
}

/// Everything the `XMLElement` API says about an element and its subtree, as one comparable string.
private func describe(_ element: XMLElement) -> String {
    let attributes = element.attributes.map { "\($0.namespaceURI ?? "-")|\($0.localName)=\($0.value)" }.joined(separator: ",")
    let children = element.children.map(describe).joined()
    return "<\(element.namespaceURI ?? "-")|\(element.prefix ?? "-")|\(element.localName)@\(element.line) [\(attributes)] "
        + "\(element.text.utf8.count):\(element.text)>\(children)</>"
}

/// The outermost elements named `name`, in document order (what `forEachElement` hands out: it skips past each match).
private func outermost(_ name: String, in element: XMLElement) -> [XMLElement] {
    if element.hasLocalName(name) { return [element] }
    return element.children.flatMap { outermost(name, in: $0) }
}

private func allNames(_ element: XMLElement) -> Set<String> {
    element.children.reduce(into: [element.localName]) { $0.formUnion(allNames($1)) }
}

private struct Stop: Error {}

/// The streaming reader against the DOM: same elements, same values, same errors and refusals.
@Suite struct XMLStreamReaderTests {
    static let fixtures = ((try? FileManager.default.contentsOfDirectory(
        atPath: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/soap").path)) ?? []).filter { $0.hasSuffix(".xml") }.sorted()

    @Test func everyFixtureIsRead() {
        #expect(Self.fixtures.count >= 20)
    }

    @Test(arguments: fixtures) func streamedElementsMatchTheDOM(file: String) throws {
        let bytes = try fixture(file)
        guard let root = try XMLDocument(bytes: bytes).root else { Issue.record("no root"); return }
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/soap/\(file)").path
        for name in allNames(root).sorted() {
            var streamed: [String] = [], fromFile: [String] = []
            try XMLStreamReader(bytes: bytes).forEachElement(named: [name]) { streamed.append(describe($0)) }
            try XMLStreamReader(path: path).forEachElement(named: [name]) { fromFile.append(describe($0)) }
            #expect(streamed == outermost(name, in: root).map(describe), "\(file): \(name)")
            #expect(fromFile == streamed, "\(file) read from its file: \(name)")
        }
    }

    @Test func aFileThatCannotBeReadIsAnError() throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("no-such-\(UUID().uuidString).xml").path
        #expect(throws: XMLError(message: "\(missing): cannot open: No such file or directory")) {
            try XMLStreamReader(path: missing)
        }
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("empty-\(UUID().uuidString).xml").path
        #expect(FileManager.default.createFile(atPath: empty, contents: Data()))
        defer { try? FileManager.default.removeItem(atPath: empty) }
        #expect(throws: XMLError(message: "Document is empty", line: 1)) { try XMLStreamReader(path: empty) }
    }

    @Test func internalEntitiesAndCDATAReadAsInTheDOM() throws {
        let bytes = Array("""
            <?xml version="1.0"?>
            <!DOCTYPE r [<!ENTITY co "Riverwalk &amp; Co">]>
            <r xmlns:m="urn:m"><m:item name="&co;">&co; <![CDATA[<raw>]]> &#65;</m:item><m:item/></r>
            """.utf8)
        guard let root = try XMLDocument(bytes: bytes).root else { Issue.record("no root"); return }
        var streamed: [String] = []
        try XMLStreamReader(bytes: bytes).forEachElement(named: ["item"]) { streamed.append(describe($0)) }
        #expect(streamed == root.children.map(describe))
        // One level deep, as the DOM reads it: the entity's own `&amp;` stays as written.
        #expect(streamed.first?.contains("Riverwalk &amp; Co <raw> A") == true, "\(streamed)")
    }

    @Test func malformedXMLGivesLibxml2sMessageAndLine() throws {
        let bytes = Array("<a>\n<b>one</b>\n<c>two</a>".utf8)
        var domError: XMLError?
        do { _ = try XMLDocument(bytes: bytes) } catch let error as XMLError { domError = error }
        do {
            try XMLStreamReader(bytes: bytes).forEachElement(named: ["b"]) { _ in }
            Issue.record("accepted")
        } catch let error as XMLError {
            #expect(error.message == "Opening and ending tag mismatch: c line 3 and a")
            #expect(error.line == 3)
            #expect(error == domError)
        }
    }

    /// A response declaring windows-1252 whose bytes are not (0x81 and 0x8D are undefined there): libxml2 stops
    /// converting and drops what follows, so the reader refuses it instead of handing out the elements before it as
    /// the whole document (what it did, after libxml2 printed `encoding error` lines of its own to stderr).
    @Test func bytesInvalidInTheDeclaredEncodingAreRefusedNotReadShort() throws {
        let bytes = Array("<?xml version=\"1.0\" encoding=\"windows-1252\"?><Units><Unit>101</Unit><Unit>Caf".utf8)
            + [0x81, 0x20, 0x8D] + Array("</Unit><Unit>103</Unit></Units>".utf8)
        var seen: [String] = []
        do {
            try XMLStreamReader(bytes: bytes).forEachElement(named: ["Unit"]) { seen.append($0.text) }
            Issue.record("accepted, read \(seen)")
        } catch let error as XMLError {
            #expect(error.message.hasPrefix("damaged text: its bytes are not valid in the encoding it declares"),
                    "\(error)")
            #expect(error.message.contains("input conversion failed"), "\(error)")
        }
        #expect(!seen.contains("103"))
    }

    @Test func emptyAndTruncatedDocumentsAreErrors() throws {
        #expect(throws: XMLError(message: "Document is empty", line: 1)) { try XMLStreamReader(bytes: []) }
        let cut = Array(try fixture("yardi_get_unit_information.xml").prefix(700))
        #expect(throws: XMLError.self) {
            try XMLStreamReader(bytes: cut).forEachElement(named: ["UnitInfo"]) { _ in }
        }
    }

    @Test func anExternalEntityIsRefusedBeforeAnyContent() throws {
        let bytes = Array("""
            <?xml version="1.0"?>
            <!DOCTYPE r [<!ENTITY secret SYSTEM "file:///etc/passwd">]>
            <r><x>&secret;</x></r>
            """.utf8)
        var seen = 0
        do {
            try XMLStreamReader(bytes: bytes).forEachElement(named: ["x"]) { _ in seen += 1 }
            Issue.record("accepted")
        } catch let error as XMLError {
            #expect(error.message == "the DOCTYPE declares external entity 'secret' (\"file:///etc/passwd\"); documents with external entities are refused")
        }
        #expect(seen == 0)
    }

    @Test func stoppingEarlyNeverReadsTheRest() throws {
        // The tail, a megabyte on, is broken: a reader that stops at the first record never meets it.
        let filler = String(repeating: "<item>2</item>", count: 80_000)
        let bytes = Array("<r><item>1</item>\(filler)<broken></r>".utf8)
        var seen: [String] = []
        #expect(throws: Stop.self) {
            try XMLStreamReader(bytes: bytes).forEachElement(named: ["item"]) { seen.append($0.text); throw Stop() }
        }
        #expect(seen == ["1"])
        let reader = try XMLStreamReader(bytes: bytes)
        #expect(try reader.read() && reader.hasLocalName("r"))
        #expect(try reader.read() && reader.localName == "item" && reader.depth == 1)
    }

    @Test func forEachElementStaysInsideTheCurrentElement() throws {
        let bytes = Array("<r><a><x>1</x><x>2</x></a><x>3</x><a/></r>".utf8)
        let reader = try XMLStreamReader(bytes: bytes)
        var seen: [String] = []
        while try reader.read() {
            guard reader.kind == .element, reader.hasLocalName("a") else { continue }
            try reader.forEachElement(named: ["x"]) { seen.append($0.text) }
            #expect(reader.kind == .element || reader.kind == .endElement)
        }
        #expect(seen == ["1", "2"])
    }

    /// The reader parses 64 KB at a time: records, text runs and skipped elements that straddle those pieces read as
    /// the DOM reads them (the fixtures are each smaller than one piece).
    @Test func documentsLongerThanOnePieceReadAsTheDOM() throws {
        var body = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<s:Envelope xmlns:s=\"urn:s\"><s:Body><Ledger xmlns=\"urn:l\">"
        for n in 0 ..< 3_000 {
            // Varied lengths, so that piece boundaries fall inside names, attributes, text and entity references.
            let note = String(repeating: "x", count: n % 97)
            body += "<Resident id=\"\(n)\" note=\"a &amp; b \(note)\"><Name>Tenant \(n) &lt;\(note)&gt;</Name>\n"
                + "<Transactions><Transaction><Amount>\(n).50</Amount><Text><![CDATA[<raw \(n)>]]> &#65;\(note)</Text>"
                + "</Transaction><Transaction/></Transactions></Resident>\n"
        }
        body += "</Ledger><After>tail</After></s:Body></s:Envelope>"
        let bytes = Array(body.utf8)
        #expect(bytes.count > 4 * 65_536)
        guard let root = try XMLDocument(bytes: bytes).root else { Issue.record("no root"); return }
        for name in ["Resident", "Text", "Transaction", "After"] {
            var streamed: [String] = []
            try XMLStreamReader(bytes: bytes).forEachElement(named: [name]) { streamed.append(describe($0)) }
            #expect(streamed == outermost(name, in: root).map(describe), "\(name)")
        }
        // The whole ledger skipped (what the fetch's check does): the next element is the one after it.
        let reader = try XMLStreamReader(bytes: bytes)
        var after: [String] = []
        while try reader.read() {
            if reader.kind == .element && reader.hasLocalName("Ledger") {
                reader.skip()
            } else if reader.kind == .element {
                after.append(reader.localName)
            }
        }
        #expect(after == ["Envelope", "Body", "After"])
    }

    @Test func aStreamedElementLaysOutItsLinesAsTheDOMDoes() throws {
        let bytes = Array("<r><td>Name<br/>Phone  <b>x</b><div>block</div><script>no</script>tail</td></r>".utf8)
        guard let root = try XMLDocument(bytes: bytes).root else { Issue.record("no root"); return }
        var streamed: [[String]] = []
        try XMLStreamReader(bytes: bytes).forEachElement(named: ["td"]) { streamed.append($0.renderedLines) }
        #expect(streamed == root.children.map(\.renderedLines))
        #expect(streamed == [["Name", "Phone x", "block", "tail"]])
    }

    /// A cell's text of printable ASCII is laid out on its bytes, anything else by walking Characters: both must give
    /// the same lines, whatever the whitespace (tabs, CR LF, runs, ends) and wherever the non-ASCII text sits.
    @Test func aCellLaidOutOnItsBytesReadsAsTheCharacterWalkDoes() throws {
        let texts = ["  Unit \t 101 \r\n  B ", "\n\n", "", "a", "Move-\nins", " (1,951.00) ", "x  \u{0B}\u{0C} y",
                     "Caf\u{00E9}  au lait", "\u{00A0}Rent\u{00A0}\u{00A0}due ", "\u{1F}odd\u{7F}", "Name\u{2003}Phone"]
        for text in texts {
            let characterWalk = text.split(whereSeparator: { $0.isWhitespace || $0 == "\u{00A0}" }).joined(separator: " ")
            if let onBytes = XMLElement.collapsedASCII(Array(text.utf8)) {
                #expect(onBytes == characterWalk, "\(text.debugDescription)")
            } else {
                // Left to the Character walk: only text that is not printable ASCII, tabs and line breaks.
                #expect(text.utf8.contains { !(0x20...0x7E).contains($0) && !(0x09...0x0D).contains($0) },
                        "\(text.debugDescription)")
            }
            // Through a document too, where XML allows the characters (no C0 controls but tab and line breaks).
            guard !text.unicodeScalars.contains(where: { $0.value < 0x20 && ![0x09, 0x0A, 0x0D].contains($0.value) })
            else { continue }
            let html = Array("<r><td>\(text)</td></r>".utf8)
            guard let root = try XMLDocument(bytes: html).root else { Issue.record("no root"); return }
            #expect(root.children.map(\.renderedLines) == [characterWalk.isEmpty ? [] : [characterWalk]],
                    "\(text.debugDescription)")
        }
    }

    @Test func elementsOutliveTheReader() throws {
        var kept: [XMLElement] = []
        try XMLStreamReader(bytes: try fixture("yardi_get_unit_information.xml")).forEachElement(named: ["UnitInfo"]) {
            kept.append($0)
        }
        #expect(kept.count == 4)
        #expect(kept.last?.child(named: "UnitID")?.text.isEmpty == false)
    }
}
