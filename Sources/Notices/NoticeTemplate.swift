import Foundation

/// A debtor notice template: text with `{{placeholder}}`s and one repeated block, `{{#months}} … {{/months}}`,
/// written once per month line (a unit's share of the debt in one month).
///
/// Placeholders (anywhere): name, email, phone, contact, units, property, total, due_date, as_of, month_count.
/// Inside the months block also: period, amount, unit, property, due_date (that line's). A placeholder not in
/// these lists, or a block opened and not closed, is refused with one line naming it and the template file, so a
/// typo never sends a notice with a hole in it.
public struct NoticeTemplate: Sendable {
    /// A piece of parsed template.
    enum Part: Sendable, Equatable {
        case text(String)
        case field(String)
        case months([Part])
    }

    public static let fields: Set<String> = [
        "name", "email", "phone", "contact", "units", "property", "total", "due_date", "as_of", "month_count",
    ]
    public static let monthFields: Set<String> = ["period", "amount", "unit", "property", "due_date"]

    /// Where the template came from (`built-in` or the file path), for error messages.
    public let source: String
    let parts: [Part]

    /// Parses `text`; `source` names it in errors.
    public init(text: String, source: String) throws {
        self.source = source
        var rest = Substring(text)
        var top: [Part] = []
        var block: [Part]? = nil
        while let open = rest.range(of: "{{") {
            let before = String(rest[..<open.lowerBound])
            guard let close = rest[open.upperBound...].range(of: "}}") else {
                throw NoticeTemplateError(source: source, message: "a \"{{\" is never closed with \"}}\"")
            }
            let name = rest[open.upperBound..<close.lowerBound].trimmingCharacters(in: .whitespaces)
            rest = rest[close.upperBound...]
            if !before.isEmpty {
                if block != nil { block?.append(.text(before)) } else { top.append(.text(before)) }
            }
            switch name {
            case "#months":
                guard block == nil else { throw NoticeTemplateError(source: source, message: "{{#months}} inside {{#months}}") }
                block = []
            case "/months":
                guard let parts = block else {
                    throw NoticeTemplateError(source: source, message: "{{/months}} without an opening {{#months}}")
                }
                top.append(.months(parts))
                block = nil
            default:
                let known = block == nil ? Self.fields : Self.fields.union(Self.monthFields)
                guard known.contains(name) else {
                    throw NoticeTemplateError(source: source, message: "unknown placeholder {{\(name)}} (known: "
                        + known.sorted().joined(separator: ", ") + (block == nil ? "; inside {{#months}} also "
                        + Self.monthFields.subtracting(Self.fields).sorted().joined(separator: ", ") : "") + ")")
                }
                if block != nil { block?.append(.field(name)) } else { top.append(.field(name)) }
            }
        }
        guard block == nil else { throw NoticeTemplateError(source: source, message: "{{#months}} is never closed with {{/months}}") }
        if !rest.isEmpty { top.append(.text(String(rest))) }
        parts = top
    }

    /// Reads and parses a template file; a file that cannot be read is one line naming it.
    public init(path: String) throws {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw NoticeTemplateError(source: path, message: "cannot read the template file")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw NoticeTemplateError(source: path, message: "not UTF-8 text")
        }
        try self.init(text: text, source: path)
    }

    /// The notice text for one debtor.
    func render(_ values: [String: String], months: [[String: String]]) -> String {
        var out = ""
        for part in parts {
            switch part {
            case .text(let text): out += text
            case .field(let name): out += values[name] ?? ""
            case .months(let inner):
                for line in months {
                    for piece in inner {
                        switch piece {
                        case .text(let text): out += text
                        case .field(let name): out += line[name] ?? values[name] ?? ""
                        case .months: break
                        }
                    }
                }
            }
        }
        return out
    }

    /// The template used without `--template`: a plain-text past-due notice.
    public static let builtIn = """
        {{as_of}}

        To: {{name}}
        Contact on file: {{contact}}
        Property: {{property}}
        Unit(s): {{units}}

        NOTICE OF PAST-DUE BALANCE

        Our records show an unpaid balance of {{total}} on your account as of {{as_of}},
        owed since {{due_date}}:

        {{#months}}  {{period}}  unit {{unit}}  {{amount}}  (due {{due_date}})
        {{/months}}
          Total due: {{total}}

        Please pay the full balance or contact the leasing office to arrange payment.
        If you have already paid, please disregard this notice.

        """
}

/// A template that cannot be used; the message names the template file.
public struct NoticeTemplateError: Error, CustomStringConvertible, Sendable {
    public var source: String
    public var message: String

    public var description: String { "\(source): \(message)" }
}
