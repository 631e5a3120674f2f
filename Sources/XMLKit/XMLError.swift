/// Why a document could not be parsed or was refused: libxml2's message and the line it points at.
public struct XMLError: Error, Equatable, Sendable, CustomStringConvertible {
    /// libxml2's message, or ours for refusals (external entities, oversized input).
    public var message: String
    /// 1-based line of the problem; 0 when unknown.
    public var line: Int
    /// libxml2's error code (an `xmlParserErrors` value); 0 for refusals made by XMLKit itself.
    public var code: Int

    public init(message: String, line: Int = 0, code: Int = 0) {
        self.message = message
        self.line = line
        self.code = code
    }

    public var description: String {
        line > 0 ? "XML error at line \(line): \(message)" : "XML error: \(message)"
    }
}
