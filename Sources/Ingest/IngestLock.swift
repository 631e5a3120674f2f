/// Placeholder until the ingest lock lands (issue 4, item 4).
enum IngestLockPlaceholder {}
