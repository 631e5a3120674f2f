import Render

/// A JSON value whose objects keep their members in the order written: the OpenAPI document and the response schemas
/// are written as JSON literals next to their routes (`["type": "object", "properties": [...]]`), and read in that
/// order in the document and on the `/api/docs` page.
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case integer(Int)
    case number(Double)
    case string(String)
    case array([JSONValue])
    /// Members in order; a key appears once.
    case object([Member])

    /// One member of an object.
    public struct Member: Sendable, Equatable {
        public var key: String
        public var value: JSONValue
        public init(_ key: String, _ value: JSONValue) { self.key = key; self.value = value }
    }

    /// The member named `key` of an object (nil for anything else).
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// An object's members (empty for anything else).
    public var members: [Member] {
        if case .object(let members) = self { return members }
        return []
    }

    /// An array's elements (empty for anything else).
    public var elements: [JSONValue] {
        if case .array(let elements) = self { return elements }
        return []
    }

    /// A string's text (nil for anything else).
    public var text: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// An object with `member` added at the end, or its value replaced where the key is already present.
    public func setting(_ key: String, _ value: JSONValue) -> JSONValue {
        var members = self.members
        if let index = members.firstIndex(where: { $0.key == key }) {
            members[index].value = value
        } else {
            members.append(Member(key, value))
        }
        return .object(members)
    }

    /// Indented by two spaces per level, one member or element per line, ending in a newline; an array or object of
    /// scalars that fits in 100 characters stays on one line (`"type": ["string", "null"]`), so the document reads
    /// like one written by hand.
    public var pretty: String {
        var out = ""
        write(&out, indent: "")
        return out + "\n"
    }

    private var isScalar: Bool {
        switch self {
        case .array(let elements): return elements.isEmpty
        case .object(let members): return members.isEmpty
        default: return true
        }
    }

    /// On one line, when it holds only scalars and fits.
    private var inline: String? {
        switch self {
        case .array(let elements) where elements.allSatisfy(\.isScalar):
            let text = "[" + elements.map(\.pretty).map { String($0.dropLast()) }.joined(separator: ", ") + "]"
            return text.count <= 100 ? text : nil
        case .object(let members) where members.allSatisfy(\.value.isScalar):
            let text = "{" + members.map { JSONFormat.string($0.key) + ": " + String($0.value.pretty.dropLast()) }.joined(separator: ", ") + "}"
            return text.count <= 100 ? text : nil
        default:
            return nil
        }
    }

    private func write(_ out: inout String, indent: String) {
        switch self {
        case .null: out += "null"
        case .bool(let flag): out += flag ? "true" : "false"
        case .integer(let number): out += String(number)
        case .number(let number): out += number.isFinite ? String(number) : "null"
        case .string(let text): out += JSONFormat.string(text)
        case .array(let elements):
            guard !elements.isEmpty else { out += "[]"; return }
            if let inline { out += inline; return }
            let inner = indent + "  "
            out += "[\n"
            for (index, element) in elements.enumerated() {
                out += inner
                element.write(&out, indent: inner)
                out += index == elements.count - 1 ? "\n" : ",\n"
            }
            out += indent + "]"
        case .object(let members):
            guard !members.isEmpty else { out += "{}"; return }
            if let inline { out += inline; return }
            let inner = indent + "  "
            out += "{\n"
            for (index, member) in members.enumerated() {
                out += inner + JSONFormat.string(member.key) + ": "
                member.value.write(&out, indent: inner)
                out += index == members.count - 1 ? "\n" : ",\n"
            }
            out += indent + "}"
        }
    }
}

extension JSONValue: ExpressibleByDictionaryLiteral, ExpressibleByArrayLiteral, ExpressibleByStringLiteral,
                     ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral, ExpressibleByFloatLiteral, ExpressibleByNilLiteral {
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        precondition(Set(elements.map(\.0)).count == elements.count, "a key given twice in \(elements.map(\.0))")
        self = .object(elements.map { Member($0.0, $0.1) })
    }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .integer(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(nilLiteral: ()) { self = .null }
}
