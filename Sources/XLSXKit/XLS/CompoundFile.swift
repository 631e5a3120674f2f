#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An OLE2 compound file (the container a legacy .xls is); its streams are read by name.
///
/// Only the tables are held (header, FAT, directory, mini FAT and mini stream: under 1% of the file); a big
/// stream's sectors are read from the file when a reader gets to them (`biffStream(named:)`), so an 80 MB .xls
/// is never held whole.
///
/// Lenient where real exports are sloppy: Crystal Reports writes files whose size is not the header plus a
/// whole number of sectors, so the last sector is read as if padded with zeros (only a stream that needs the
/// missing bytes is refused). Strict where leniency would mean reading garbage: a chain that loops, leaves
/// the file or ends before its stream does is a `XLSError.compoundFile` naming the stream and the sector.
/// A stream's whole chain is checked when the stream is opened, so these errors come before any of its bytes.
public struct CompoundFile: Sendable {
    /// 512 (version 3 files, all .xls seen in practice) or 4096 (version 4).
    public let sectorSize: Int
    /// The names of the stream entries, in directory order.
    public let streamNames: [String]

    private let file: CompoundFileBytes
    /// Sectors in the file, the last one counted even when the file cuts it short.
    private let sectorCount: Int
    private let fat: [UInt32]
    private let miniFAT: [UInt32]
    private let miniStream: ChainBytes
    private let miniStreamCutoff: Int
    private let entries: [DirectoryEntry]

    static let signature: [UInt8] = [0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1]
    static let miniSectorSize = 64
    // Special FAT values (MS-CFB 2.3).
    static let freeSector: UInt32 = 0xFFFF_FFFF
    static let endOfChain: UInt32 = 0xFFFF_FFFE
    static let fatSector: UInt32 = 0xFFFF_FFFD
    static let difatSector: UInt32 = 0xFFFF_FFFC

    struct DirectoryEntry: Sendable {
        var name: String
        /// 1 storage, 2 stream, 5 root.
        var type: UInt8
        var startSector: UInt32
        var size: Int
    }

    /// Bytes read along a chain, and which of them lay past the end of a cut-short file (read as zeros).
    struct ChainBytes: Sendable {
        var bytes: [UInt8]
        var missing: Range<Int>?
    }

    /// Opens the file at `path`: the tables are read now, stream sectors when a stream is read.
    public init(path: String) throws {
        try self.init(file: CompoundFileBytes(path: path))
    }

    /// Parses a compound file held in memory (a downloaded artifact).
    public init(bytes: [UInt8]) throws {
        try self.init(file: CompoundFileBytes(bytes: bytes))
    }

