#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a zip archive could not be written; each message is one line naming the file or entry.
public enum ZipWriteError: Error, Equatable, Sendable, CustomStringConvertible {
    case cannotCreate(path: String, reason: String)
    case writeFailed(path: String, reason: String)
    case deflateFailed(entry: String, detail: String)
    /// The archive or one entry would pass 4 GiB, which needs Zip64 (not written).
    case tooLarge(entry: String, limit: UInt64)
    case tooManyEntries(limit: Int)
    case duplicateEntry(name: String)
    case invalidEntryName(name: String)
    /// `write` or `endEntry` without an entry started, or `finish` twice: a mistake in the caller, reported, not trapped.
    case misuse(detail: String)

    public var description: String {
        switch self {
        case .cannotCreate(let path, let reason): return "\(path): cannot create: \(reason)"
        case .writeFailed(let path, let reason): return "\(path): cannot write: \(reason)"
        case .deflateFailed(let entry, let detail): return "zip entry \(entry): deflate failed: \(detail)"
        case .tooLarge(let entry, _):
            return "zip entry \(entry) would take the archive past 4 GiB, the most a zip without Zip64 holds (Zip64 is not written)"
        case .tooManyEntries(let limit): return "a zip without Zip64 holds at most \(limit) entries"
        case .duplicateEntry(let name): return "zip entry \(name) is written twice"
        case .invalidEntryName(let name): return "\"\(name)\" is not a valid zip entry name"
        case .misuse(let detail): return "zip writer: \(detail)"
        }
    }
}

/// Writes a zip archive entry by entry, streaming each through raw DEFLATE, to a temporary file that is renamed to
/// `path` only by `finish()` (a failed or abandoned archive never appears under its name).
///
/// Each local header is written with zero CRC and sizes and patched in place once the entry ends (seek-back headers):
/// no data descriptors, which some readers handle badly, and no entry is ever held whole in memory.
public final class ZipWriter {
    /// How an entry's bytes are stored.
    public enum Method: UInt16, Sendable { case stored = 0, deflate = 8 }

    /// Where the finished archive goes.
    public let path: String
    private let temporaryPath: String
    private var fd: Int32
    private var buffer: [UInt8] = []
    /// Bytes of the archive so far, buffered ones included.
    private var offset: UInt64 = 0
    private var directory: [UInt8] = []
    private var entryCount = 0
    private var names: Set<String> = []
    private var current: OpenEntry?
    private var finished = false
    /// The largest offset or size a classic (non-Zip64) archive can hold; lowered by tests.
    let sizeLimit: UInt64

    private struct OpenEntry {
        var name: String
        var nameBytes: [UInt8]
        var method: Method
        var headerOffset: UInt64
        var dataStart: UInt64
        var crc = CRC32()
        var size: UInt64 = 0
        var deflater: Deflater?
    }

    static let flushSize = 256 << 10
    // 1980-01-01 00:00, the first DOS date: the same input gives the same bytes.
    static let dosTime: UInt16 = 0
    static let dosDate: UInt16 = (1 << 5) | 1

    /// Creates the archive's temporary file next to `path`.
    public convenience init(path: String) throws {
        try self.init(path: path, sizeLimit: 0xFFFF_FFFE)
    }

    init(path: String, sizeLimit: UInt64) throws {
        self.path = path
        self.sizeLimit = sizeLimit
        temporaryPath = path + ".partial-\(getpid())"
        fd = open(temporaryPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw ZipWriteError.cannotCreate(path: path, reason: errnoText()) }
        buffer.reserveCapacity(Self.flushSize + (64 << 10))
    }

    deinit {
        if !finished {
            close(fd)
            unlink(temporaryPath)
        }
    }

    // MARK: - Entries

