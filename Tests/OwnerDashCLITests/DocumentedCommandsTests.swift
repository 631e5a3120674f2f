import Foundation
import Testing
@testable import OwnerDashCLI

/// The documentation cannot rot (docs/contributors.md, "Tests"): every `ownerdash` command in a fenced code block of
/// README.md, ARCHITECTURE.md and docs/*.md is parsed by the real command line (the command found as `CLI.run` finds
/// it, every option declared, its values accepted by the command's own checks, nothing run); every `scripts/` path
/// those pages name exists; every relative link resolves to a file and, with a `#fragment`, to one of its headings.
@Suite struct DocumentedCommandsTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// README.md, ARCHITECTURE.md and every docs/*.md, as paths from the repository's root.
    static func documents() throws -> [String] {
        let docs = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("docs").path)
            .filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
        return ["README.md", "ARCHITECTURE.md"] + docs
    }

    static func text(_ document: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(document), encoding: .utf8)
    }

    // MARK: - Commands

    @Test func everyDocumentedCommandParses() throws {
        var checked = 0
        for document in try Self.documents() {
            for (line, command) in Self.commands(in: try Self.text(document)) {
                checked += 1
                if let problem = Self.problem(parsing: command) {
                    Issue.record("\(document):\(line): ownerdash \(command.joined(separator: " ")): \(problem)")
                }
            }
        }
        // The extraction itself is held to what the pages show: a change that found no commands would pass vacuously.
        #expect(checked > 80, "only \(checked) ownerdash commands found in the documentation")
    }

    /// Why `arguments` (the words after `ownerdash`) would not parse, or nil when they do. Mirrors `CLI.run` up to
    /// the point where the command would run.
    static func problem(parsing arguments: [String]) -> String? {
        var arguments = readerFilesStoodIn(arguments).map { $0 == "-h" ? "--help" : $0 }
        if arguments.first == "help" && arguments.count > 1 {
            arguments = Array(arguments.dropFirst().filter { $0 != "--help" }) + ["--help"]
        }
        if arguments.isEmpty || arguments == ["--help"] || arguments == ["help"] || arguments == ["--version"] { return nil }
        let spellings = CLI.commands.flatMap { command in ([command.names] + command.aliases).map { (command, $0) } }
        guard let (command, spelling) = spellings.filter({ arguments.starts(with: $0.1) })
            .max(by: { $0.1.count < $1.1.count }) else {
            if CLI.groupHelp(arguments[0]) != nil && arguments.contains("--help") { return nil }
            return "no such command \"\(arguments[0])\""
        }
        let rest = Array(arguments.dropFirst(spelling.count))
        // `--help` prints the help whatever else is given; the other words must still be the command's own.
        do {
            let parsed = try ParsedArguments(rest, specs: command.arguments + GlobalOptions.specs, command: command.commandLine)
            if rest.contains("--help") { return nil }
            let global = try GlobalOptions(parsed, command: command.commandLine)
            try command.init(parsed, global: global).validate()
            return nil
        } catch let error as UsageError {
            if rest.contains("--help"), error.description.contains(": missing ") { return nil }
            return error.description
        } catch {
            // Any other error is not the command line's (`CLI.run` exits 3 for it, not 1).
            return nil
        }
    }

    /// Options whose value is a file of the reader's that the command reads while taking its options in.
    static let readerFiles = ["--template"]

    /// A page's `--template notice.txt` is the reader's own file: when it does not exist here, a stand-in (a plain
    /// notice) takes its place, so the rest of the command line is still checked.
    static func readerFilesStoodIn(_ arguments: [String]) -> [String] {
        let standIn = FileManager.default.temporaryDirectory.appendingPathComponent("documented-commands-notice.txt")
        try? "Past-due notice.\n".write(to: standIn, atomically: true, encoding: .utf8)
        var result = arguments
        for index in result.indices {
            for option in readerFiles {
                if result[index].hasPrefix(option + "="),
                   !FileManager.default.fileExists(atPath: String(result[index].dropFirst(option.count + 1))) {
                    result[index] = option + "=" + standIn.path
                } else if result[index] == option, index + 1 < result.count,
                          !FileManager.default.fileExists(atPath: result[index + 1]) {
                    result[index + 1] = standIn.path
                }
            }
        }
        return result
    }

    /// The `ownerdash` commands of the fenced code blocks: (line number, the words after `ownerdash`).
    static func commands(in text: String) -> [(Int, [String])] {
        var found: [(Int, [String])] = []
        for (line, shellLine) in codeLines(in: text) {
            for simple in simpleCommands(tokens(shellLine)) {
                var words = simple[...]
                while let first = words.first {
                    if first.range(of: #"^[A-Za-z_][A-Za-z0-9_]*="#, options: .regularExpression) != nil || first == "exec"
                        || first == "time" || first == "env" {
                        words = words.dropFirst()
                    } else if first == "sudo" || first == "nice" {
                        words = words.dropFirst()
                        while let option = words.first, option.hasPrefix("-") {
                            words = words.dropFirst()
                            if ["-u", "-g", "-n"].contains(option) { words = words.dropFirst() }
                        }
                    } else {
                        break
                    }
                }
                guard let program = words.first, program == "ownerdash" || program.hasSuffix("/ownerdash") else { continue }
                found.append((line, Array(words.dropFirst())))
            }
        }
        return found
    }

    /// The lines inside fenced code blocks, with `\`-continued lines joined, each with its (first) line number.
    static func codeLines(in text: String) -> [(Int, String)] {
        var result: [(Int, String)] = []
        var inside = false
        var pending: (Int, String)?
        for (index, line) in text.components(separatedBy: "\n").enumerated() {
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") {
                inside.toggle()
                if let open = pending { result.append(open); pending = nil }
                continue
            }
            guard inside else { continue }
            let joined = pending.map { ($0.0, $0.1 + " " + line) } ?? (index + 1, line)
            if joined.1.hasSuffix("\\") {
                pending = (joined.0, String(joined.1.dropLast()))
            } else {
                result.append(joined)
                pending = nil
            }
        }
        return result
    }

    enum Token: Equatable {
        case word(String)
        case separator   // && || | ; &
        case redirection // > >> < 2> 2>&1 ...: the next word is its target
    }

    /// A shell line as words and operators: quotes and backslashes as the shell reads them, `#` at a word's start
    /// ends the line, `<placeholder words>` are one word.
    static func tokens(_ line: String) -> [Token] {
        var tokens: [Token] = []
        var word = ""
        var inWord = false
        let characters = Array(line)
        var index = 0
        func endWord() {
            if inWord { tokens.append(.word(word)) }
            word = ""
            inWord = false
        }
        while index < characters.count {
            let character = characters[index]
            let next: Character? = index + 1 < characters.count ? characters[index + 1] : nil
            switch character {
            case " ", "\t":
                endWord()
            case "#" where !inWord:
                index = characters.count
                continue
            case "'":
                inWord = true
                index += 1
                while index < characters.count, characters[index] != "'" { word.append(characters[index]); index += 1 }
            case "\"":
                inWord = true
                index += 1
                while index < characters.count, characters[index] != "\"" {
                    if characters[index] == "\\", index + 1 < characters.count, "\"\\$`".contains(characters[index + 1]) {
                        index += 1
                    }
                    word.append(characters[index])
                    index += 1
                }
            case "\\":
                inWord = true
                if let next { word.append(next); index += 1 }
            case "<" where !inWord && next?.isLetter == true && characters[index...].contains(">"):
                // A placeholder the reader fills in (`<run id the demo printed>`): one word.
                let close = characters[index...].firstIndex(of: ">")!
                tokens.append(.word(String(characters[(index + 1)..<close]).replacingOccurrences(of: " ", with: "_")))
                index = close
            case "<", ">":
                if inWord, word.allSatisfy(\.isNumber) { word = ""; inWord = false }  // 2> : the descriptor
                endWord()
                tokens.append(.redirection)
                while index + 1 < characters.count, ">&".contains(characters[index + 1]) { index += 1 }
            case "&", "|", ";":
                endWord()
                tokens.append(.separator)
                if let next, next == character, character != ";" { index += 1 }
            default:
                inWord = true
                word.append(character)
            }
            index += 1
        }
        endWord()
        return tokens
    }

    /// The simple commands of a token list: split at separators, redirections and their targets left out.
    static func simpleCommands(_ tokens: [Token]) -> [[String]] {
        var commands: [[String]] = [[]]
        var skipNext = false
        for token in tokens {
            switch token {
            case .separator: commands.append([])
            case .redirection: skipNext = true
            case .word(let word):
                if skipNext { skipNext = false } else { commands[commands.count - 1].append(word) }
            }
        }
        return commands.filter { !$0.isEmpty }
    }

    // MARK: - scripts/ paths

    /// The scripts that build install what the build needs: every Debian package Package.swift names as a system
    /// library's provider is in the `ensure_packages` call of scripts/run.sh, scripts/test.sh and scripts/package.sh,
    /// and README.md's "The two commands" names it (`scripts/run.sh` did not install libxgboost-dev, which the build
    /// needs and the README said it installed: on a fresh machine its build stopped at pkg-config's xgboost).
    @Test func everyBuildDependencyIsInstalledByTheScripts() throws {
        let providers = Self.aptProviders(in: try Self.text("Package.swift"))
        #expect(providers.count >= 9, "only \(providers) found in Package.swift")
        for script in ["scripts/run.sh", "scripts/test.sh", "scripts/package.sh"] {
            let installed = Self.ensuredPackages(in: try Self.text(script))
            for package in providers where !installed.contains(package) {
                Issue.record("\(script) does not install \(package), which Package.swift builds against")
            }
        }
        let readme = try Self.text("README.md")
        for package in providers where !readme.contains(package) {
            Issue.record("README.md does not name \(package) among the packages the two commands install")
        }
    }

    /// The Debian packages of Package.swift's `providers: [.apt([...])]`.
    static func aptProviders(in manifest: String) -> [String] {
        let pattern = try! NSRegularExpression(pattern: #"\.apt\(\[([^\]]*)\]\)"#)
        var result: [String] = []
        for match in pattern.matches(in: manifest, range: NSRange(manifest.startIndex..., in: manifest)) {
            guard let range = Range(match.range(at: 1), in: manifest) else { continue }
            result += manifest[range].split(separator: ",")
                .map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "\" \n")) }
        }
        return result
    }

    /// The words of a script's `ensure_packages` calls, `\`-continued lines joined.
    static func ensuredPackages(in script: String) -> Set<String> {
        var result = Set<String>()
        for line in script.replacingOccurrences(of: "\\\n", with: " ").split(separator: "\n")
        where line.hasPrefix("ensure_packages ") {
            result.formUnion(line.split(separator: " ").dropFirst().map(String.init))
        }
        return result
    }

    @Test func everyNamedScriptExists() throws {
        var checked = 0
        for document in try Self.documents() {
            for (line, path) in Self.scriptPaths(in: try Self.text(document)) where !path.hasPrefix(Self.benchmarkOutput) {
                checked += 1
                if !FileManager.default.fileExists(atPath: Self.root.appendingPathComponent(path).path) {
                    Issue.record("\(document):\(line): \(path) does not exist")
                }
            }
        }
        #expect(checked > 30, "only \(checked) scripts/ paths found in the documentation")
    }

    /// Where the benchmark scripts write their results (git-ignored): named in the pages, absent from a checkout.
    static let benchmarkOutput = "scripts/bench/out/"

    /// Every `scripts/...` path named (in prose, code or a link), `{a,b}` expanded, a leading `../` dropped.
    static func scriptPaths(in text: String) -> [(Int, String)] {
        var paths: [(Int, String)] = []
        let pattern = try! NSRegularExpression(pattern: #"(?<![A-Za-z0-9_./-])(?:\.\./)*(scripts/[A-Za-z0-9_./{},-]*)"#)
        for (index, line) in text.components(separatedBy: "\n").enumerated() {
            let range = NSRange(line.startIndex..., in: line)
            for match in pattern.matches(in: line, range: range) {
                var path = String(line[Range(match.range(at: 1), in: line)!])
                while let last = path.last, ".,".contains(last) { path.removeLast() }
                for expanded in expandBraces(path) { paths.append((index + 1, expanded)) }
            }
        }
        return paths
    }

    static func expandBraces(_ path: String) -> [String] {
        guard let open = path.firstIndex(of: "{"), let close = path[open...].firstIndex(of: "}") else {
            return [path.replacingOccurrences(of: "}", with: "")]
        }
        let choices = path[path.index(after: open)..<close].split(separator: ",", omittingEmptySubsequences: false)
        return choices.flatMap { expandBraces(String(path[..<open]) + $0 + String(path[path.index(after: close)...])) }
    }

    // MARK: - Links

    @Test func everyRelativeLinkResolves() throws {
        var checked = 0
        for document in try Self.documents() {
            let base = Self.root.appendingPathComponent(document).deletingLastPathComponent()
            for (line, target) in Self.links(in: try Self.text(document)) {
                if target.contains("://") || target.hasPrefix("mailto:") { continue }
                checked += 1
                let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
                let file = parts[0].isEmpty ? Self.root.appendingPathComponent(document)
                                            : base.appendingPathComponent(parts[0]).standardizedFileURL
                guard FileManager.default.fileExists(atPath: file.path) else {
                    Issue.record("\(document):\(line): \(target): no such file")
                    continue
                }
                if parts.count == 2, file.pathExtension == "md" {
                    let anchors = Self.anchors(in: try String(contentsOf: file, encoding: .utf8))
                    if !anchors.contains(parts[1]) {
                        Issue.record("\(document):\(line): \(target): no heading with that anchor in \(file.lastPathComponent)")
                    }
                }
            }
        }
        #expect(checked > 50, "only \(checked) relative links found in the documentation")
    }

    /// The targets of `[text](target)` and `![alt](target)` outside code blocks and inline code.
    static func links(in text: String) -> [(Int, String)] {
        var links: [(Int, String)] = []
        let pattern = try! NSRegularExpression(pattern: #"\]\(([^)\s]+)\)"#)
        var inside = false
        for (index, line) in text.components(separatedBy: "\n").enumerated() {
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") { inside.toggle(); continue }
            guard !inside else { continue }
            // Inline code spans hold no links.
            let prose = line.split(separator: "`", omittingEmptySubsequences: false).enumerated()
                .filter { $0.offset % 2 == 0 }.map(\.element).joined(separator: " ")
            let range = NSRange(prose.startIndex..., in: prose)
            for match in pattern.matches(in: prose, range: range) {
                links.append((index + 1, String(prose[Range(match.range(at: 1), in: prose)!])))
            }
        }
        return links
    }

    /// The anchors GitHub gives a page's headings: lowercased, spaces as hyphens, everything but letters, digits,
    /// `-` and `_` dropped; a repeated anchor gets `-1`, `-2`, ...
    static func anchors(in text: String) -> Set<String> {
        var anchors: Set<String> = []
        var seen: [String: Int] = [:]
        var inside = false
        for line in text.components(separatedBy: "\n") {
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") { inside.toggle(); continue }
            guard !inside, line.hasPrefix("#") else { continue }
            let heading = line.drop { $0 == "#" }
            guard heading.first == " " else { continue }
            var anchor = ""
            for character in heading.trimmingCharacters(in: .whitespaces).lowercased() {
                if character == " " { anchor.append("-") }
                else if character.isLetter || character.isNumber || character == "-" || character == "_" { anchor.append(character) }
            }
            if let count = seen[anchor] {
                seen[anchor] = count + 1
                anchors.insert("\(anchor)-\(count + 1)")
            } else {
                seen[anchor] = 0
                anchors.insert(anchor)
            }
        }
        return anchors
    }

    // MARK: - The checks themselves

    /// The checks find what they are for: an option no command declares, a command that does not exist, a bad value,
    /// a missing script, a dead link or anchor.
    @Test func theChecksCatchWhatTheyAreFor() {
        #expect(Self.problem(parsing: ["query", "occupancy", "--property", "nexus_east"]) == nil)
        #expect(Self.problem(parsing: ["query", "occupancy", "--proprety", "nexus_east"])?.contains("unknown option --proprety") == true)
        #expect(Self.problem(parsing: ["reprot", "debtors"]) != nil)
        #expect(Self.problem(parsing: ["dashboard", "--as-of", "last-week"])?.contains("--as-of") == true)
        #expect(Self.problem(parsing: ["report", "lease-status", "--start", "2026-09", "--months", "13"]) != nil)
        #expect(Self.problem(parsing: ["notices", "generate", "--template", "/nonexistent/notice.txt", "--dry-run"]) == nil)
        #expect(Self.problem(parsing: ["notices", "generate", "--template", "/nonexistent/notice.txt", "--dry-rn"]) != nil)
        #expect(Self.problem(parsing: ["report", "--help"]) == nil)
        #expect(Self.problem(parsing: ["load", "--help"]) == nil)
        #expect(Self.problem(parsing: ["load", "--bogus", "--help"]) != nil)

        let page = """
            ```sh
            ownerdash query summary --format json | jq .   # a comment --not-an-option
            OWNERDASH_X=1 sudo -u ownerdash /opt/ownerdash/bin/ownerdash runs show <run id> 2> log && ownerdash sync \\
                --property a
            ```
            """
        #expect(Self.commands(in: page).map(\.1) == [["query", "summary", "--format", "json"], ["runs", "show", "run_id"],
                                                     ["sync", "--property", "a"]])
        #expect(Self.scriptPaths(in: "see scripts/systemd/ownerdash-ingest.{service,timer}.").map(\.1)
                == ["scripts/systemd/ownerdash-ingest.service", "scripts/systemd/ownerdash-ingest.timer"])
        #expect(Self.links(in: "[a](b.md#c) `[x](y)` ![i](p.png)").map(\.1) == ["b.md#c", "p.png"])
        #expect(Self.anchors(in: "## Serving the dashboard / sign-in\n## Retention: `ownerdash prune`\n## Retention: `ownerdash prune`")
                == ["serving-the-dashboard--sign-in", "retention-ownerdash-prune", "retention-ownerdash-prune-1"])
    }
}
