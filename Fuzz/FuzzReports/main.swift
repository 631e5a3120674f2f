import CFuzzDriver
import Parse
import XLSXKit

/// Discards what a parse emits: the fuzzer looks for traps and memory errors, not records.
struct DiscardingSink: ReportSink {
    mutating func begin(_ metadata: ReportMetadata) throws {}
    mutating func emit(_ record: ReportRecord) throws {}
}

/// libFuzzer entry point over the OneSite report parsers on top of the file readers: every sheet of whatever
/// `SpreadsheetFile(bytes:)` reads is detected and parsed (`RealPageReports.parse`), as `load` does.
enum FuzzReports {
    static func run(_ bytes: [UInt8]) {
        guard let file = try? SpreadsheetFile(bytes: bytes) else { return }
        for index in file.sheetNames.indices {
            guard let sheet = try? file.sheet(at: index), var rows = try? sheet.rows() else { continue }
            let merges = (try? sheet.mergedRanges()) ?? []
            var sink = DiscardingSink()
            _ = try? RealPageReports.parse(nil, rows: &rows, merges: merges, sheetName: sheet.name, sink: &sink)
        }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzReportsOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    FuzzReports.run(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
    return 0
}

/// SwiftPM names an executable's entry point `<Target>_main` and makes it the process's `main`.
@_cdecl("FuzzReports_main")
public func fuzzReportsMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv, fuzzReportsOneInput)
}
