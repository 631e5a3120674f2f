import Foundation

/// Which property management system a property lives on.
public enum PMS: String, Sendable, Codable, CaseIterable {
    case realpage
    case yardi
}

/// One property of the registry in report_definitions.json.
public struct Property: Sendable, Codable, Equatable {
    /// The registry key, also `unified_property_id` (e.g. `nexus_east`).
    public var key: String
    public var name: String
    public var pms: PMS
    /// RealPage OneSite site id (RealPage properties).
    public var siteID: String?
    /// Yardi property code, the `YardiPropertyId` (Yardi properties).
    public var propertyCode: String?
    public var address: String?
    /// The Telegram chat (the property manager's group) that `notices send --channel telegram` writes to.
    public var telegramChatID: String?

    enum CodingKeys: String, CodingKey {
        case key, name, pms, address
        case siteID = "site_id"
        case propertyCode = "property_code"
        case telegramChatID = "telegram_chat_id"
    }

    public init(key: String, name: String, pms: PMS, siteID: String? = nil, propertyCode: String? = nil,
                address: String? = nil) {
        self.key = key; self.name = name; self.pms = pms; self.siteID = siteID
        self.propertyCode = propertyCode; self.address = address
    }
}

extension Array where Element == Property {
    /// `values` in the order of their properties in this selection (`property` names each value's), the values of one
    /// property in the order given; values of a property not selected come last.
    public func inSelectionOrder<T>(_ values: [T], property: (T) -> String?) -> [T] {
        let rank = Dictionary(enumerated().map { ($1.key, $0) }, uniquingKeysWith: { first, _ in first })
        return values.enumerated()
            .map { (rank[property($0.element) ?? ""] ?? Int.max, $0.offset, $0.element) }
            .sorted { ($0.0, $0.1) < ($1.0, $1.1) }
            .map(\.2)
    }
}

/// One id under which the reporting API offers a report: the id, its report-definition GUID, the format asked for.
public struct ReportIdentity: Sendable, Codable, Equatable {
    public var reportID: Int
    public var reportKey: String
    /// The format code to ask for under this id; nil: the report's own.
    public var formatCode: String?

    enum CodingKeys: String, CodingKey {
        case reportID = "report_id"
        case reportKey = "report_key"
        case formatCode = "format_code"
    }

    public init(reportID: Int, reportKey: String, formatCode: String? = nil) {
        self.reportID = reportID; self.reportKey = reportKey; self.formatCode = formatCode
    }
}

/// One RealPage report of the catalogue: which report to request and which parser reads it.
public struct ReportDefinition: Sendable, Codable, Equatable {
    public var name: String
    /// The parser name, equal to a `ReportType` raw value (`rent_roll`, ...).
    public var parser: String
    /// The reporting API's report id; nil (`null`) where no one has seen the report's id.
    public var reportID: Int?
    /// The report-definition GUID the reporting API is asked for; nil (`null`) where no one has seen it: such a
    /// report is loaded from downloaded files but never fetched.
    public var reportKey: String?
    /// Why the key (or id) is unknown and where to find it (`report_key_note`).
    public var reportKeyNote: String?
    public var formatCode: String?
    /// Other ids the same report is offered under, tried in order when the server answers that the report was not
    /// found (`alternates`): an account may offer a report only under the id an older system used (Lease
    /// Expiration as 3838 where 4299 is the current one).
    public var alternates: [ReportIdentity]?
    /// `false`: fetched only when named (`--reports`), never by a default `fetch` or the nightly `ingest`; absent or
    /// `true`: every night. The shipped catalogue sets it on the reports no answer reads (their raw tables stay,
    /// for files loaded by hand and fetches asked for): each cost the night a download, a parse and its raw rows.
    public var nightly: Bool?

    /// Whether a default run (no `--reports`) fetches the report.
    public var fetchedNightly: Bool { nightly ?? true }

    enum CodingKeys: String, CodingKey {
        case name, parser, alternates, nightly
        case reportID = "report_id"
        case reportKey = "report_key"
        case reportKeyNote = "report_key_note"
        case formatCode = "format_code"
    }

    /// Every id and key the report can be asked for, in the catalogue's order: its own, then its alternates (those
    /// with an id and a key).
    public var identities: [ReportIdentity] {
        var all: [ReportIdentity] = []
        if let reportID, let reportKey, !reportKey.isEmpty {
            all.append(ReportIdentity(reportID: reportID, reportKey: reportKey, formatCode: formatCode))
        }
        for alternate in alternates ?? [] where !alternate.reportKey.isEmpty
            && !all.contains(where: { $0.reportID == alternate.reportID }) {
            all.append(alternate)
        }
        return all
    }