    /// Parses the header, the FAT (through the DIFAT), the directory and the mini stream.
    private init(file: CompoundFileBytes) throws {
        self.file = file
        guard file.count >= 512 else {
            throw XLSError.compoundFile("the OLE2 header is cut off: the file has \(file.count) bytes, the header alone needs 512")
        }
        let bytes = try file.bytes(at: 0, count: 512)
        guard bytes.starts(with: Self.signature) else {
            throw XLSError.compoundFile("the file does not start with the OLE2 signature D0 CF 11 E0 A1 B1 1A E1")
        }
        let byteOrder = Self.uint16(bytes, 28)
        guard byteOrder == 0xFFFE else {
            throw XLSError.compoundFile("the OLE2 header's byte order mark is \(biffHex(Int(byteOrder), width: 4)), not 0xFFFE (a damaged or fake compound file)")
        }
        let sectorShift = Int(Self.uint16(bytes, 30))
        guard sectorShift == 9 || sectorShift == 12 else {
            throw XLSError.compoundFile("the OLE2 header's sector shift is \(sectorShift): sectors must be 512 (shift 9) or 4096 (shift 12) bytes")
        }
        let miniShift = Int(Self.uint16(bytes, 32))
        guard miniShift == 6 else {
            throw XLSError.compoundFile("the OLE2 header's mini sector shift is \(miniShift), not 6 (64-byte mini sectors)")
        }
        let sectorSize = 1 << sectorShift
        self.sectorSize = sectorSize
        // Sector 0 starts after the header sector; a short last sector still counts (read as zero-padded).
        sectorCount = file.count > sectorSize ? (file.count - sectorSize + sectorSize - 1) / sectorSize : 0
        let fatSectorCount = Int(Self.uint32(bytes, 44))
        let firstDirectorySector = Self.uint32(bytes, 48)
        // MS-CFB fixes the cutoff at 4096; a damaged header's value would send big streams to the mini stream.
        let cutoff = Int(Self.uint32(bytes, 56))
        miniStreamCutoff = cutoff > 0 && cutoff <= 4096 ? cutoff : 4096
        let firstMiniFATSector = Self.uint32(bytes, 60)
        let firstDIFATSector = Self.uint32(bytes, 68)

        // MARK: DIFAT -> FAT
        guard fatSectorCount <= sectorCount else {
            throw XLSError.compoundFile("the OLE2 header declares \(fatSectorCount) FAT sectors, but the file has only \(sectorCount) sectors")
        }
        var fatSectors: [UInt32] = []
        fatSectors.reserveCapacity(fatSectorCount)
        for i in 0..<min(109, fatSectorCount) {
            fatSectors.append(Self.uint32(bytes, 76 + 4 * i))
        }
        if fatSectorCount > 109 {
            var difat = firstDIFATSector
            var seen = Set<UInt32>()
            let perSector = sectorSize / 4 - 1
            while fatSectors.count < fatSectorCount {
                guard difat != Self.endOfChain, difat != Self.freeSector else {
                    throw XLSError.compoundFile("the OLE2 header declares \(fatSectorCount) FAT sectors, but the DIFAT lists only \(fatSectors.count)")
                }
                guard Int(difat) < sectorCount else {
                    throw XLSError.compoundFile("the DIFAT chain points at sector \(difat), past the end of the file (\(sectorCount) sectors)")
                }
                guard seen.insert(difat).inserted else {
                    throw XLSError.compoundFile("the DIFAT chain loops at sector \(difat)")
                }
                let sector = try Self.sectorBytes(file, Int(difat), sectorSize)
                for i in 0..<perSector where fatSectors.count < fatSectorCount {
                    fatSectors.append(Self.uint32(sector, 4 * i))
                }
                difat = Self.uint32(sector, 4 * perSector)
            }
        }
        var fat: [UInt32] = []
        fat.reserveCapacity(fatSectorCount * sectorSize / 4)
        for (position, sector) in fatSectors.enumerated() {
            guard sector < Self.difatSector else {
                throw XLSError.compoundFile("the DIFAT lists FAT sector \(position) of \(fatSectorCount) as \(Self.name(sector))")
            }
            guard Int(sector) < sectorCount else {
                throw XLSError.compoundFile("the DIFAT lists FAT sector \(position) at sector \(sector), past the end of the file (\(sectorCount) sectors)")
            }
            let data = try Self.sectorBytes(file, Int(sector), sectorSize)
            for i in 0..<(sectorSize / 4) { fat.append(Self.uint32(data, 4 * i)) }
        }
        self.fat = fat

        // MARK: Directory
        let directory = try Self.followChain(file, fat: fat, start: firstDirectorySector, sectorSize: sectorSize,
                                             sectorCount: sectorCount, size: nil, what: "the directory")
        let isVersion3 = Self.uint16(bytes, 26) == 3
        var entries: [DirectoryEntry] = []
        for offset in stride(from: 0, to: directory.bytes.count - 127, by: 128) {
            let nameLength = min(Int(Self.uint16(directory.bytes, offset + 64)), 64)
            let type = directory.bytes[offset + 66]
            // The length counts the terminating NUL.
            var units: [UInt16] = []
            for i in 0..<max(0, nameLength / 2 - 1) {
                let unit = Self.uint16(directory.bytes, offset + 2 * i)
                if unit == 0 { break }
                units.append(unit)
            }
            // Version 3 files only define the low 32 bits of the size; some writers leave garbage in the high ones.
            let size = isVersion3 ? Int(Self.uint32(directory.bytes, offset + 120))
                : Int(truncatingIfNeeded: UInt64(Self.uint32(directory.bytes, offset + 120)) | UInt64(Self.uint32(directory.bytes, offset + 124)) << 32)
            entries.append(DirectoryEntry(name: String(decoding: units, as: UTF16.self), type: type,
                                          startSector: Self.uint32(directory.bytes, offset + 116), size: size))
        }
        self.entries = entries
        streamNames = entries.filter { $0.type == 2 }.map(\.name)

        // MARK: Mini FAT and mini stream
        if firstMiniFATSector != Self.endOfChain && firstMiniFATSector != Self.freeSector {
            let table = try Self.followChain(file, fat: fat, start: firstMiniFATSector, sectorSize: sectorSize,
                                             sectorCount: sectorCount, size: nil, what: "the mini FAT")
            var miniFAT: [UInt32] = []
            miniFAT.reserveCapacity(table.bytes.count / 4)
            for i in 0..<(table.bytes.count / 4) { miniFAT.append(Self.uint32(table.bytes, 4 * i)) }
            self.miniFAT = miniFAT
        } else {
            miniFAT = []
        }
        if let root = entries.first, root.type == 5, root.size != 0 {
            try Self.checkDeclaredSize(root.size, of: "the mini stream (Root Entry)", fileSize: file.count)
            miniStream = try Self.followChain(file, fat: fat, start: root.startSector, sectorSize: sectorSize,
                                              sectorCount: sectorCount, size: root.size, what: "the mini stream (Root Entry)")
        } else {
            miniStream = ChainBytes(bytes: [], missing: nil)
        }
    }

