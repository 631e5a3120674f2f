#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Limits that make a hostile archive fail fast instead of exhausting memory or disk.
public struct ZipLimits: Sendable, Equatable {
    /// The most bytes one entry may inflate to.
    public var maxInflatedSize: UInt64
    /// The most an entry may inflate relative to its compressed size, once it is bigger than `ratioThreshold`.
    public var maxCompressionRatio: UInt64
    /// Entries at most this big are never refused for their ratio (tiny parts compress extremely well).
    public var ratioThreshold: UInt64
    /// The most entries the central directory may list.
    public var maxEntryCount: Int

    public init(maxInflatedSize: UInt64 = 2 << 30, maxCompressionRatio: UInt64 = 1000,
                ratioThreshold: UInt64 = 1 << 20, maxEntryCount: Int = 10_000) {
        self.maxInflatedSize = maxInflatedSize
        self.maxCompressionRatio = maxCompressionRatio
        self.ratioThreshold = ratioThreshold
        self.maxEntryCount = maxEntryCount
    }

    /// 2 GiB per entry, 1000:1 past 1 MiB, 10,000 entries.
    public static let standard = ZipLimits()
}

/// One file listed in the central directory.
public struct ZipEntry: Sendable, Equatable {
    public var name: String
    /// 0 = stored, 8 = deflate.
    public var method: UInt16
    public var flags: UInt16
    public var crc32: UInt32
    public var compressedSize: UInt64
    public var uncompressedSize: UInt64
    /// Where the entry's local header starts in the archive.
    public var localHeaderOffset: UInt64

    public var isDirectory: Bool { name.hasSuffix("/") }
}

/// The bytes of an archive: an open file read with pread, or an array in memory.
final class ArchiveBytes: @unchecked Sendable {
    // @unchecked: the fd and the array are never mutated after init, and pread has no shared file offset.
    private let fd: Int32
    private let memory: [UInt8]
    let size: UInt64

    init(path: String) throws {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw ZipError.cannotOpen(reason: errnoText()) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let reason = errnoText()
            close(fd)
            throw ZipError.cannotOpen(reason: reason)
        }
        if (info.st_mode & S_IFMT) == S_IFDIR {
            close(fd)
            throw ZipError.cannotOpen(reason: "is a directory")
        }
        self.fd = fd
        self.memory = []
        self.size = UInt64(info.st_size)
    }

    init(bytes: [UInt8]) {
        self.fd = -1
        self.memory = bytes
        self.size = UInt64(bytes.count)
    }

    deinit {
        if fd >= 0 { close(fd) }
    }

    /// Fills as much of `buffer` as the archive holds from `offset`; returns the count (short only at the end).
    func read(at offset: UInt64, into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard offset < size, buffer.count > 0, let dest = buffer.baseAddress else { return 0 }
        let want = Int(min(UInt64(buffer.count), size - offset))
        if fd < 0 {
            memory.withUnsafeBytes { src in
                if let start = src.baseAddress { dest.copyMemory(from: start + Int(offset), byteCount: want) }
            }
            return want
        }
        var done = 0
        while done < want {
            let n = pread(fd, dest + done, want - done, off_t(offset) + off_t(done))
            if n < 0 {
                if errno == EINTR { continue }
                throw ZipError.readFailed(reason: errnoText())
            }
            if n == 0 { break }
            done += n
        }
        return done
    }

    func read(at offset: UInt64, count: Int) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let n = try bytes.withUnsafeMutableBytes { (buffer) throws -> Int in
            try read(at: offset, into: buffer)
        }
        if n < count { bytes.removeLast(count - n) }
        return bytes
    }
}

func errnoText() -> String {
    String(cString: strerror(errno))
}

/// A zip archive's central directory, and the way to read its entries (whole or streamed).
public final class ZipArchive: Sendable {
    /// Every entry in central-directory order.
    public let entries: [ZipEntry]
    public let limits: ZipLimits
    let bytes: ArchiveBytes
    private let index: [String: Int]
    private let foldedIndex: [String: Int]

    /// Opens the zip file at `path` and reads its central directory.
    public convenience init(path: String, limits: ZipLimits = .standard) throws {
        try self.init(source: ArchiveBytes(path: path), limits: limits)
    }

    /// Reads the central directory of a zip held in memory.
    public convenience init(bytes: [UInt8], limits: ZipLimits = .standard) throws {
        try self.init(source: ArchiveBytes(bytes: bytes), limits: limits)
    }

