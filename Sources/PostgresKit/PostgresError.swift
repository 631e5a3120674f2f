import CLibPQ

/// A failure reported by libpq or the server, with the SQLSTATE when the server sent one and what was being done.
public struct PostgresError: Error, CustomStringConvertible, Equatable {
    /// The five-character SQLSTATE (`23505` unique violation, `40P01` deadlock, `55P03` lock not available), or
    /// nil for a client-side failure (no connection, a broken COPY).
    public var sqlState: String?
    public var message: String
    /// What OwnerDash was doing: the SQL (shortened) or the operation.
    public var context: String

    public init(sqlState: String? = nil, message: String, context: String) {
        self.sqlState = sqlState; self.message = message; self.context = context
    }

    public var description: String {
        let code = sqlState.map { " \($0)" } ?? ""
        return "PostgreSQL error\(code): \(message) — while \(context)"
    }

    /// The SQL, shortened to one line, for error context.
    static func describe(sql: String) -> String {
        let oneLine = sql.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        return "executing " + (oneLine.count > 120 ? String(oneLine.prefix(117)) + "..." : oneLine)
    }

    /// The error of a failed result (its SQLSTATE and primary message), else the connection's last message.
    init(result: OpaquePointer?, connection: OpaquePointer?, context: String) {
        var state: String?
        var message: String?
        if let result {
            state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) }
            message = PQresultErrorField(result, Int32(UInt8(ascii: "M"))).map { String(cString: $0) }
            if let detail = PQresultErrorField(result, Int32(UInt8(ascii: "D"))).map({ String(cString: $0) }) {
                message = (message ?? "") + " (\(detail))"
            }
            // Where it happened: a COPY names its table, line and column (`COPY unified_units, line 5, column ...`).
            if let place = PQresultErrorField(result, Int32(UInt8(ascii: "W"))).map({ String(cString: $0) }) {
                message = (message ?? "") + " [\(place)]"
            }
        }
        if message == nil, let connection, let text = PQerrorMessage(connection) {
            message = String(cString: text)
        }
        let oneLine = (message ?? "unknown error").split(whereSeparator: \.isNewline).joined(separator: "; ")
        self.init(sqlState: state, message: oneLine.trimmingCharacters(), context: context)
    }
}

extension String {
    fileprivate func trimmingCharacters() -> String {
        var text = Substring(self)
        while let last = text.last, last.isWhitespace { text = text.dropLast() }
        while let first = text.first, first.isWhitespace { text = text.dropFirst() }
        return String(text)
    }
}
