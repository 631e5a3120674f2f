/// Output formats of the read commands (DESIGN section 2).
public enum OutputFormat: String, Sendable, CaseIterable {
    case table, json, csv
}
