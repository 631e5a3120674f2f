import Foundation

/// Which build of ownerdash is running: the GNU build ID the linker wrote into the executable (a hash of its linked
/// contents, so any change to the code changes it), read from the ELF notes of `/proc/self/exe`.
///
/// Reading a few hundred bytes of headers replaces hashing the whole 25 MB executable on every run.
public enum BuildIdentity {
    /// The build ID of the running executable as hex, nil when it has none or is not a 64-bit little-endian ELF.
    public static let current: String? = gnuBuildID(ofFile: "/proc/self/exe")

    /// The build ID as stored beside what this build computed (`build-id:<hex>`: the sync's fingerprint, the build
    /// that decoded a raw snapshot), nil without one.
    public static let label: String? = current.map { "build-id:" + $0 }

    /// The `NT_GNU_BUILD_ID` note of an ELF64 little-endian file, as hex; nil for anything else.
    public static func gnuBuildID(ofFile path: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        func read(_ offset: UInt64, _ count: Int) -> [UInt8]? {
            guard count > 0, count < 1 << 20, (try? handle.seek(toOffset: offset)) != nil,
                  let data = try? handle.read(upToCount: count), data.count == count else { return nil }
            return [UInt8](data)
        }
        func integer(_ bytes: [UInt8], _ at: Int, _ width: Int) -> UInt64 {
            (0..<width).reduce(UInt64(0)) { $0 | UInt64(bytes[at + $1]) << (8 * UInt64($1)) }
        }
        // ELF magic, 64-bit class, little-endian data.
        guard let header = read(0, 64), header[0..<4] == [0x7F, 0x45, 0x4C, 0x46], header[4] == 2, header[5] == 1 else {
            return nil
        }
        let tableOffset = integer(header, 0x20, 8), entrySize = Int(integer(header, 0x36, 2))
        let entries = Int(integer(header, 0x38, 2))
        guard entrySize >= 0x28, entries > 0, let table = read(tableOffset, entrySize * entries) else { return nil }
        for index in 0..<entries {
            let entry = index * entrySize
            guard integer(table, entry, 4) == 4 /* PT_NOTE */ else { continue }
            guard let notes = read(integer(table, entry + 0x08, 8), Int(integer(table, entry + 0x20, 8))) else { continue }
            var at = 0
            while at + 12 <= notes.count {
                let nameSize = Int(integer(notes, at, 4)), descriptionSize = Int(integer(notes, at + 4, 4))
                let type = integer(notes, at + 8, 4)
                let nameStart = at + 12, descriptionStart = nameStart + (nameSize + 3) / 4 * 4
                let next = descriptionStart + (descriptionSize + 3) / 4 * 4
                guard next <= notes.count else { break }
                if type == 3 /* NT_GNU_BUILD_ID */, nameSize == 4, notes[nameStart..<nameStart + 4] == [0x47, 0x4E, 0x55, 0],
                   descriptionSize > 0 {
                    return notes[descriptionStart..<descriptionStart + descriptionSize]
                        .map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
                }
                at = next
            }
        }
        return nil
    }
}
