/// Where a ledger charge belongs in the tenant-ledger reports: rent, utilities, fees, or anything else.
public enum ChargeCategory: String, Sendable, Codable, CaseIterable {
    case rent = "RENT"
    case utilities = "UTILITIES"
    case fees = "FEES"
    case other = "OTHER"
}

/// Charge code -> category: report_definitions.json's `charge_categories` over the defaults below.
///
/// Codes compare case-insensitively (Yardi writes `rent`, RealPage `RENT`). A code in neither is unknown: its charges
/// count as OTHER, and the sync lists it (never dropped), so the registry can name it.
public struct ChargeCategories: Sendable, Equatable {
    /// The codes OneSite and Voyager properties commonly use.
    public static let defaults: [ChargeCategory: [String]] = [
        .rent: ["RENT", "RENTADJ", "MTMRENT", "MTM", "AFFORD", "HAP", "SUBSIDY"],
        .utilities: ["WATER", "SEWER", "TRASH", "ELEC", "ELECTRIC", "GAS", "UTIL", "UTILITY", "UTILITIES", "RUBS",
                     "STORMWATER", "STORM", "VALET", "VALETTRASH", "CABLE", "INTERNET"],
        .fees: ["LATEFEE", "LATE", "NSF", "NSFFEE", "APPFEE", "ADMIN", "ADMINFEE", "PETFEE", "TRANSFER", "MTMFEE",
                "LEASEBREAK", "RELET", "CLEANING", "CLEAN"],
        .other: ["PARKING", "GARAGE", "STORAGE", "PETRENT", "PEST", "DAMAGE", "DAMAGES", "DEPOSIT", "SECDEP",
                 "CONCESSION", "CONC", "INSURANCE", "RENTERS"],
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
