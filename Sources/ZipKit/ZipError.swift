/// Why a zip archive or one of its entries could not be read; each message is one line a user can act on.
public enum ZipError: Error, Equatable, Sendable, CustomStringConvertible {
    case cannotOpen(reason: String)
    case readFailed(reason: String)
    case notAZip
    case truncated(detail: String)
    case corruptDirectory(detail: String)
    case multiDisk
    case tooManyEntries(count: UInt64, limit: Int)
    case missingEntry(name: String)
    case encrypted(entry: String)
    case unsupportedMethod(entry: String, method: UInt16)
    case corruptEntry(entry: String, detail: String)
    case inflatedSizeLimit(entry: String, limit: UInt64)
    case compressionRatioLimit(entry: String, limit: UInt64)

    public var description: String {
        switch self {
        case .cannotOpen(let reason): return "cannot open file: \(reason)"
        case .readFailed(let reason): return "cannot read file: \(reason)"
        case .notAZip: return "not a zip file (no end of central directory record)"
        case .truncated(let detail): return "zip file is truncated: \(detail)"
        case .corruptDirectory(let detail): return "zip central directory is corrupt: \(detail)"
        case .multiDisk: return "split (multi-disk) zip archives are not supported"
        case .tooManyEntries(let count, let limit):
            return "zip has \(count) entries, more than the limit of \(limit)"
        case .missingEntry(let name): return "no entry \(name) in the zip"
        case .encrypted(let entry): return "entry \(entry) is encrypted; encrypted zips are not supported"
        case .unsupportedMethod(let entry, let method):
            return "entry \(entry) uses compression method \(method); only stored (0) and deflate (8) are supported"
        case .corruptEntry(let entry, let detail): return "entry \(entry) is corrupt: \(detail)"
        case .inflatedSizeLimit(let entry, let limit):
            return "entry \(entry) inflates past the \(byteCount(limit)) limit (zip bomb?)"
        case .compressionRatioLimit(let entry, let limit):
            return "entry \(entry) inflates more than \(limit) times its compressed size (zip bomb?)"
        }
    }
}

/// "2 GiB", "64 MiB", "512 KiB" when the size is a whole number of those units, else bytes.
func byteCount(_ n: UInt64) -> String {
    let units: [(UInt64, String)] = [(1 << 40, "TiB"), (1 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB")]
    for (size, name) in units where n >= size && n % size == 0 {
        return "\(n / size) \(name)"
    }
    return "\(n) bytes"
}
