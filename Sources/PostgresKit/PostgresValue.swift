import Foundation

/// A parameter sent to PostgreSQL in its text form (libpq's text format; the server casts it to the column's type).
public enum PostgresValue: Sendable, Equatable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
    case null
    case text(String)
    case integer(Int64)
    case real(Double)
    case boolean(Bool)

    public init(stringLiteral value: String) { self = .text(value) }
    public init(integerLiteral value: Int64) { self = .integer(value) }

    /// The text libpq sends, nil for NULL. A real prints its shortest round-trip form, so `numeric` keeps it exactly.
    public var text: String? {
        switch self {
        case .null: nil
        case .text(let value): value
        case .integer(let value): String(value)
        case .real(let value): value.isFinite ? "\(value)" : (value.isNaN ? "NaN" : (value > 0 ? "Infinity" : "-Infinity"))
        case .boolean(let value): value ? "true" : "false"
        }
    }
}

/// `:name` parameters in SQL rewritten to libpq's `$1, $2, ...`, skipping quoted text, comments and `::` casts.
struct NamedParameters {
    let sql: String
    let names: [String]

    init(_ source: String) {
        var output = ""
        var names: [String] = []
        let characters = Array(source)
        var index = 0
        func isNameStart(_ c: Character) -> Bool { c == "_" || (c.isASCII && c.isLetter) }
        func isNameCharacter(_ c: Character) -> Bool { isNameStart(c) || (c.isASCII && c.isNumber) }
        while index < characters.count {
            let c = characters[index]
            if c == "'" || c == "\"" {
                // Copy a quoted literal or identifier whole ('' and "" escape the quote).
                output.append(c); index += 1
                while index < characters.count {
                    output.append(characters[index])
                    if characters[index] == c {
                        if index + 1 < characters.count, characters[index + 1] == c {
                            output.append(c); index += 2; continue
                        }
                        index += 1; break
                    }
                    index += 1
                }
            } else if c == "-", index + 1 < characters.count, characters[index + 1] == "-" {
                while index < characters.count, characters[index] != "\n" { output.append(characters[index]); index += 1 }
            } else if c == ":", index + 1 < characters.count, characters[index + 1] == ":" {
                output += "::"; index += 2
            } else if c == ":", index + 1 < characters.count, isNameStart(characters[index + 1]) {
                var end = index + 1
                while end < characters.count, isNameCharacter(characters[end]) { end += 1 }
                let name = String(characters[(index + 1)..<end])
                let position = names.firstIndex(of: name) ?? { names.append(name); return names.count - 1 }()
                output += "$\(position + 1)"
                index = end
            } else {
                output.append(c); index += 1
            }
        }
        self.sql = output
        self.names = names
    }

    /// The values in `$n` order; a name the SQL uses but `values` lacks is an error naming it.
    func ordered(_ values: [String: PostgresValue], context: String) throws -> [String?] {
        try names.map { name in
            guard let value = values[name] else {
                throw PostgresError(message: "no value for parameter :\(name)", context: context)
            }
            return value.text
        }
    }
}