    public init(name: String, parser: String, reportID: Int?, reportKey: String?, reportKeyNote: String? = nil,
                formatCode: String? = nil) {
        self.name = name; self.parser = parser; self.reportID = reportID; self.reportKey = reportKey
        self.reportKeyNote = reportKeyNote; self.formatCode = formatCode
    }

    /// Why `fetch` cannot request the report, as one line naming what to configure; nil when it can.
    public func fetchRefusal(configPath: String) -> String? {
        // An alternate id with its key is enough to ask for the report.
        guard identities.isEmpty else { return nil }
        var missing: [String] = []
        if reportID == nil { missing.append("report_id") }
        if reportKey?.isEmpty ?? true { missing.append("report_key") }
        guard !missing.isEmpty else { return nil }
        let note = reportKeyNote.map { " (\($0))" } ?? ""
        return "report \"\(name)\" (\(parser)) cannot be fetched: its \(missing.joined(separator: " and ")) "
            + "\(missing.count == 1 ? "is" : "are") unknown\(note); set realpage.reports[\"\(parser)\"]."
            + "\(missing.joined(separator: "/")) in \(configPath) to the reporting API's value for it, or load its "
            + "downloaded files with 'ownerdash load'"
    }
}

/// The contents of report_definitions.json: no secrets, only what to fetch and where.
public struct Configuration: Sendable, Codable, Equatable {
    /// RealPage endpoints and report catalogue.
    public struct RealPage: Sendable, Codable, Equatable {
        public var reportsURL: String
        public var rpxURL: String
        public var reports: [ReportDefinition]
        enum CodingKeys: String, CodingKey {
            case reports
            case reportsURL = "reports_url"
            case rpxURL = "rpx_url"
        }
    }

    /// Yardi endpoint base and interface names.
    public struct Yardi: Sendable, Codable, Equatable {
        public var url: String
        public var interfaces: [String: String]
    }

    /// `ledger`: how nightly runs fetch the tenant ledger (docs/operators.md, "The tenant ledger, incrementally"); nil: the defaults.
    public struct Ledger: Sendable, Codable, Equatable {
        /// Days an incremental window reaches back before the last successful run's as-of date (default 7).
        public var overlapDays: Int?
        /// A full ledger pull when the last one is this many days old (default 7; 0: every run).
        public var fullRefreshDays: Int?
        enum CodingKeys: String, CodingKey {
            case overlapDays = "overlap_days"
            case fullRefreshDays = "full_refresh_days"
        }
        public init(overlapDays: Int? = nil, fullRefreshDays: Int? = nil) {
            self.overlapDays = overlapDays; self.fullRefreshDays = fullRefreshDays
        }
    }

    public var pmcID: String
    public var managementCompany: String?
    public var properties: [Property]
    public var realpage: RealPage
    public var yardi: Yardi?
    /// `charge_categories`: category name -> charge codes, over `ChargeCategories.defaults`.
    public var chargeCategoryOverrides: [String: [String]]?
    /// `gl_categories`: expense category name -> GL account prefixes, over `GLCategories.defaults`.
    public var glCategoryOverrides: [String: [String]]?
    public var ledger: Ledger?

    enum CodingKeys: String, CodingKey {
        case properties, realpage, yardi, ledger
        case pmcID = "pmc_id"
        case managementCompany = "management_company"
        case chargeCategoryOverrides = "charge_categories"
        case glCategoryOverrides = "gl_categories"
    }

    /// Charge code -> ledger category (checked when the file is loaded).
    public var chargeCategories: ChargeCategories {
        (try? ChargeCategories(overrides: chargeCategoryOverrides ?? [:])) ?? .standard
    }

    /// GL account -> expense category (checked when the file is loaded).
    public var glCategories: GLCategories {
        (try? GLCategories(overrides: glCategoryOverrides ?? [:])) ?? .standard
    }

