/// Where two long texts (pages, JSON answers) first differ, short enough for a failure message: a test comparing them
/// whole would print both in full, and CI shows only the tail of the output.
public enum TextDifference {
    /// nil when `left` and `right` are equal; else the first differing line's number and both versions of it, each cut
    /// to `width` characters around the first differing character.
    public static func first(_ left: String, _ right: String, width: Int = 240) -> String? {
        guard left != right else { return nil }
        let leftLines = left.split(separator: "\n", omittingEmptySubsequences: false)
        let rightLines = right.split(separator: "\n", omittingEmptySubsequences: false)
        for index in 0..<max(leftLines.count, rightLines.count) {
            let a = index < leftLines.count ? String(leftLines[index]) : "<no line>"
            let b = index < rightLines.count ? String(rightLines[index]) : "<no line>"
            guard a != b else { continue }
            let common = zip(a, b).prefix(while: { $0 == $1 }).count
            let start = max(0, common - width / 2)
            func cut(_ line: String) -> String { String(line.dropFirst(start).prefix(width)) }
            return "line \(index + 1), character \(common + 1): \"\(cut(a))\" against \"\(cut(b))\""
        }
        return "they differ in line endings only"
    }
}
