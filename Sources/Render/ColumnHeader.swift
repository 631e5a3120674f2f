import Foundation

/// The header a person reads for a column named as in JSON and CSV (`gl_category` -> `GL category`, `move_ins_mtd`
/// -> `Move-ins MTD`, `exposure_30_pct` -> `Exposure 30 %`, `balance_0_30` -> `Balance 0-30`): every workbook's header
/// row and tab names go through it, so the same column reads the same everywhere.
public enum ColumnHeader {
    /// Words spelled otherwise than in lower case: abbreviations, units and the hyphenated words of the domain.
    static let words: [String: String] = [
        "gl": "GL", "pms": "PMS", "id": "ID", "mtd": "MTD", "pct": "%", "psf": "per sq ft", "sqft": "sq ft",
        "avg": "average", "ms": "ms", "app": "application", "ins": "ins", "outs": "outs",
    ]

    /// Pairs of words joined by a hyphen (`move_ins` -> `move-ins`, `pre_leased` -> `pre-leased`).
    static let hyphenated: Set<String> = ["move ins", "move outs", "move in", "move out", "pre leased", "make ready",
                                          "trade out", "loss to lease", "in place"]

    /// The header text of the column named `name`.
    public static func text(_ name: String) -> String {
        var parts = name.split(separator: "_").map(String.init)
        // Aging buckets: `0_30` -> `0-30`, `over_90` stays words.
        var merged: [String] = []
        var index = 0
        while index < parts.count {
            if index + 1 < parts.count, Int(parts[index]) != nil, Int(parts[index + 1]) != nil {
                merged.append(parts[index] + "-" + parts[index + 1])
                index += 2
            } else {
                merged.append(parts[index])
                index += 1
            }
        }
        // Windows: `30d` -> `(30 days)`, `3m` -> `(3 months)`; after `over` / `under` no parentheses (`Open over 30 days`).
        parts = merged.enumerated().map { index, word in
            if let unit = word.last, unit == "d" || unit == "m", let count = Int(word.dropLast()) {
                let span = "\(count) \(unit == "d" ? "day" : "month")\(count == 1 ? "" : "s")"
                return index > 0 && ["over", "under"].contains(merged[index - 1]) ? span : "(\(span))"
            }
            return words[word] ?? word
        }
        var text = parts.joined(separator: " ")
        for pair in hyphenated where text.contains(pair) {
            text = text.replacingOccurrences(of: pair, with: pair.replacingOccurrences(of: " ", with: "-"))
        }
        guard let first = text.first else { return name }
        return first.uppercased() + text.dropFirst()
    }
}