    /// Starts an entry (ending the one before, if any); its bytes follow through `write`.
    public func startEntry(_ name: String, method: Method = .deflate) throws {
        guard !finished else { throw ZipWriteError.misuse(detail: "entry \(name) started after finish()") }
        if current != nil { try endEntry() }
        guard !name.isEmpty, !name.hasPrefix("/"), !name.contains("\\"), name.utf8.count <= 0xFFFF else {
            throw ZipWriteError.invalidEntryName(name: name)
        }
        guard names.insert(name).inserted else { throw ZipWriteError.duplicateEntry(name: name) }
        guard entryCount < 0xFFFF else { throw ZipWriteError.tooManyEntries(limit: 0xFFFF) }
        guard offset <= sizeLimit else { throw ZipWriteError.tooLarge(entry: name, limit: sizeLimit) }
        let nameBytes = Array(name.utf8)
        var entry = OpenEntry(name: name, nameBytes: nameBytes, method: method, headerOffset: offset, dataStart: 0)
        var header: [UInt8] = []
        header.reserveCapacity(30 + nameBytes.count)
        put32(&header, 0x0403_4B50)
        put16(&header, 20)                        // version needed: 2.0 (deflate)
        put16(&header, flags(nameBytes))
        put16(&header, method.rawValue)
        put16(&header, Self.dosTime)
        put16(&header, Self.dosDate)
        put32(&header, 0)                         // CRC-32, compressed and uncompressed size: patched by endEntry
        put32(&header, 0)
        put32(&header, 0)
        put16(&header, UInt16(nameBytes.count))
        put16(&header, 0)                         // no extra field
        header += nameBytes
        try emit(header)
        entry.dataStart = offset
        if method == .deflate {
            do { entry.deflater = try Deflater() } catch ZipWriteError.deflateFailed(_, let detail) {
                throw ZipWriteError.deflateFailed(entry: name, detail: detail)
            }
        }
        current = entry
    }

    /// Appends bytes to the current entry.
    public func write(_ bytes: UnsafeRawBufferPointer) throws {
        guard var entry = current else { throw ZipWriteError.misuse(detail: "write without an entry started") }
        entry.crc.update(bytes)
        entry.size += UInt64(bytes.count)
        guard entry.size <= sizeLimit else { throw ZipWriteError.tooLarge(entry: entry.name, limit: sizeLimit) }
        if let deflater = entry.deflater {
            try compress(bytes, with: deflater, finish: false, entry: entry.name)
        } else {
            try emit(bytes)
        }
        guard offset <= sizeLimit else { throw ZipWriteError.tooLarge(entry: entry.name, limit: sizeLimit) }
        current = entry
    }