    /// The bytes of the first stream with this name (compared ignoring case, as OLE2 does), or nil when there is none.
    public func stream(named name: String) throws -> [UInt8]? {
        guard let stream = try biffStream(named: name) else { return nil }
        return try [UInt8](unsafeUninitializedCapacity: stream.count) { buffer, initialized in
            if let base = buffer.baseAddress { try stream.read(into: base, at: 0, count: stream.count) }
            initialized = stream.count
        }
    }

    /// The stream as the BIFF reader reads it: a small one (in the mini stream) copied, a big one left in the
    /// file and read sector by sector as the reader walks it. Its whole chain is checked here.
    func biffStream(named name: String) throws -> BIFFStream? {
        guard let entry = entry(named: name) else { return nil }
        let what = "stream \(entry.name)"
        try Self.checkDeclaredSize(entry.size, of: what, fileSize: file.count)
        guard entry.size > 0 else { return BIFFStream(bytes: []) }
        if entry.size < miniStreamCutoff {
            guard entry.size <= miniStream.bytes.count else {
                throw XLSError.compoundFile("\(what) declares \(entry.size) bytes in the mini stream, which holds only \(miniStream.bytes.count)")
            }
            var bytes: [UInt8] = []
            bytes.reserveCapacity(entry.size)
            try copyFromMiniStream(entry, what: what) { bytes.append(contentsOf: $0) }
            return BIFFStream(bytes: bytes)
        }
        var sectors: [UInt32] = []
        sectors.reserveCapacity((entry.size + sectorSize - 1) / sectorSize)
        var position = 0
        try Self.walkChain(fat: fat, start: entry.startSector, sectorSize: sectorSize, sectorCount: sectorCount,
                           size: entry.size, what: what) { offset, used in
            let available = max(0, min(used, file.count - offset))
            guard available == used else {
                throw XLSError.compoundFile("\(what) needs bytes \(position + available)..<\(position + used) of its \(entry.size), which lie past the end of the file (\(file.count) bytes): the file is truncated")
            }
            sectors.append(UInt32(offset / sectorSize - 1))
            position += used
        }
        return BIFFStream(file: file, sectors: sectors, sectorSize: sectorSize, count: entry.size)
    }

    private func entry(named name: String) -> DirectoryEntry? {
        let folded = name.lowercased()
        return entries.first { $0.type == 2 && $0.name.lowercased() == folded }
    }

