import Foundation
import Render

/// `/api/docs`: the OpenAPI document as a page for a person, built on the server from the same `JSONValue` that
/// `/api/v2/openapi.json` serves: each operation with its method, path, summary, who may call it, its parameters, its
/// responses and the schema of its answer. Self-contained (inline CSS, no script, nothing fetched), in the reports'
/// style.
enum APIDocsPage {
    static func render(_ document: JSONValue) -> String {
        let info = document["info"] ?? [:]
        let title = "\(info["title"]?.text ?? "") API \(info["version"]?.text ?? "")"
        var page = HTMLWriter()
        page.raw("<!DOCTYPE html>\n")
        page.element("html", [("lang", "en")]) { html in
            html.element("head") { head in
                head.empty("meta", [("charset", "utf-8")])
                head.element("title", text: title)
                head.element("style") { $0.raw(ReportPage.style + style) }
            }
            html.newline()
            html.element("body") { body in
                body.element("h1", text: title)
                body.element("p", [("class", "meta")]) { p in
                    p.text("OpenAPI \(document["openapi"]?.text ?? ""): ")
                    p.element("a", [("href", "/api/v2/openapi.json")], text: "/api/v2/openapi.json")
                    p.text(" (generate a client from it; see the integrators' manual)")
                }
                body.element("p") { prose(info["description"]?.text ?? "", &$0) }
                signIn(document, &body)
                contents(document, &body)
                let operations = self.operations(document)
                for tag in document["tags"]?.elements ?? [] {
                    let name = tag["name"]?.text ?? ""
                    body.element("h2", [("id", HTMLWriter.identifier("tag-", name))], text: name)
                    body.element("p", [("class", "meta")], text: tag["description"]?.text ?? "")
                    for entry in operations where entry.operation["tags"]?.elements.first?.text == name {
                        operation(entry.method, entry.path, entry.operation, document, &body)
                        body.newline()
                    }
                }
                body.element("h2", [("id", "schema-Problem")], text: "Problem details")
                schema(document["components"]?["schemas"]?["Problem"] ?? [:], document, &body)
            }
            html.newline()
        }
        page.newline()
        return page.html
    }

    /// Method and path badges, the schema lists.
    static let style = """
        code{font:13px ui-monospace,SFMono-Regular,Menlo,monospace}.op{border-top:1px solid #ccc;padding:8px 0 4px}
        h3{font-size:15px;margin:4px 0}.method{display:inline-block;min-width:3.5em;padding:1px 6px;border-radius:3px;color:#fff;font-size:12px;text-align:center}
        .GET{background:#2f6f9f}.POST{background:#8a5a00}.type{color:#555}.req{color:#a00;font-size:12px}
        ul.schema{margin:2px 0;padding-left:20px}.op table{margin:6px 0}details{margin:4px 0}summary{cursor:pointer;color:#2f6f9f}
        """

    /// Every operation, in the document's order.
    private static func operations(_ document: JSONValue) -> [(method: String, path: String, operation: JSONValue)] {
        (document["paths"]?.members ?? []).flatMap { path in
            path.value.members.map { (method: $0.key.uppercased(), path: path.key, operation: $0.value) }
        }
    }

    private static func signIn(_ document: JSONValue, _ body: inout HTMLWriter) {
        body.element("h2", [("id", "sign-in")], text: "Sign-in")
        body.element("ul") { list in
            for scheme in document["components"]?["securitySchemes"]?.members ?? [] {
                list.element("li") { item in
                    item.element("strong", text: scheme.key)
                    let how = scheme.value["type"]?.text == "apiKey"
                        ? "cookie \(scheme.value["name"]?.text ?? "")" : "Authorization: Bearer (\(scheme.value["bearerFormat"]?.text ?? ""))"
                    item.text(" — \(how): \(scheme.value["description"]?.text ?? "")")
                }
            }
        }
    }

    private static func contents(_ document: JSONValue, _ body: inout HTMLWriter) {
        let operations = self.operations(document)
        body.element("ul") { list in
            for tag in document["tags"]?.elements ?? [] {
                let name = tag["name"]?.text ?? ""
                list.element("li") { item in
                    item.element("a", [("href", "#" + HTMLWriter.identifier("tag-", name))], text: name)
                    item.element("ul") { inner in
                        for entry in operations where entry.operation["tags"]?.elements.first?.text == name {
                            inner.element("li") { line in
                                line.element("a", [("href", "#" + HTMLWriter.identifier("op-", entry.operation["operationId"]?.text ?? ""))]) {
                                    $0.element("code", text: "\(entry.method) \(entry.path)")
                                }
                                line.text(" — " + (entry.operation["summary"]?.text ?? ""))
                            }
                        }
                    }
                }
            }
        }
    }

