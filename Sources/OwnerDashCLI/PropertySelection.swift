import OwnerDashCore

/// The `--property KEY ...` and `--pms` selectors shared by fetch, sync, ingest and the readers.
struct PropertySelection {
    var keys: [String]
    var pms: PMS?

    init(_ parsed: ParsedArguments, command: String) throws {
        keys = parsed.values("--property")
        if let name = parsed.value("--pms") {
            guard let value = PMS(rawValue: name) else {
                throw UsageError("\(command): --pms must be realpage or yardi, not \"\(name)\"")
            }
            pms = value
        }
    }

    init(keys: [String], pms: PMS? = nil) {
        self.keys = keys
        self.pms = pms
    }

    /// The selected registry properties, in registry order when none are named, else in the order given.
    func resolve(_ configuration: Configuration, configPath: String, command: String) throws -> [Property] {
        guard !keys.isEmpty else {
            let all = configuration.properties.filter { pms == nil || $0.pms == pms }
            guard !all.isEmpty else {
                throw ConfigurationError("\(configPath): no \(pms.map { "\($0.rawValue) " } ?? "")properties in the registry")
            }
            return all
        }
        var seen = Set<String>()
        return try keys.filter { seen.insert($0).inserted }.map { key in
            guard let property = configuration.property(key: key) else {
                throw UsageError("\(command): unknown property \"\(key)\" (not in \(configPath))")
            }
            if let pms, property.pms != pms {
                throw UsageError("\(command): \(key) is a \(property.pms.rawValue) property, not \(pms.rawValue) (--pms)")
            }
            return property
        }
    }
}
