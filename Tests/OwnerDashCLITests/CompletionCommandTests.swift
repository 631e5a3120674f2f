import Foundation
import Testing

/// `ownerdash completion bash|zsh`, loaded into a real bash as a user's shell would, and asked what it completes.
@Suite struct CompletionCommandTests {
    /// What bash offers for the words typed (the last one being completed).
    static func complete(_ script: URL, _ words: [String]) throws -> [String] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        let quoted = words.map { "'\($0)'" }.joined(separator: " ")
        process.arguments = ["--norc", "-c", "source '\(script.path)'; COMP_WORDS=(ownerdash \(quoted)); COMP_CWORD=\(words.count); _ownerdash; printf '%s\\n' \"${COMPREPLY[@]}\""]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return text.split(separator: "\n").map(String.init)
    }

    @Test func bashCompletesCommandsSubcommandsOptionsAndTheirValues() throws {
        let directory = DataDir()
        try FileManager.default.createDirectory(at: directory.url, withIntermediateDirectories: true)
        let generated = try OwnerDash.run(["completion", "bash"])
        #expect(generated.status == 0, "\(generated.stderr)")
        let script = directory.url.appendingPathComponent("ownerdash.bash")
        try generated.stdout.write(to: script, atomically: true, encoding: .utf8)

        #expect(try Self.complete(script, ["qu"]) == ["query"])
        #expect(try Self.complete(script, ["re"]).sorted() == ["report"])
        #expect(Set(try Self.complete(script, ["report", ""])) == ["lease-status", "rental-tracker", "statement", "tenant-history", "debtors", "maintenance", "expenses"])
        #expect(try Self.complete(script, ["query", "--fo"]) == ["--format"])
        #expect(try Self.complete(script, ["query", "--format", ""]) == ["table", "json", "csv", "xlsx"])
        #expect(try Self.complete(script, ["query", "occ"]) == ["occupancy"])
        #expect(try Self.complete(script, ["ingest", "--pms", "y"]) == ["yardi"])
        #expect(try Self.complete(script, ["logins", ""]) == ["add", "list", "remove"])
        #expect(try Self.complete(script, ["report", "debtors", "--database"]) == ["--database-url"], "global options too")
        #expect(try Self.complete(script, ["help", "dash"]) == ["dashboard"])
        // File and directory names where the option takes one.
        let dataDir = try Self.complete(script, ["query", "--data-dir", directory.url.path + "/"])
        #expect(dataDir.isEmpty || dataDir.allSatisfy { $0.hasPrefix(directory.url.path) })
        #expect(try Self.complete(script, ["load", "--config", script.path.dropLast(4).description]) == [script.path])

        let zsh = try OwnerDash.run(["completion", "zsh"])
        #expect(zsh.status == 0 && zsh.stdout.hasPrefix("#compdef ownerdash\n") && zsh.stdout.contains("bashcompinit"))
        #expect(try OwnerDash.run(["completion", "fish"]).stderr.contains("must be bash or zsh"))
    }
}