    /// A small stream, stored in 64-byte mini sectors inside the mini stream and chained by the mini FAT.
    private func copyFromMiniStream(_ entry: DirectoryEntry, what: String, to sink: (ArraySlice<UInt8>) -> Void) throws {
        let needed = (entry.size + Self.miniSectorSize - 1) / Self.miniSectorSize
        let miniSectorCount = miniStream.bytes.count / Self.miniSectorSize
        var seen = [Bool](repeating: false, count: miniSectorCount)
        var current = entry.startSector
        for index in 0..<needed {
            guard current < Self.difatSector else {
                throw XLSError.compoundFile("\(what) is \(entry.size) bytes, but its mini FAT chain ends after \(index) mini sectors (\(index * Self.miniSectorSize) bytes)")
            }
            guard Int(current) < miniSectorCount, Int(current) < miniFAT.count else {
                throw XLSError.compoundFile("the mini FAT chain of \(what) points at mini sector \(current), past the end of the mini stream (\(min(miniSectorCount, miniFAT.count)) mini sectors)")
            }
            guard !seen[Int(current)] else {
                throw XLSError.compoundFile("the mini FAT chain of \(what) loops at mini sector \(current)")
            }
            seen[Int(current)] = true
            let start = Int(current) * Self.miniSectorSize
            let used = min(Self.miniSectorSize, entry.size - index * Self.miniSectorSize)
            if let missing = miniStream.missing, missing.overlaps(start..<(start + used)) {
                throw XLSError.compoundFile("\(what) lies partly past the end of the file (\(file.count) bytes): the file is truncated")
            }
            sink(miniStream.bytes[start..<(start + used)])
            current = miniFAT[Int(current)]
        }
    }

    // MARK: - Chains

    /// Walks a FAT chain, calling `visit` with each sector's file offset and the bytes used of it: `size` bytes
    /// when the size is known (the chain may run on; what follows is not read), else up to ENDOFCHAIN.
    private static func walkChain(fat: [UInt32], start: UInt32, sectorSize: Int, sectorCount: Int, size: Int?, what: String,
                                  visit: (_ offset: Int, _ used: Int) throws -> Void) throws {
        var seen = [Bool](repeating: false, count: min(sectorCount, fat.count))
        var current = start
        var index = 0
        let needed = size.map { ($0 + sectorSize - 1) / sectorSize }
        while needed.map({ index < $0 }) ?? (current != endOfChain) {
            guard current < difatSector else {
                if let size {
                    throw XLSError.compoundFile("\(what) is \(size) bytes, but its FAT chain ends after \(index) sectors (\(index * sectorSize) bytes)")
                }
                throw XLSError.compoundFile("the FAT chain of \(what) runs into \(name(current)) after \(index) sectors")
            }
            guard Int(current) < seen.count else {
                throw XLSError.compoundFile("the FAT chain of \(what) points at sector \(current), past the end of the file (\(sectorCount) sectors)")
            }
            guard !seen[Int(current)] else {
                throw XLSError.compoundFile("the FAT chain of \(what) loops at sector \(current)")
            }
            seen[Int(current)] = true
            try visit((Int(current) + 1) * sectorSize, size.map { min(sectorSize, $0 - index * sectorSize) } ?? sectorSize)
            current = fat[Int(current)]
            index += 1
        }
    }

    /// The bytes along a chain of the container itself (directory, mini FAT, mini stream); a sector the file
    /// cuts short reads as zeros, and `missing` says where, so a stream stored there can still be refused.
    private static func followChain(_ file: CompoundFileBytes, fat: [UInt32], start: UInt32, sectorSize: Int, sectorCount: Int,
                                    size: Int?, what: String) throws -> ChainBytes {
        var result: [UInt8] = []
        // Callers checked `size` against the file; the cap keeps a reservation within the file all the same.
        if let size { result.reserveCapacity(min(size, file.count)) }
        var missing: Range<Int>?
        try walkChain(fat: fat, start: start, sectorSize: sectorSize, sectorCount: sectorCount, size: size, what: what) { offset, used in
            let available = max(0, min(used, file.count - offset))
            if available > 0 { result.append(contentsOf: try file.bytes(at: offset, count: available)) }
            if available < used {
                // Only the file's last sector can be short, so the missing bytes are one range.
                missing = result.count..<(result.count + used - available)
                result.append(contentsOf: repeatElement(0, count: used - available))
            }
        }
        return ChainBytes(bytes: result, missing: missing)
    }

