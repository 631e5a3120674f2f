import Metrics

/// Output formats of the read commands (docs/contracts.md, "Command line and exit codes").
public enum OutputFormat: String, Sendable, CaseIterable {
    case table, json, csv
}

/// Writes a metric result in one of the output formats; the text is everything the command prints on stdout.
public enum MetricOutput {
    /// The result as an aligned table, JSON or CSV (each ends with a newline).
    public static func render(_ result: MetricResult, as format: OutputFormat) -> String {
        switch format {
        case .table: TableFormat.render(result)
        case .json: JSONFormat.render(result)
        case .csv: CSVFormat.render(result)
        }
    }
}
