extension Array where Element == String {
    /// The items as a sentence names them: `a`, `a and b`, `a, b and c` (empty for none), in messages and help texts.
    public var listedInProse: String {
        count < 2 ? joined() : dropLast().joined(separator: ", ") + " and " + self[count - 1]
    }
}