    private static func operation(_ method: String, _ path: String, _ operation: JSONValue, _ document: JSONValue,
                                  _ body: inout HTMLWriter) {
        body.element("section", [("class", "op"), ("id", HTMLWriter.identifier("op-", operation["operationId"]?.text ?? ""))]) { section in
            section.element("h3") { h3 in
                h3.element("span", [("class", "method " + method)], text: method)
                h3.text(" ")
                h3.element("code", text: path)
                h3.text(" — " + (operation["summary"]?.text ?? ""))
            }
            section.element("p") { prose(operation["description"]?.text ?? "", &$0) }
            let security = operation["security"]?.elements ?? []
            section.element("p", [("class", "meta")],
                            text: security.isEmpty ? "No sign-in needed." : "Sign-in: " + security.flatMap { $0.members.map(\.key) }.joined(separator: " or ") + ".")
            let parameters = operation["parameters"]?.elements ?? []
            let form = operation["requestBody"]?["content"]?["application/x-www-form-urlencoded"]?["schema"]
            if !parameters.isEmpty || form != nil {
                section.element("table") { table in
                    table.element("thead") { $0.element("tr") { row in
                        for heading in ["Parameter", "In", "Type", "Description"] { row.element("th", [("scope", "col")], text: heading) }
                    } }
                    table.element("tbody") { tbody in
                        for parameter in parameters {
                            self.parameter(parameter["name"]?.text ?? "", parameter["in"]?.text ?? "", parameter["schema"] ?? [:],
                                           required: parameter["required"] == true, parameter["description"]?.text ?? "", &tbody)
                        }
                        if let form {
                            let required = Set((form["required"]?.elements ?? []).compactMap(\.text))
                            for field in form["properties"]?.members ?? [] {
                                self.parameter(field.key, "form", field.value, required: required.contains(field.key),
                                               field.value["description"]?.text ?? "", &tbody)
                            }
                        }
                    }
                }
            }
            section.element("table") { table in
                table.element("thead") { $0.element("tr") { row in
                    for heading in ["Status", "When", "Body"] { row.element("th", [("scope", "col")], text: heading) }
                } }
                table.element("tbody") { tbody in
                    for response in operation["responses"]?.members ?? [] {
                        let answer = resolved(response.value, document)
                        tbody.element("tr") { row in
                            row.element("td", text: response.key)
                            row.element("td", text: answer["description"]?.text ?? "")
                            row.element("td") { cell in
                                for media in answer["content"]?.members ?? [] {
                                    cell.element("code", text: media.key)
                                    if let name = refName(media.value["schema"]), name == "Problem" {
                                        cell.text(" ")
                                        cell.element("a", [("href", "#schema-Problem")], text: name)
                                    }
                                }
                            }
                        }
                    }
                }
            }
            if let ok = operation["responses"]?["200"]?["content"]?.members.first?.value["schema"], let name = refName(ok) {
                section.element("details") { details in
                    details.element("summary", text: "Schema of the answer: \(name)")
                    schema(document["components"]?["schemas"]?[name] ?? [:], document, &details)
                }
            }
        }
    }

    private static func parameter(_ name: String, _ location: String, _ schema: JSONValue, required: Bool, _ description: String,
                                  _ tbody: inout HTMLWriter) {
        tbody.element("tr") { row in
            row.element("td") { cell in
                cell.element("code", text: name)
                if required { cell.raw(" "); cell.element("span", [("class", "req")], text: "required") }
            }
            row.element("td", text: location)
            row.element("td", [("class", "type")], text: typeText(schema))
            row.element("td", text: description)
        }
    }

    /// A schema as nested lists: its description, then each member with its type (nested objects folded).
    private static func schema(_ schema: JSONValue, _ document: JSONValue, _ out: inout HTMLWriter) {
        if let description = schema["description"]?.text { out.element("p", text: description) }
        out.element("p", [("class", "type")], text: typeText(schema))
        members(schema, depth: 0, &out)
    }

