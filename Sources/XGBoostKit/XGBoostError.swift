import CXGBoost

/// A failed XGBoost call: the library's own message (XGBGetLastError) and what OwnerDash was doing.
public struct XGBoostError: Error, CustomStringConvertible, Equatable {
    /// XGBoost's message, first line (its later lines are a C++ stack trace, of no use to a user).
    public var message: String
    /// What OwnerDash was doing: the call and, for a parameter, its name and value.
    public var context: String

    public init(message: String, context: String) {
        self.message = message; self.context = context
    }

    public var description: String { "XGBoost error: \(message) — while \(context)" }

    /// Throws the library's last error when a C call returned non-zero (every XGBoost C function returns 0 or -1).
    static func check(_ code: Int32, _ context: @autoclosure () -> String) throws {
        guard code != 0 else { return }
        let text = XGBGetLastError().map { String(cString: $0) } ?? "unknown error"
        // XGBoost prefixes "[time] file:line: " and appends a stack trace; the sentence in between is what to show.
        var line = text.split(separator: "\n", omittingEmptySubsequences: true).first.map(String.init) ?? text
        if line.hasPrefix("["), let close = line.firstIndex(of: "]") {
            line = String(line[line.index(after: close)...]).trimmingLeadingSpaces
            if let sourceEnd = line.firstRange(of: ": ") {
                let source = line[..<sourceEnd.lowerBound]
                if source.contains(".cc:") || source.contains(".h:") { line = String(line[sourceEnd.upperBound...]) }
            }
        }
        throw XGBoostError(message: line, context: context())
    }
}

extension String {
    fileprivate var trimmingLeadingSpaces: String { String(drop { $0 == " " }) }
}
