import Foundation
import Glibc
import SOAP

// The fetch's check of SOAP answers two ways, side by side: over the whole answer (libxml2 parses every record) and
// framed by the records the payload lists (`SOAPResponse.check(path:records:)`: libxml2 parses what lies around them).
// Reads a directory of answers named `<operation>.<anything>.xml` (scripts/bench/soap_check.sh writes one from a
// year.sh run's last night), checks every one each way, alternating, RUNS times, and prints one line of JSON a pass:
// the way, the answers, their bytes and the thread CPU seconds.

let arguments = CommandLine.arguments
guard arguments.count == 3, let runs = Int(arguments[2]) else {
    FileHandle.standardError.write(Data("usage: SOAPCheckBench DIR RUNS\n".utf8))
    exit(2)
}
let directory = arguments[1]

struct Answer { let path: String, operation: String, root: String, record: String?, bytes: Int }

let answers: [Answer] = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted().compactMap { name in
    let stem = String(name.prefix { $0 != "." })
    let path = directory + "/" + name
    let bytes = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    if let operation = RPXOperation(rawValue: stem) {
        return Answer(path: path, operation: operation.name, root: operation.payloadRoot, record: operation.listedRecord, bytes: bytes)
    }
    if let operation = YardiOperation(rawValue: stem) {
        return Answer(path: path, operation: operation.name, root: operation.payloadRoot, record: operation.listedRecord, bytes: bytes)
    }
    return nil
}
guard !answers.isEmpty else {
    FileHandle.standardError.write(Data("SOAPCheckBench: no RPX or Yardi answer in \(directory)\n".utf8))
    exit(1)
}

func threadCPU() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

let totalBytes = answers.reduce(0) { $0 + $1.bytes }
for _ in 0..<runs {
    for framed in [false, true] {
        let started = threadCPU()
        var failed = 0
        for answer in answers {
            do {
                try SOAPResponse.check(path: answer.path, operation: answer.operation, expectedRoot: answer.root,
                                       records: framed ? answer.record : nil)
            } catch {
                failed += 1
            }
        }
        let seconds = threadCPU() - started
        print(#"{"way": "\#(framed ? "framed" : "whole")", "answers": \#(answers.count), "bytes": \#(totalBytes), "#
              + #""failed": \#(failed), "cpu_seconds": \#(String(format: "%.3f", seconds))}"#)
    }
}
