/// A value bound to, or read from, an SQLite statement.
public enum SQLValue: Sendable, Equatable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])
}

extension SQLValue {
    /// `.null` for nil, else the wrapped value's natural SQLite type.
    public init(_ value: String?) { self = value.map(SQLValue.text) ?? .null }
    public init(_ value: Int?) { self = value.map { .integer(Int64($0)) } ?? .null }
    public init(_ value: Int64?) { self = value.map(SQLValue.integer) ?? .null }
    public init(_ value: Double?) { self = value.map(SQLValue.real) ?? .null }

    /// `values` as the text of a JSON array of strings, for SQL that reads a list with `json_each(:parameter)`
    /// (one bound value, however long the list, and no TEMP table: a TEMP schema change expires every prepared
    /// statement of the connection).
    public static func jsonArray(_ values: [String]) -> SQLValue {
        .text("[" + values.map { value in
            var escaped = "\""
            for scalar in value.unicodeScalars {
                switch scalar {
                case "\"": escaped += "\\\""
                case "\\": escaped += "\\\\"
                case "\u{0}"..."\u{1F}":
                    let hex = String(scalar.value, radix: 16)
                    escaped += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                default: escaped.unicodeScalars.append(scalar)
                }
            }
            return escaped + "\""
        }.joined(separator: ",") + "]")
    }

    public var integerValue: Int64? {
        switch self {
        case .integer(let v): return v
        case .real(let v): return Int64(exactly: v.rounded()) 
        case .text(let s): return Int64(s)
        default: return nil
        }
    }

    public var doubleValue: Double? {
        switch self {
        case .integer(let v): return Double(v)
        case .real(let v): return v
        case .text(let s): return Double(s)
        default: return nil
        }
    }

    public var textValue: String? {
        switch self {
        case .text(let s): return s
        case .integer(let v): return String(v)
        case .real(let v): return String(v)
        default: return nil
        }
    }

    public var isNull: Bool { self == .null }
}