    init(source: ArchiveBytes, limits: ZipLimits) throws {
        self.bytes = source
        self.limits = limits
        let entries = try ZipArchive.readDirectory(source, limits: limits)
        self.entries = entries
        var index: [String: Int] = [:]
        var folded: [String: Int] = [:]
        for (i, entry) in entries.enumerated() {
            if index[entry.name] == nil { index[entry.name] = i }
            let key = entry.name.lowercased()
            if folded[key] == nil { folded[key] = i }
        }
        self.index = index
        self.foldedIndex = folded
    }

    /// The entry with this name; OPC part names are case-insensitive, so an exact match wins, then a case-folded one.
    public func entry(named name: String) -> ZipEntry? {
        var name = name
        if name.hasPrefix("/") { name.removeFirst() }
        if let i = index[name] { return entries[i] }
        if let i = foldedIndex[name.lowercased()] { return entries[i] }
        return nil
    }

    /// The whole inflated content of an entry, CRC-checked and within the limits.
    public func contents(of entry: ZipEntry) throws -> [UInt8] {
        let reader = try self.reader(for: entry)
        // The declared size passed the limits (at most 1000 times the compressed bytes, which lie in the file), but
        // a damaged directory can still declare far more than the entry inflates to: grow with what inflates,
        // reserving no more than a few times the compressed size up front.
        var out: [UInt8] = []
        out.reserveCapacity(Int(min(entry.uncompressedSize, entry.compressedSize.multipliedReportingOverflow(by: 4).partialValue + 65_536)))
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 << 10, alignment: 16)
        defer { chunk.deallocate() }
        while true {
            let n = try reader.read(into: chunk)
            // The reader refuses bytes past the declared size and checks the size and CRC at the end.
            if n == 0 { break }
            out.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk[0..<n]))
        }
        return out
    }

    /// The whole inflated content of the entry with this name.
    public func contents(named name: String) throws -> [UInt8] {
        guard let entry = entry(named: name) else { throw ZipError.missingEntry(name: name) }
        return try contents(of: entry)
    }

    /// A streaming reader that inflates the entry chunk by chunk into caller buffers.
    public func reader(for entry: ZipEntry) throws -> ZipEntryReader {
        try ZipEntryReader(bytes: bytes, entry: entry, limits: limits)
    }

    // MARK: - Central directory

    private static func readDirectory(_ source: ArchiveBytes, limits: ZipLimits) throws -> [ZipEntry] {
        let size = source.size
        guard size >= 22 else {
            let head = try source.read(at: 0, count: 4)
            throw isLocalHeaderStart(head) ? ZipError.truncated(detail: "no end of central directory record (the file was cut off?)") : ZipError.notAZip
        }
        let tailLength = Int(min(size, 22 + 65_535))
        let tailStart = size - UInt64(tailLength)
        let tail = try source.read(at: tailStart, count: tailLength)
        var found: Int? = nil
        var i = tail.count - 22
        while i >= 0 {
            if tail[i] == 0x50 && tail[i + 1] == 0x4B && tail[i + 2] == 0x05 && tail[i + 3] == 0x06 {
                found = i
                break
            }
            i -= 1
        }
        guard let eocd = found else {
            // A file that starts like a zip but has no directory was cut off in transit.
            if isLocalHeaderStart(try source.read(at: 0, count: 4)) {
                throw ZipError.truncated(detail: "no end of central directory record (the file was cut off?)")
            }
            throw ZipError.notAZip
        }
        let eocdOffset = tailStart + UInt64(eocd)
        let diskNumber = le16(tail, eocd + 4)
        let directoryDisk = le16(tail, eocd + 6)
        var entryCount = UInt64(le16(tail, eocd + 10))
        var directorySize = UInt64(le32(tail, eocd + 12))
        var directoryOffset = UInt64(le32(tail, eocd + 16))
        var directoryEnd = eocdOffset

        let needsZip64 = entryCount == 0xFFFF || directorySize == 0xFFFF_FFFF || directoryOffset == 0xFFFF_FFFF
        if needsZip64 || (eocd >= 20 && le32(tail, eocd - 20) == 0x0706_4B50) {
            guard eocd >= 20, le32(tail, eocd - 20) == 0x0706_4B50 else {
                throw ZipError.corruptDirectory(detail: "zip64 values without a zip64 end of central directory locator")
            }
            let recordOffset = le64(tail, eocd - 20 + 8)
            let record = try source.read(at: recordOffset, count: 56)
            guard record.count == 56, le32(record, 0) == 0x0606_4B50 else {
                throw ZipError.corruptDirectory(detail: "zip64 end of central directory record not found")
            }
            guard le32(record, 16) == 0, le32(record, 20) == 0 else { throw ZipError.multiDisk }
            entryCount = le64(record, 32)
            directorySize = le64(record, 40)
            directoryOffset = le64(record, 48)
            directoryEnd = recordOffset
        } else if diskNumber != 0 || directoryDisk != 0 {
            throw ZipError.multiDisk
        }
        guard entryCount <= UInt64(limits.maxEntryCount) else {
            throw ZipError.tooManyEntries(count: entryCount, limit: limits.maxEntryCount)
        }
        guard directoryOffset <= directoryEnd, directorySize <= directoryEnd - directoryOffset else {
            throw ZipError.truncated(detail: "the central directory starts past the end of the file")
        }
        guard directorySize <= 64 << 20 else {
            throw ZipError.corruptDirectory(detail: "central directory of \(directorySize) bytes is implausibly large")
        }
        let directory = try source.read(at: directoryOffset, count: Int(directorySize))
        guard directory.count == Int(directorySize) else {
            throw ZipError.truncated(detail: "the central directory runs past the end of the file")
        }

        var entries: [ZipEntry] = []
        entries.reserveCapacity(Int(entryCount))
        var p = 0
        for n in 0..<entryCount {
            guard p + 46 <= directory.count, le32(directory, p) == 0x0201_4B50 else {
                throw ZipError.corruptDirectory(detail: "entry \(n + 1) of \(entryCount) has no valid header")
            }
            let nameLength = Int(le16(directory, p + 28))
            let extraLength = Int(le16(directory, p + 30))
            let commentLength = Int(le16(directory, p + 32))
            let next = p + 46 + nameLength + extraLength + commentLength
            guard next <= directory.count else {
                throw ZipError.corruptDirectory(detail: "entry \(n + 1) of \(entryCount) runs past the directory")
            }
            var entry = ZipEntry(
                name: String(decoding: directory[(p + 46)..<(p + 46 + nameLength)], as: UTF8.self),
                method: le16(directory, p + 10),
                flags: le16(directory, p + 8),
                crc32: le32(directory, p + 16),
                compressedSize: UInt64(le32(directory, p + 20)),
                uncompressedSize: UInt64(le32(directory, p + 24)),
                localHeaderOffset: UInt64(le32(directory, p + 42)))
            try applyZip64Extra(directory, from: p + 46 + nameLength, count: extraLength, to: &entry)
            entries.append(entry)
            p = next
        }
        return entries
    }

    /// Replaces 0xFFFFFFFF sizes and offsets with the 64-bit values of the zip64 extra field.
    private static func applyZip64Extra(_ bytes: [UInt8], from start: Int, count: Int, to entry: inout ZipEntry) throws {
        let wantsU = entry.uncompressedSize == 0xFFFF_FFFF
        let wantsC = entry.compressedSize == 0xFFFF_FFFF
        let wantsO = entry.localHeaderOffset == 0xFFFF_FFFF
        guard wantsU || wantsC || wantsO else { return }
        var p = start
        let end = start + count
        while p + 4 <= end {
            let id = le16(bytes, p)
            let length = Int(le16(bytes, p + 2))
            guard p + 4 + length <= end else { break }
            if id == 0x0001 {
                var q = p + 4
                let fieldEnd = q + length
                if wantsU, q + 8 <= fieldEnd { entry.uncompressedSize = le64(bytes, q); q += 8 }
                if wantsC, q + 8 <= fieldEnd { entry.compressedSize = le64(bytes, q); q += 8 }
                if wantsO, q + 8 <= fieldEnd { entry.localHeaderOffset = le64(bytes, q); q += 8 }
                return
            }
            p += 4 + length
        }
        throw ZipError.corruptDirectory(detail: "entry \(entry.name) needs a zip64 extra field but has none")
    }

    private static func isLocalHeaderStart(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 4 && bytes[0] == 0x50 && bytes[1] == 0x4B && bytes[2] == 0x03 && bytes[3] == 0x04
    }
}

// MARK: - Little-endian fields

@inline(__always) func le16(_ b: [UInt8], _ i: Int) -> UInt16 {
    UInt16(b[i]) | UInt16(b[i + 1]) << 8
}

@inline(__always) func le32(_ b: [UInt8], _ i: Int) -> UInt32 {
    UInt32(b[i]) | UInt32(b[i + 1]) << 8 | UInt32(b[i + 2]) << 16 | UInt32(b[i + 3]) << 24
}

@inline(__always) func le64(_ b: [UInt8], _ i: Int) -> UInt64 {
    UInt64(le32(b, i)) | UInt64(le32(b, i + 4)) << 32
}