    private static func members(_ schema: JSONValue, depth: Int, _ out: inout HTMLWriter) {
        let object = objectPart(schema)
        let properties = object["properties"]?.members ?? []
        let patterns = object["patternProperties"]?.members ?? []
        let other = object["additionalProperties"]
        guard !properties.isEmpty || !patterns.isEmpty || other.map({ $0 != false }) == true else { return }
        let required = Set((object["required"]?.elements ?? []).compactMap(\.text))
        func list(_ out: inout HTMLWriter) {
            out.element("ul", [("class", "schema")]) { list in
                for property in properties {
                    member(property.value, required: required.contains(property.key), depth: depth, &list) { $0.element("code", text: property.key) }
                }
                for pattern in patterns {
                    member(pattern.value, required: false, depth: depth, &list) { $0.text("each member named "); $0.element("code", text: pattern.key) }
                }
                if let other, other != false, other != true {
                    member(other, required: false, depth: depth, &list) { $0.text("any other member") }
                }
            }
        }
        if depth == 0 {
            list(&out)
        } else {
            out.element("details") { details in
                details.element("summary", text: "\(properties.count + patterns.count) member\(properties.count + patterns.count == 1 ? "" : "s")")
                list(&details)
            }
        }
    }

    private static func member(_ schema: JSONValue, required: Bool, depth: Int, _ list: inout HTMLWriter, name: (inout HTMLWriter) -> Void) {
        list.element("li") { item in
            name(&item)
            item.text(" ")
            item.element("span", [("class", "type")], text: typeText(schema))
            if required { item.raw(" "); item.element("span", [("class", "req")], text: "required") }
            if let description = schema["description"]?.text { item.text(" — " + description) }
            members(schema, depth: depth + 1, &item)
        }
    }

    /// The object a schema describes or holds: itself, its array's items, or its object alternative.
    private static func objectPart(_ schema: JSONValue) -> JSONValue {
        if let items = schema["items"] { return objectPart(items) }
        for key in ["oneOf", "anyOf"] {
            if let object = schema[key]?.elements.first(where: { $0["properties"] != nil || $0["items"] != nil }) { return objectPart(object) }
        }
        return schema
    }

    /// `string or null (date)`, `array of object`, `one of a, b`, `Problem`.
    static func typeText(_ schema: JSONValue) -> String {
        if let name = refName(schema) { return name }
        if let value = schema["const"] { return "always \(value.pretty.trimmingCharacters(in: .newlines))" }
        if let words = schema["enum"] {
            return "one of " + words.elements.map { $0.text ?? "null" }.joined(separator: ", ")
                + (schema["default"]?.text.map { ", default \($0)" } ?? "")
        }
        for key in ["oneOf", "anyOf"] {
            if let alternatives = schema[key] { return alternatives.elements.map(typeText).joined(separator: " or ") }
        }
        var types: [String]
        switch schema["type"] {
        case .string(let type)?: types = [type]
        case .array(let list)?: types = list.compactMap(\.text)
        default: types = schema["properties"] != nil ? ["object"] : ["any"]
        }
        types = types.map { $0 == "array" ? "array of " + typeText(schema["items"] ?? [:]) : $0 }
        var text = types.joined(separator: " or ")
        if let format = schema["format"]?.text { text += " (\(format))" }
        if let pattern = schema["pattern"]?.text { text += " matching \(pattern)" }
        if case .integer(let low)? = schema["minimum"], case .integer(let high)? = schema["maximum"] { text += " \(low)-\(high)" }
        else if case .integer(let low)? = schema["minimum"] { text += " ≥ \(low)" }
        if let fallback = schema["default"] { text += ", default \(fallback.pretty.trimmingCharacters(in: .newlines))" }
        return text
    }

    /// A Reference Object's target in the document (`#/components/responses/NotAUser`), else the value itself.
    private static func resolved(_ value: JSONValue, _ document: JSONValue) -> JSONValue {
        guard let reference = value["$ref"]?.text, reference.hasPrefix("#/") else { return value }
        return reference.dropFirst(2).split(separator: "/").reduce(document as JSONValue?) { $0?[String($1)] } ?? value
    }

    /// Text with its `code` spans as `<code>`.
    private static func prose(_ text: String, _ out: inout HTMLWriter) {
        for (index, part) in text.split(separator: "`", omittingEmptySubsequences: false).enumerated() {
            if index % 2 == 1 { out.element("code", text: String(part)) } else { out.text(String(part)) }
        }
    }

    private static func refName(_ schema: JSONValue?) -> String? {
        guard let reference = schema?["$ref"]?.text else { return nil }
        return reference.split(separator: "/").last.map(String.init)
    }
}
