import OwnerDashCore

/// One declared argument of a command; help text and parsing both come from these declarations.
public struct ArgumentSpec: Sendable {
    /// How the argument appears on the command line.
    public enum Kind: Sendable {
        /// `--name VALUE`; `repeating` allows it more than once.
        case option(valueName: String, repeating: Bool)
        /// `--name`, no value.
        case flag
        /// A bare word; `repeating` takes all remaining bare words.
        case positional(repeating: Bool, optional: Bool)
    }

    public var name: String
    public var kind: Kind
    public var help: String

    /// `--name VALUE`.
    public static func option(_ name: String, _ valueName: String, repeating: Bool = false, help: String) -> ArgumentSpec {
        ArgumentSpec(name: name, kind: .option(valueName: valueName, repeating: repeating), help: help)
    }

    /// `--name` without a value.
    public static func flag(_ name: String, help: String) -> ArgumentSpec {
        ArgumentSpec(name: name, kind: .flag, help: help)
    }

    /// A bare word (or all remaining bare words when repeating).
    public static func positional(_ name: String, repeating: Bool = false, optional: Bool = false, help: String) -> ArgumentSpec {
        ArgumentSpec(name: name, kind: .positional(repeating: repeating, optional: optional), help: help)
    }

    /// How the argument is shown in a usage line.
    var usage: String {
        switch kind {
        case .option(let valueName, let repeating): return "[\(name) \(valueName)\(repeating ? " ..." : "")]"
        case .flag: return "[\(name)]"
        case .positional(let repeating, let optional):
            let word = name + (repeating ? " ..." : "")
            return optional ? "[\(word)]" : word
        }
    }

    /// How the argument is shown in the option list of `--help`.
    var label: String {
        switch kind {
        case .option(let valueName, _): return "\(name) \(valueName)"
        case .flag: return name
        case .positional: return name
        }
    }
}

/// A wrong command line; printed as one line and exits 1.
public struct UsageError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// A result that could not be written whole to the file `--out` names (a full disk): exit 3, as for stdout
/// (docs/contracts.md); a name that cannot be created at all is a `UsageError`.
public struct ResultNotWritten: Error, CustomStringConvertible {
    public var description: String

    /// The line for `command`'s `--out FILE` (or DIR/) that `error` stopped: `UsageError` when the file could not be
    /// created, else `ResultNotWritten`.
    public static func error(_ error: ResultFileError, command: String, out: String) -> any Error {
        let line = "\(command): cannot write --out \(out): \(error.reason)"
        return error.kind == .cannotCreate ? UsageError(line) : ResultNotWritten(description: line)
    }
}

/// The values found on a command line for a list of specs.
public struct ParsedArguments: Sendable {
    private var values: [String: [String]] = [:]
    private var flags: Set<String> = []

    /// Parses `arguments` against `specs`; unknown options and missing values are usage errors.
    public init(_ arguments: [String], specs: [ArgumentSpec], command: String) throws {
        var positionals: [String] = []
        var index = 0
        var onlyPositionals = false
        while index < arguments.count {
            let word = arguments[index]
            index += 1
            if onlyPositionals || !word.hasPrefix("--") || word == "-" {
                positionals.append(word)
                continue
            }
            if word == "--" { onlyPositionals = true; continue }
            var name = word
            var inlineValue: String?
            if let equals = word.firstIndex(of: "=") {
                name = String(word[..<equals])
                inlineValue = String(word[word.index(after: equals)...])
            }
            guard let spec = specs.first(where: { $0.name == name }) else {
                throw UsageError("\(command): unknown option \(name) (see \(command) --help)")
            }
            switch spec.kind {
            case .flag:
                guard inlineValue == nil else { throw UsageError("\(command): \(name) takes no value") }
                flags.insert(name)
            case .option(let valueName, let repeating):
                let value: String
                if let inlineValue {
                    value = inlineValue
                } else {
                    guard index < arguments.count else { throw UsageError("\(command): \(name) needs a value \(valueName)") }
                    value = arguments[index]
                    index += 1
                }
                if !repeating, values[name] != nil { throw UsageError("\(command): \(name) given more than once") }
                values[name, default: []].append(value)
            case .positional:
                throw UsageError("\(command): unknown option \(name)")
            }
        }
        for spec in specs {
            guard case .positional(let repeating, let optional) = spec.kind else { continue }
            if positionals.isEmpty {
                if !optional { throw UsageError("\(command): missing \(spec.name)") }
                continue
            }
            if repeating {
                values[spec.name] = positionals
                positionals = []
            } else {
                values[spec.name] = [positionals.removeFirst()]
            }
        }
        if let extra = positionals.first {
            throw UsageError("\(command): unexpected argument \"\(extra)\"")
        }
    }

    /// The last value given for an option or positional.
    public func value(_ name: String) -> String? { values[name]?.last }
    /// Every value given for a repeating option or positional.
    public func values(_ name: String) -> [String] { values[name] ?? [] }
    /// Whether a flag was given.
    public func flag(_ name: String) -> Bool { flags.contains(name) }

    /// The whole number given for `name`, which must lie in `range` (`--parallel must be a number from 1 to 32, not
    /// "x"`, as a usage error naming `command`); `fallback` when the option is absent.
    public func number(_ name: String, in range: ClosedRange<Int>, default fallback: Int, command: String) throws -> Int {
        guard let text = value(name) else { return fallback }
        guard let number = Int(text), range.contains(number) else {
            throw UsageError("\(command): \(name) must be a number from \(range.lowerBound) to \(range.upperBound), not \"\(text)\"")
        }
        return number
    }
}