    /// Reads and checks a configuration file; errors name the file and what is wrong.
    public static func load(path: String) throws -> Configuration {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ConfigurationError("\(path): cannot read the configuration file (use --config FILE)")
        }
        let configuration: Configuration
        do {
            configuration = try JSONDecoder().decode(Configuration.self, from: data)
        } catch let DecodingError.keyNotFound(key, context) {
            throw ConfigurationError("\(path): missing field \"\(key.stringValue)\" at \(Self.codingPath(context.codingPath))")
        } catch let DecodingError.typeMismatch(_, context), let DecodingError.valueNotFound(_, context) {
            throw ConfigurationError("\(path): wrong type at \(Self.codingPath(context.codingPath)): \(context.debugDescription)")
        } catch let DecodingError.dataCorrupted(context) {
            throw ConfigurationError("\(path): not valid JSON or bad value at \(Self.codingPath(context.codingPath)): \(context.debugDescription)")
        }
        try configuration.validate(path: path)
        return configuration
    }

    private static func codingPath(_ path: [any CodingKey]) -> String {
        guard !path.isEmpty else { return "the top level" }
        return path.reduce(into: "") { text, key in
            if let index = key.intValue { text += "[\(index)]" } else { text += (text.isEmpty ? "" : ".") + key.stringValue }
        }
    }

    private func validate(path: String) throws {
        do {
            _ = try ChargeCategories(overrides: chargeCategoryOverrides ?? [:])
            _ = try GLCategories(overrides: glCategoryOverrides ?? [:])
        } catch let error as ConfigurationError {
            throw ConfigurationError("\(path): \(error.description)")
        }
        var seen = Set<String>()
        for property in properties {
            guard seen.insert(property.key).inserted else {
                throw ConfigurationError("\(path): property key \"\(property.key)\" appears twice")
            }
            if property.pms == .realpage && property.siteID == nil {
                throw ConfigurationError("\(path): RealPage property \"\(property.key)\" has no site_id")
            }
            if property.pms == .yardi && property.propertyCode == nil {
                throw ConfigurationError("\(path): Yardi property \"\(property.key)\" has no property_code")
            }
        }
    }

    /// The property with this registry key.
    public func property(key: String) -> Property? {
        properties.first { $0.key == key }
    }

    /// The property whose name matches, ignoring case, spaces and punctuation (title blocks print names loosely).
    public func property(named name: String) -> Property? {
        let wanted = Self.nameKey(name)
        return properties.first { Self.nameKey($0.name) == wanted }
    }

    /// The RealPage property whose `site_id` is this OneSite site number.
    public func property(siteID: String) -> Property? {
        properties.first { $0.pms == .realpage && $0.siteID == siteID }
    }

    private static func nameKey(_ name: String) -> String {
        String(name.lowercased().unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) })
    }
}

/// A report catalogue laid over a configuration: `{"realpage": {"reports": [...]}}` replacing the configuration's
/// `realpage.reports` whole. The PMS simulator publishes one (`report_catalogue.json` beside its truth) naming the
/// report ids and stand-in report keys it serves, so `ownerdash demo` and the test harnesses fetch from it with its
/// keys while the shipped report_definitions.json carries only keys seen on RealPage itself.
public enum ReportCatalogueOverlay {
    /// The JSON of `configuration` (a report_definitions.json's bytes) with `realpage.reports` replaced by the
    /// overlay's, each report keeping the configuration's `nightly` for its parser; every other field kept as it was.
    /// Errors name `overlayPath`.
    public static func apply(configuration: Data, overlay: Data, overlayPath: String) throws -> Data {
        guard var root = try? JSONSerialization.jsonObject(with: configuration) as? [String: Any],
              var realpage = root["realpage"] as? [String: Any] else {
            throw ConfigurationError("the configuration to overlay \(overlayPath) on has no realpage object")
        }
        guard let layer = try? JSONSerialization.jsonObject(with: overlay) as? [String: Any],
              let reports = (layer["realpage"] as? [String: Any])?["reports"] as? [Any] else {
            throw ConfigurationError("\(overlayPath): not a report catalogue overlay ({\"realpage\": {\"reports\": [...]}})")
        }
        // Which reports a night fetches stays the configuration's (`nightly`): the overlay says where they are.
        let nightly = Dictionary(((realpage["reports"] as? [Any]) ?? []).compactMap { entry -> (String, Any)? in
            guard let entry = entry as? [String: Any], let parser = entry["parser"] as? String,
                  let flag = entry["nightly"] else { return nil }
            return (parser, flag)
        }, uniquingKeysWith: { first, _ in first })
        realpage["reports"] = reports.map { entry -> Any in
            guard var entry = entry as? [String: Any], entry["nightly"] == nil, let parser = entry["parser"] as? String,
                  let flag = nightly[parser] else { return entry }
            entry["nightly"] = flag
            return entry
        }
        root["realpage"] = realpage
        return try JSONSerialization.data(withJSONObject: root, options: [.prettyPrinted, .sortedKeys])
    }

    /// Writes `configPath` with the overlay at `overlayPath` applied to `destination`.
    public static func write(configPath: String, overlayPath: String, to destination: String) throws {
        guard let configuration = FileManager.default.contents(atPath: configPath) else {
            throw ConfigurationError("\(configPath): cannot read the configuration file")
        }
        guard let overlay = FileManager.default.contents(atPath: overlayPath) else {
            throw ConfigurationError("\(overlayPath): cannot read the report catalogue overlay")
        }
        let merged = try apply(configuration: configuration, overlay: overlay, overlayPath: overlayPath)
        guard FileManager.default.createFile(atPath: destination, contents: merged) else {
            throw ConfigurationError("\(destination): cannot write the overlaid configuration")
        }
    }
}

/// A configuration problem; the message names the file and the field.
public struct ConfigurationError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