    /// Appends bytes to the current entry.
    public func write(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try write($0) }
    }

    /// Appends the UTF-8 of `text` to the current entry.
    public func write(_ text: String) throws {
        var text = text
        try text.withUTF8 { try write(UnsafeRawBufferPointer($0)) }
    }

    /// Ends the current entry: flushes its compressed tail, patches its local header and records it for the directory.
    public func endEntry() throws {
        guard let entry = current else { throw ZipWriteError.misuse(detail: "endEntry without an entry started") }
        current = nil
        if let deflater = entry.deflater {
            try compress(UnsafeRawBufferPointer(start: nil, count: 0), with: deflater, finish: true, entry: entry.name)
        }
        let compressed = offset - entry.dataStart
        guard offset <= sizeLimit else { throw ZipWriteError.tooLarge(entry: entry.name, limit: sizeLimit) }
        var patch: [UInt8] = []
        put32(&patch, entry.crc.value)
        put32(&patch, UInt32(compressed))
        put32(&patch, UInt32(entry.size))
        try flush()
        try patch.withUnsafeBytes { bytes in
            guard let base = bytes.baseAddress else { return }
            var done = 0
            while done < bytes.count {
                let n = pwrite(fd, base + done, bytes.count - done, off_t(entry.headerOffset + 14) + off_t(done))
                if n < 0 {
                    if errno == EINTR { continue }
                    throw ZipWriteError.writeFailed(path: path, reason: errnoText())
                }
                done += n
            }
        }
        put32(&directory, 0x0201_4B50)
        put16(&directory, 20)                     // made by: MS-DOS attributes, zip 2.0
        put16(&directory, 20)
        put16(&directory, flags(entry.nameBytes))
        put16(&directory, entry.method.rawValue)
        put16(&directory, Self.dosTime)
        put16(&directory, Self.dosDate)
        directory += patch
        put16(&directory, UInt16(entry.nameBytes.count))
        put16(&directory, 0)                      // extra
        put16(&directory, 0)                      // comment
        put16(&directory, 0)                      // disk
        put16(&directory, 0)                      // internal attributes
        put32(&directory, 0)                      // external attributes
        put32(&directory, UInt32(entry.headerOffset))
        directory += entry.nameBytes
        entryCount += 1
    }

    /// A whole entry at once (small parts: content types, relationships, styles).
    public func addEntry(_ name: String, _ bytes: [UInt8], method: Method = .deflate) throws {
        try startEntry(name, method: method)
        try write(bytes)
        try endEntry()
    }

    /// A whole entry of UTF-8 text.
    public func addEntry(_ name: String, text: String, method: Method = .deflate) throws {
        try addEntry(name, Array(text.utf8), method: method)
    }

    /// Writes the central directory, closes the file and renames it to `path`.
    public func finish() throws {
        guard !finished else { throw ZipWriteError.misuse(detail: "finish() called twice") }
        if current != nil { try endEntry() }
        let directoryOffset = offset
        guard directoryOffset + UInt64(directory.count) <= sizeLimit else {
            throw ZipWriteError.tooLarge(entry: "(central directory)", limit: sizeLimit)
        }
        var end: [UInt8] = []
        put32(&end, 0x0605_4B50)
        put16(&end, 0)                            // this disk
        put16(&end, 0)                            // the directory's disk
        put16(&end, UInt16(entryCount))
        put16(&end, UInt16(entryCount))
        put32(&end, UInt32(directory.count))
        put32(&end, UInt32(directoryOffset))
        put16(&end, 0)                            // no comment
        try emit(directory)
        try emit(end)
        try flush()
        finished = true
        let closed = close(fd)
        guard closed == 0 else {
            let reason = errnoText()
            unlink(temporaryPath)
            throw ZipWriteError.writeFailed(path: path, reason: reason)
        }
        guard rename(temporaryPath, path) == 0 else {
            let reason = errnoText()
            unlink(temporaryPath)
            throw ZipWriteError.cannotCreate(path: path, reason: reason)
        }
    }

    // MARK: - Bytes out

    private func compress(_ bytes: UnsafeRawBufferPointer, with deflater: Deflater, finish: Bool, entry: String) throws {
        do {
            try deflater.deflate(bytes, finish: finish) { try emit($0) }
        } catch ZipWriteError.deflateFailed(_, let detail) {
            throw ZipWriteError.deflateFailed(entry: entry, detail: detail)
        }
    }

    private func emit(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try emit($0) }
    }

    private func emit(_ bytes: UnsafeRawBufferPointer) throws {
        buffer.append(contentsOf: bytes)
        offset += UInt64(bytes.count)
        if buffer.count >= Self.flushSize { try flush() }
    }

    private func flush() throws {
        var done = 0
        try buffer.withUnsafeBytes { bytes in
            guard let base = bytes.baseAddress else { return }
            while done < bytes.count {
                let n = systemWrite(fd, base + done, bytes.count - done)
                if n < 0 {
                    if errno == EINTR { continue }
                    throw ZipWriteError.writeFailed(path: path, reason: errnoText())
                }
                done += n
            }
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Bit 11: the name is UTF-8 (set only when it is not plain ASCII, as zip tools do).
    private func flags(_ name: [UInt8]) -> UInt16 {
        name.contains { $0 >= 0x80 } ? 0x0800 : 0
    }
}

/// write(2), named apart from the writer's own `write` methods.
private func systemWrite(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    Glibc.write(fd, bytes, count)
    #else
    Darwin.write(fd, bytes, count)
    #endif
}

@inline(__always) private func put16(_ bytes: inout [UInt8], _ value: UInt16) {
    bytes.append(UInt8(value & 0xFF))
    bytes.append(UInt8(value >> 8))
}

@inline(__always) private func put32(_ bytes: inout [UInt8], _ value: UInt32) {
    for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8((value >> UInt32(shift)) & 0xFF)) }
}
