/// Whitespace trimming for vendor text, scalar by scalar: cheap for the ASCII most of it is. Foundation's
/// `trimmingCharacters(in:)` goes through NSString (UTF-16) on Linux, and on a first night's ledger answers that
/// conversion took a seventh of the whole ingest.
extension StringProtocol {
    /// The text without leading and trailing whitespace or newlines (Unicode White_Space).
    /// Inlinable so that callers get it specialized for their `String` or `Substring`: called through the generic
    /// protocol, the check of a cell with nothing to trim took about 2,000 instructions (7 % of a large report's load).
    @inlinable
    public var trimmingWhitespace: SubSequence {
        // Most cells start and end with a visible ASCII character: nothing to trim, nothing to scan.
        let scalars = unicodeScalars
        if let first = scalars.first, let last = scalars.last, (0x21...0x7E).contains(first.value),
           (0x21...0x7E).contains(last.value) {
            return self[...]
        }
        guard let start = scalars.firstIndex(where: { !$0.isSpaceLike }) else { return self[endIndex...] }
        guard let last = scalars.lastIndex(where: { !$0.isSpaceLike }) else { return self[endIndex...] }
        return self[start..<scalars.index(after: last)]
    }
}

extension Unicode.Scalar {
    /// Space, tab, a line break, or another Unicode White_Space character (no-break space, em space, ...).
    @inlinable
    public var isSpaceLike: Bool {
        value == 0x20 || (0x09...0x0D).contains(value) || (value >= 0x80 && properties.isWhitespace)
    }
}
