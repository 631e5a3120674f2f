import Foundation
import OwnerDashCore
import Testing

/// The running build's identity is the build ID binutils' readelf prints for the same executable.
@Suite struct BuildIdentityTests {
    @Test func theRunningExecutablesBuildIDIsWhatReadelfPrints() throws {
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let readelf = Process()
        readelf.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        readelf.arguments = ["readelf", "-n", executable]
        let pipe = Pipe()
        readelf.standardOutput = pipe
        try readelf.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        readelf.waitUntilExit()
        let printed = output.split(separator: "\n").first { $0.contains("Build ID:") }
            .map { $0.split(separator: ":").last.map { $0.trimmingCharacters(in: .whitespaces) } ?? "" }
        let id = try #require(BuildIdentity.current)
        #expect(id.count == 40 && id == printed, "readelf: \(printed ?? "none")")
    }

    @Test func notAnELFFileHasNone() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("not-elf-\(UUID().uuidString)").path
        try Data("#!/bin/sh\necho hi\n".utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(BuildIdentity.gnuBuildID(ofFile: path) == nil)
        #expect(BuildIdentity.gnuBuildID(ofFile: "/nonexistent/ownerdash") == nil)
    }
}
