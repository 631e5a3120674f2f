import Foundation
import OwnerDashCore

/// Which of a report's ids each RealPage account answered under (`ReportDefinition.identities`), kept in
/// `data/realpage_report_ids.json` so later runs ask that id first instead of meeting the same "not found".
///
/// The file maps an account (the registry's PMC id at the reporting API's host) to parser name and report id:
/// `{"4248314@reportingapi.realpage.com": {"lease_expiration": 3838}}`. Only what differs from the catalogue's order is
/// written (an account answering every report under its first id leaves no file). An unreadable file is ignored and
/// rewritten: the ids are tried in catalogue order again, which costs one refused request per report, never a wrong
/// answer.
public final class ReportIDMemory: Sendable {
    public static let fileName = "realpage_report_ids.json"

    public let path: String
    private let answered: Locked<[String: [String: Int]]>

    public init(dataDirectory: DataDirectory) {
        path = dataDirectory.path(Self.fileName)
        let stored = (try? Data(contentsOf: URL(fileURLWithPath: path)))
            .flatMap { try? JSONDecoder().decode([String: [String: Int]].self, from: $0) }
        answered = Locked(stored ?? [:])
    }

    /// The id `account` last answered `parser` under; nil when none was kept.
    public func answered(account: String, parser: String) -> Int? {
        answered.withLock { $0[account]?[parser] }
    }

    /// Keeps the id that answered, unless it is the catalogue's first and none other was kept (`first`); the file is
    /// rewritten (temp + rename) only when it changes.
    public func remember(account: String, parser: String, reportID: Int, first: Int?) throws {
        try answered.withLock { state in
            guard state[account]?[parser] ?? first != reportID else { return }
            state[account, default: [:]][parser] = reportID
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            let data = try encoder.encode(state)
            let temporary = path + ".tmp-\(UUID().uuidString.prefix(8))"
            guard FileManager.default.createFile(atPath: temporary, contents: data + Data("\n".utf8)) else {
                throw LandingError("\(path): cannot write \(temporary)")
            }
            guard rename(temporary, path) == 0 else {
                let reason = String(cString: strerror(errno))
                unlink(temporary)
                throw LandingError("\(path): cannot replace it: \(reason)")
            }
        }
    }

    /// `identities` with the one `account` last answered under first, the rest in catalogue order.
    public func ordered(_ identities: [ReportIdentity], account: String, parser: String) -> [ReportIdentity] {
        guard let id = answered(account: account, parser: parser),
              let index = identities.firstIndex(where: { $0.reportID == id }) else { return identities }
        var ordered = identities
        ordered.insert(ordered.remove(at: index), at: 0)
        return ordered
    }
}
