import Foundation

/// GL account -> expense category: report_definitions.json's `gl_categories` (category name -> account-number
/// prefixes) over the defaults below, the longest matching prefix winning.
///
/// Accounts compare by their digits only (`6300-0001`, `6300.0001` and `63000001` are one account), so a prefix
/// stands for a range: `63` is every 63xx account, `6310-0002` one account. The defaults follow the multifamily
/// chart of accounts OneSite and Voyager properties commonly use (6000-7099 operating expenses, one category per
/// hundred). An expense account no prefix matches is unknown: it counts as `Other`, and the sync lists it (never
/// dropped), so the registry can name it.
public struct GLCategories: Sendable, Equatable {
    /// The category unknown accounts count as.
    public static let other = "Other"

    /// Category -> account prefixes (digits).
    public static let defaults: [String: [String]] = [
        "Payroll": ["61"],
        "Administrative": ["62"],
        "Repairs & Maintenance": ["63"],
        "Turnover": ["64"],
        "Contract Services": ["65"],
        "Marketing": ["66"],
        "Utilities": ["67"],
        "Insurance": ["68"],
        "Taxes": ["69"],
        "Management Fees": ["70"],
    ]

    /// Account prefix (digits only) -> category.
    public let byPrefix: [String: String]

    /// The defaults, with `overrides` (category name -> account prefixes) taking precedence prefix by prefix.
    public init(overrides: [String: [String]] = [:]) throws {
        var byPrefix: [String: String] = [:]
        for (category, prefixes) in Self.defaults { for prefix in prefixes { byPrefix[prefix] = category } }
        var claimed: [String: String] = [:]
        for (category, prefixes) in overrides.sorted(by: { $0.key < $1.key }) {
            guard !category.trimmingCharacters(in: .whitespaces).isEmpty else {
                throw ConfigurationError("gl_categories: a category name is empty")
            }
            for prefix in prefixes {
                let digits = Self.digits(prefix)
                guard !digits.isEmpty else {
                    throw ConfigurationError("gl_categories: \"\(prefix)\" under \"\(category)\" is not an account number or prefix (no digits)")
                }
                if let earlier = claimed[digits], earlier != category {
                    throw ConfigurationError("gl_categories: account prefix \"\(prefix)\" is listed under both \"\(earlier)\" and \"\(category)\"")
                }
                claimed[digits] = category
                byPrefix[digits] = category
            }
        }
        self.byPrefix = byPrefix
    }

    /// The defaults alone.
    public static let standard: GLCategories = (try? GLCategories()) ?? GLCategories(byPrefix: [:])

    private init(byPrefix: [String: String]) { self.byPrefix = byPrefix }

    /// The category of an account (longest prefix), nil when no prefix matches.
    public func category(of account: String) -> String? {
        let digits = Self.digits(account)
        var best: (length: Int, category: String)?
        for (prefix, category) in byPrefix where digits.hasPrefix(prefix) && prefix.count > (best?.length ?? 0) {
            best = (prefix.count, category)
        }
        return best?.category
    }

    /// The digits of an account number, in order (`6300-0001` -> `63000001`).
    public static func digits(_ account: String) -> String {
        account.filter { $0.isASCII && $0.isNumber }
    }
}
