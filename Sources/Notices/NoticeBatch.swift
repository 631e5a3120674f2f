import Foundation
import Ledger
import LibCryptoKit
import OwnerDashCore

/// One debtor's notice: who it is for, the rendered text and the SHA-256 of that text (its identity when sending).
public struct Notice: Sendable, Equatable {
    public var person: Debtors.Person
    public var text: String
    public var contentHash: String
    /// `lee-ann-1a2b3c4d.txt`: the name for people, the key's hash so that two people of one name never collide.
    public var fileName: String
}

/// Debtor notices from a template: one file per debtor plus `manifest.csv` (debtor, name, file, total, sha256).
///
/// A notice holds nothing that changes between runs on the same ledger (no generation time), so the same debts give
/// the same text and hash, and a nightly send can skip what it already sent.
public enum NoticeBatch {
    /// One notice per debtor, in the debtors' order; `propertyNames` maps registry keys to the names printed.
    public static func notices(for debtors: Debtors, template: NoticeTemplate, propertyNames: [String: String]) -> [Notice] {
        debtors.people.map { person in
            let properties = person.properties.map { propertyNames[$0] ?? $0 }
            let lines = person.units.flatMap { unit in unit.months.map { (unit, $0) } }
                .sorted { ($0.1.period, $0.0.unit) < ($1.1.period, $1.0.unit) }
            let dates = person.units.compactMap { debtors.asOf[$0.property] }.sorted()
            let values: [String: String] = [
                "name": person.name ?? "Resident",
                "email": person.email ?? "",
                "phone": person.phone ?? "",
                "contact": [person.email, person.phone].compactMap { $0 }.joined(separator: " · "),
                "units": person.units.map { "\($0.unit) (\(propertyNames[$0.property] ?? $0.property))" }.joined(separator: ", "),
                "property": properties.joined(separator: ", "),
                "total": dollars(person.totalCents),
                "due_date": lines.compactMap { $0.1.dueDate }.min() ?? "",
                "as_of": dates.last ?? "",
                "month_count": String(Set(lines.map { $0.1.period }).count),
            ]
            let months = lines.map { unit, month in
                ["period": month.period, "amount": dollars(month.amountCents), "unit": unit.unit,
                 "property": propertyNames[unit.property] ?? unit.property, "due_date": month.dueDate ?? ""]
            }
            let text = template.render(values, months: months)
            return Notice(person: person, text: text, contentHash: hash(text),
                          fileName: "\(slug(person.name ?? "resident"))-\(SHA256.hexDigest(of: person.key).prefix(8)).txt")
        }
    }

    /// What `write` did.
    public struct Written: Sendable, Equatable {
        public var files: Int
        /// Notices of an earlier run (named in its manifest) for people who no longer owe, removed.
        public var removed: [String]
        public var manifest: String
    }

    /// Writes each notice to `directory` (created if needed) and `manifest.csv` beside them, each file through a
    /// temporary name so a reader never sees half a notice; removes the notices an earlier manifest named that are
    /// not written this time (those people paid).
    public static func write(_ notices: [Notice], to directory: String) throws -> Written {
        let fm = FileManager.default
        do {
            try fm.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw NoticeOutputError(path: directory, reason: "cannot create the directory: \(error.localizedDescription)")
        }
        let manifestPath = (directory as NSString).appendingPathComponent("manifest.csv")
        let earlier = Self.filesNamed(inManifest: manifestPath)
        for notice in notices {
            try atomicWrite(notice.text, to: (directory as NSString).appendingPathComponent(notice.fileName))
        }
        var manifest = "debtor,name,file,total,sha256\n"
        for notice in notices {
            manifest += [notice.person.key, notice.person.name ?? "", notice.fileName,
                         Money(cents: notice.person.totalCents).description, notice.contentHash]
                .map(csvField).joined(separator: ",") + "\n"
        }
        try atomicWrite(manifest, to: manifestPath)
        let current = Set(notices.map(\.fileName))
        var removed: [String] = []
        for file in earlier.sorted() where !current.contains(file) {
            if (try? fm.removeItem(atPath: (directory as NSString).appendingPathComponent(file))) != nil { removed.append(file) }
        }
        return Written(files: notices.count, removed: removed, manifest: manifestPath)
    }

    /// The `file` column of an earlier manifest; only plain file names (never a path) are trusted.
    static func filesNamed(inManifest path: String) -> [String] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").dropFirst().compactMap { line in
            let fields = csvFields(String(line))
            guard fields.count >= 3, !fields[2].contains("/"), fields[2].hasSuffix(".txt") else { return nil }
            return fields[2]
        }
    }

    // MARK: - Small formats

    /// `$1234.56`: what a notice prints (exact cents).
    static func dollars(_ cents: Int64) -> String {
        cents < 0 ? "-$\(Money(cents: -cents))" : "$\(Money(cents: cents))"
    }

    static func hash(_ text: String) -> String {
        SHA256.hexDigest(of: text)
    }

    /// Lowercase letters and digits, words joined by `-` ("Lee, Ann" -> "lee-ann").
    static func slug(_ name: String) -> String {
        let words = name.lowercased().split { !(("a"..."z").contains($0) || ("0"..."9").contains($0)) }
        return words.isEmpty ? "resident" : words.prefix(6).joined(separator: "-")
    }

    static func csvField(_ value: String) -> String {
        value.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" })
            ? "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : value
    }

    static func csvFields(_ line: String) -> [String] {
        var fields: [String] = [], field = "", quoted = false
        var chars = line.makeIterator()
        while let c = chars.next() {
            if quoted {
                if c == "\"" { quoted = false } else { field.append(c) }
            } else if c == "\"" {
                if field.isEmpty { quoted = true } else { field.append(c) }
            } else if c == "," {
                fields.append(field); field = ""
            } else {
                field.append(c)
            }
        }
        fields.append(field)
        return fields
    }

    static func atomicWrite(_ text: String, to path: String) throws {
        let temporary = path + ".partial"
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: temporary))
            if FileManager.default.fileExists(atPath: path) { try FileManager.default.removeItem(atPath: path) }
            try FileManager.default.moveItem(atPath: temporary, toPath: path)
        } catch {
            try? FileManager.default.removeItem(atPath: temporary)
            throw NoticeOutputError(path: path, reason: "cannot write: \(error.localizedDescription)")
        }
    }
}

/// A notice or manifest that could not be written; one line naming the file.
public struct NoticeOutputError: Error, CustomStringConvertible, Sendable {
    public var path: String
    public var reason: String
    public var description: String { "\(path): \(reason)" }
}
