import Testing
@testable import Ingest
