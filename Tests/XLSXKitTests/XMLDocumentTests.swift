import Testing
import XMLKit

/// XMLKit is tested here because XLSXKit is its first user; SOAP and HTML readers will use the same API.
@Suite struct XMLDocumentTests {
    @Test func elementsAreMatchedByLocalNameWhateverThePrefix() throws {
        let xml = """
        <?xml version="1.0"?>
        <s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/" xmlns:y="urn:yardi">
          <s:Body><y:Result y:Code="7" plain='yes'><y:Unit>101</y:Unit><y:Unit>102 &amp; 103</y:Unit><!-- c --></y:Result></s:Body>
        </s:Envelope>
        """
        let document = try XMLDocument(bytes: Array(xml.utf8))
        let root = try #require(document.root)
        #expect(root.localName == "Envelope")
        #expect(root.prefix == "s")
        #expect(root.namespaceURI == "http://schemas.xmlsoap.org/soap/envelope/")
        let result = try #require(root.child(named: "Body")?.child(named: "Result"))
        #expect(result.attribute("Code") == "7")
        #expect(result.attribute("Code", namespaceURI: "urn:yardi") == "7")
        #expect(result.attribute("Code", namespaceURI: nil) == nil)
        #expect(result.attribute("plain") == "yes")
        #expect(result.attribute("missing") == nil)
        #expect(result.children(named: "Unit").map(\.text) == ["101", "102 & 103"])
        #expect(root.descendants(named: "Unit").count == 2)
        #expect(result.children.count == 2)
        #expect(result.line == 3)
        #expect(result.attributes.map(\.localName) == ["Code", "plain"])
    }

    @Test func textIncludesCDATAAndNestedElements() throws {
        let document = try XMLDocument(bytes: Array("<a>x<b>y</b><![CDATA[<z>]]></a>".utf8))
        #expect(document.root?.text == "xy<z>")
    }

    @Test func blankTextCanBeDropped() throws {
        let bytes = Array("<a>\n  <b/>\n  <c xml:space=\"preserve\"> </c>\n</a>".utf8)
        #expect(try XMLDocument(bytes: bytes).root?.text == "\n  \n   \n")
        #expect(try XMLDocument(bytes: bytes, options: .removeBlankText).root?.text == " ")
    }

    @Test func malformedXMLReportsLibxml2sMessageAndLine() {
        do {
            _ = try XMLDocument(bytes: Array("<a>\n<b>\n</a>".utf8))
            Issue.record("no error")
        } catch let error as XMLError {
            #expect(error.line == 3)
            #expect(error.message.contains("mismatch"), "\(error.message)")
            #expect(error.description.hasPrefix("XML error at line 3: "))
        } catch {
            Issue.record("unexpected \(error)")
        }
        #expect(throws: XMLError.self) { try XMLDocument(bytes: []) }
    }

    @Test func externalEntitiesAreRefused() {
        let xml = "<?xml version=\"1.0\"?><!DOCTYPE r [<!ENTITY % p SYSTEM \"http://example.invalid/x.dtd\">]><r/>"
        #expect(throws: XMLError(message: "the DOCTYPE declares external entity 'p' (\"http://example.invalid/x.dtd\"); documents with external entities are refused")) {
            try XMLDocument(bytes: Array(xml.utf8))
        }
    }

    @Test func internalEntitiesAreReadOneLevelDeep() throws {
        let xml = "<!DOCTYPE r [<!ENTITY co \"OwnerDash &amp; Co\">]><r a=\"&co;\">&co;!</r>"
        let root = try #require(try XMLDocument(bytes: Array(xml.utf8)).root)
        #expect(root.text == "OwnerDash &amp; Co!")
        #expect(root.attribute("a") == "OwnerDash &amp; Co")
    }

    @Test func htmlIsParsedLeniently() throws {
        let page = try XMLDocument.html(bytes: Array("<html><body><table><tr><td>A<td>B</table>".utf8))
        let cells = page.root?.descendants(named: "td").map(\.text)
        #expect(cells == ["A", "B"])
    }

    @Test func escapingTextForXML() throws {
        #expect(XMLText.escape("plain") == "plain")
        #expect(XMLText.escape("Tom & \"Jerry\" <'x'>") == "Tom &amp; &quot;Jerry&quot; &lt;&apos;x&apos;&gt;")
        #expect(XMLText.escape("a\tb\nc\rd\u{1}") == "a&#9;b&#10;c&#13;d\u{FFFD}")
        // Whatever goes in comes back out of a parser unchanged, in text and in attributes.
        let value = "Smith & Sons <\"ltd\"> 'x'\r\n\ttab"
        let xml = "<r a=\"\(XMLText.escape(value))\">\(XMLText.escape(value))</r>"
        let root = try #require(try XMLDocument(bytes: Array(xml.utf8)).root)
        #expect(root.text == value)
        #expect(root.attribute("a") == value)
    }
}
