// The run records moved to their own module so `ownerdash serve` can read them without the fetch stack; users of
// Ingest keep seeing them through it.
@_exported import RunRecords
