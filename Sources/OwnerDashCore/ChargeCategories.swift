/// Where a ledger charge belongs in the tenant-ledger reports: rent, utilities, fees, or anything else.
public enum ChargeCategory: String, Sendable, Codable, CaseIterable {
    case rent = "RENT"
    case utilities = "UTILITIES"
    case fees = "FEES"
    case other = "OTHER"
}

/// Charge code -> category: report_definitions.json's `charge_categories` over the defaults below.
///
/// Codes compare case-insensitively (Yardi writes `rent`, RealPage `RENT`) and otherwise exactly: punctuation is part
/// of the code. Voyager's own rent code is `.rent` (its system codes start with a dot so that they sort first), and a
/// property may have both `.rent` and a `rent` of its own meaning, so the dot is never stripped: `.RENT` is listed
/// as it is written, and a registry override names a dotted code with its dot. A code in neither is unknown: its
/// charges count as OTHER, and the sync lists it (never dropped), so the registry can name it.
/// Where each Voyager default comes from, and why it is in its category: docs/yardi-soap.md, "Charge codes".
public struct ChargeCategories: Sendable, Equatable {
    /// The codes OneSite and Voyager properties commonly use. The Voyager codes (`.RENT`, `PARK`, `UTIL`, `INSUR`,
    /// `FEES`, `MISC`, `LEGAL`, `A_MTM`, `ADMIN`, `DAMAGES`, `DEPOSIT`, `ELECT`, `UTILGAS`, ...) are those of a
    /// stock Voyager database's charge-code list; a property's own codes go in the registry.
    public static let defaults: [ChargeCategory: [String]] = [
        .rent: ["RENT", ".RENT", "RENTADJ", "MTMRENT", "MTM", "A_MTM", "AFFORD", "HAP", "SUBSIDY"],
        .utilities: ["WATER", "SEWER", "TRASH", "ELEC", "ELECT", "ELECTRIC", "GAS", "UTILGAS", "UTIL", "UTILITY",
                     "UTILITIES", "RUBS", "STORMWATER", "STORM", "VALET", "VALETTRASH", "CABLE", "INTERNET"],
        .fees: ["LATEFEE", "LATE", "NSF", "NSFFEE", "APPFEE", "ADMIN", "ADMINFEE", "FEES", "LEGAL", "PETFEE",
                "TRANSFER", "MTMFEE", "LEASEBREAK", "RELET", "CLEANING", "CLEAN"],
        .other: ["PARKING", "PARK", "GARAGE", "STORAGE", "PETRENT", "PEST", "DAMAGE", "DAMAGES", "DEPOSIT", "SECDEP",
                 "CONCESSION", "CONC", "INSURANCE", "INSUR", "RENTERS", "MISC"],
    ]

    /// Upper-cased code -> category.
    public let byCode: [String: ChargeCategory]

    /// The defaults, with `overrides` (category name -> codes) taking precedence code by code.
    public init(overrides: [String: [String]] = [:]) throws {
        var byCode: [String: ChargeCategory] = [:]
        for (category, codes) in Self.defaults { for code in codes { byCode[code] = category } }
        var claimed: [String: ChargeCategory] = [:]
        for (name, codes) in overrides.sorted(by: { $0.key < $1.key }) {
            guard let category = ChargeCategory(rawValue: name.uppercased()) else {
                throw ConfigurationError("charge_categories: unknown category \"\(name)\" "
                    + "(use \(ChargeCategory.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            for code in codes {
                let key = code.uppercased()
                if let earlier = claimed[key], earlier != category {
                    throw ConfigurationError("charge_categories: code \"\(code)\" is listed under both "
                        + "\(earlier.rawValue) and \(category.rawValue)")
                }
                claimed[key] = category
                byCode[key] = category
            }
        }
        self.byCode = byCode
    }

    /// The defaults alone.
    public static let standard: ChargeCategories = (try? ChargeCategories()) ?? ChargeCategories(byCode: [:])

    private init(byCode: [String: ChargeCategory]) { self.byCode = byCode }

    /// The category of a code, nil when the code is unknown.
    public func category(of code: String) -> ChargeCategory? { byCode[code.uppercased()] }
}