    /// Refuses a directory entry's size that the file cannot hold, before anything is read or reserved for it:
    /// a stream's bytes all lie in the file's sectors, so no stream is longer than the file.
    private static func checkDeclaredSize(_ size: Int, of what: String, fileSize: Int) throws {
        guard size >= 0, size <= fileSize else {
            let declared = size >= 0 ? "\(size) bytes" : "a size past 2^63 bytes"
            throw XLSError.compoundFile("\(what) declares \(declared), more than the whole file holds (\(fileSize) bytes)")
        }
    }

    private static func name(_ sector: UInt32) -> String {
        switch sector {
        case freeSector: return "a free sector (0xFFFFFFFF)"
        case endOfChain: return "end of chain (0xFFFFFFFE)"
        case fatSector: return "a FAT sector marker (0xFFFFFFFD)"
        case difatSector: return "a DIFAT sector marker (0xFFFFFFFC)"
        default: return "\(sector)"
        }
    }

    /// One sector's bytes, zero-padded when the file ends inside it.
    private static func sectorBytes(_ file: CompoundFileBytes, _ sector: Int, _ sectorSize: Int) throws -> [UInt8] {
        let offset = (sector + 1) * sectorSize
        let end = min(offset + sectorSize, file.count)
        var data = offset < end ? try file.bytes(at: offset, count: end - offset) : []
        if data.count < sectorSize { data.append(contentsOf: repeatElement(0, count: sectorSize - data.count)) }
        return data
    }

    static func uint16(_ bytes: [UInt8], _ offset: Int) -> UInt16 {
        UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
    }

    static func uint32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16 | UInt32(bytes[offset + 3]) << 24
    }
}

/// The bytes of a compound file: an array already in memory, or an open file read with `pread` when asked.
///
/// Owns the file descriptor and closes it in `deinit`. `pread` takes its own offset, so readers that share one
/// (the workbook's globals cursor and a sheet's) never disturb each other.
final class CompoundFileBytes: @unchecked Sendable {
    /// The file's size in bytes.
    let count: Int
    private let memory: [UInt8]
    private let descriptor: Int32

    init(bytes: [UInt8]) {
        memory = bytes
        count = bytes.count
        descriptor = -1
    }

    init(path: String) throws {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw XLSXError.cannotOpen(reason: String(cString: strerror(errno))) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw XLSXError.cannotOpen(reason: reason)
        }
        descriptor = fd
        count = max(Int(info.st_size), 0)
        memory = []
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// Copies bytes `offset..<offset + count`, which the caller has checked lie inside the file, to `destination`.
    func read(into destination: UnsafeMutableRawPointer, at offset: Int, count: Int) throws {
        guard count > 0 else { return }
        guard descriptor >= 0 else {
            memory.withUnsafeBytes { destination.copyMemory(from: $0.baseAddress! + offset, byteCount: count) }
            return
        }
        var done = 0
        while done < count {
            let n = pread(descriptor, destination + done, count - done, off_t(offset + done))
            if n < 0 {
                if errno == EINTR { continue }
                throw XLSError.compoundFile("reading bytes \(offset + done)..<\(offset + count) of the file failed: \(String(cString: strerror(errno)))")
            }
            // The size was taken when the file was opened; a file cut short since then is refused, not zero-filled.
            guard n > 0 else {
                throw XLSError.compoundFile("the file ended at byte \(offset + done) while bytes up to \(offset + count) were read (it was \(self.count) bytes when opened; did it change?)")
            }
            done += n
        }
    }

    /// The bytes `offset..<offset + count` as an array (header, table sectors).
    func bytes(at offset: Int, count: Int) throws -> [UInt8] {
        try [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            if count > 0 { try read(into: buffer.baseAddress!, at: offset, count: count) }
            initialized = count
        }
    }
}
