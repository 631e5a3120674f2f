import CLibXML2

/// One element and its subtree as `XMLStreamReader` reads it from the parser's events: flat arrays owned by Swift, no
/// libxml2 nodes (building, copying and freeing a libxml2 subtree per record was most of reading a SOAP answer).
///
/// Elements are stored in document order, so an element's descendants are the elements after it up to its `end`; the
/// character data of the whole subtree is one byte buffer in document order, so an element's `text` is one range of
/// it. Names are the parser's interned strings, kept alive by `parser`; values are copied out of the parser's
/// buffers. Built once (`Builder`) and never changed: an `XMLElement` of a tree stays valid after the reader moved on.
final class XMLTree {
    /// One element: names in the parser's dictionary, ranges into `values` and `characters`, indexes into `elements`.
    struct Element {
        var name: UnsafePointer<xmlChar>?
        var namespaceURI: UnsafePointer<xmlChar>?
        var prefix: UnsafePointer<xmlChar>?
        var line: Int32
        /// The subtree's character data, in `characters`.
        var text: Range<Int32>
        var attributes: Range<Int32>
        var firstChild: Int32 = -1
        var nextSibling: Int32 = -1
        /// One past the last descendant in `elements`.
        var end: Int32 = 0
    }

    /// One attribute: its name in the parser's dictionary, its value a range of a byte buffer (`values`; the reader's
    /// character data while it is queued).
    struct Attribute {
        var name: UnsafePointer<xmlChar>?
        var namespaceURI: UnsafePointer<xmlChar>?
        var value: Range<Int32>
    }

    /// Collects a subtree as the events come (a struct, so that building takes no exclusivity check per event).
    struct Builder {
        var elements: [Element] = []
        var attributes: [Attribute] = []
        var values: [UInt8] = []
        var characters: [UInt8] = []
        /// Open elements: the index of each, and of its last child so far.
        private var open: [(index: Int32, lastChild: Int32)] = []

        /// An attribute of the element about to start.
        mutating func attribute(name: UnsafePointer<xmlChar>?, namespaceURI: UnsafePointer<xmlChar>?,
                                value: UnsafeBufferPointer<UInt8>) {
            let start = Int32(values.count)
            values.append(contentsOf: value)
            attributes.append(Attribute(name: name, namespaceURI: namespaceURI, value: start ..< Int32(values.count)))
        }

        /// An element starts below the open one (the first is the root), with the attributes added since the last start.
        mutating func start(name: UnsafePointer<xmlChar>?, namespaceURI: UnsafePointer<xmlChar>?,
                            prefix: UnsafePointer<xmlChar>?, line: Int32, firstAttribute: Int32) {
            let index = Int32(elements.count)
            let here = Int32(characters.count)
            elements.append(Element(name: name, namespaceURI: namespaceURI, prefix: prefix, line: line, text: here ..< here,
                                    attributes: firstAttribute ..< Int32(attributes.count)))
            if let parent = open.last {
                if parent.lastChild >= 0 {
                    elements[Int(parent.lastChild)].nextSibling = index
                } else {
                    elements[Int(parent.index)].firstChild = index
                }
                open[open.count - 1].lastChild = index
            }
            open.append((index, -1))
        }

        /// Character data of the open element.
        mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
            characters.append(contentsOf: bytes)
        }

        /// The open element ends.
        mutating func end() {
            guard let closed = open.popLast() else { return }
            let index = Int(closed.index)
            elements[index].text = elements[index].text.lowerBound ..< Int32(characters.count)
            elements[index].end = Int32(elements.count)
        }
    }

    let elements: [Element]
    let attributes: [Attribute]
    let values: [UInt8]
    let characters: [UInt8]
    /// Owns the parser whose dictionary holds the names.
    let parser: AnyObject

    init(_ builder: Builder, parser: AnyObject) {
        elements = builder.elements
        attributes = builder.attributes
        values = builder.values
        characters = builder.characters
        self.parser = parser
    }

    // MARK: - Reading (XMLElement)

    func value(_ range: Range<Int32>) -> String {
        values.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[range.indices]), as: UTF8.self) }
    }

    func hasName(_ index: Int, _ name: String) -> Bool {
        guard let own = elements[index].name else { return false }
        return equal(own, name)
    }

    func text(_ index: Int) -> String {
        characters.withUnsafeBufferPointer {
            String(decoding: UnsafeBufferPointer(rebasing: $0[elements[index].text.indices]), as: UTF8.self)
        }
    }

    /// The children of `index`, in document order.
    func children(_ index: Int) -> [Int] {
        var result: [Int] = []
        var next = elements[index].firstChild
        while next >= 0 {
            result.append(Int(next))
            next = elements[Int(next)].nextSibling
        }
        return result
    }

    /// The first child of `index` named `name`.
    ///
    /// A decoder asks a record for each of its few dozen fields by name, so this scans siblings often: the name's
    /// bytes are taken once, and each sibling's name compared in place.
    func child(_ index: Int, named name: String) -> Int? {
        var name = name
        return name.withUTF8 { wanted in
            elements.withUnsafeBufferPointer { elements in
                var next = elements[index].firstChild
                while next >= 0 {
                    if let own = elements[Int(next)].name, equal(own, wanted) { return Int(next) }
                    next = elements[Int(next)].nextSibling
                }
                return nil
            }
        }
    }

    /// The value of the first attribute of `index` named `name` (in `namespaceURI` when `matchingNamespace`).
    func attribute(_ index: Int, _ name: String, namespaceURI: String? = nil, matchingNamespace: Bool = false) -> String? {
        let range = elements[index].attributes
        for attribute in attributes[Int(range.lowerBound) ..< Int(range.upperBound)] {
            guard let own = attribute.name, equal(own, name) else { continue }
            if matchingNamespace && string(attribute.namespaceURI) != namespaceURI { continue }
            return value(attribute.value)
        }
        return nil
    }

    /// The pieces of `index`'s content in document order: its own character data between its children, and the
    /// children themselves (what `renderedLines` walks).
    func content(_ index: Int, _ visit: (_ text: Range<Int>?, _ child: Int?) -> Void) {
        var position = Int(elements[index].text.lowerBound)
        for child in children(index) {
            let childText = elements[child].text
            if Int(childText.lowerBound) > position { visit(position ..< Int(childText.lowerBound), nil) }
            visit(nil, child)
            position = Int(childText.upperBound)
        }
        let end = Int(elements[index].text.upperBound)
        if end > position { visit(position ..< end, nil) }
    }
}

extension Range where Bound == Int32 {
    /// The same positions as array indexes.
    var indices: Range<Int> { Int(lowerBound) ..< Int(upperBound) }
}
