import CCrypto
import OwnerDashCore
import Foundation

/// SHA-256, streamed, through libcrypto's EVP digest (which uses the CPU's SHA instructions where it has them):
/// artifact lineage, the rows digest that decides whether a snapshot changed, notice content hashes, ETags.
public final class SHA256: @unchecked Sendable {
    // @unchecked: one hasher is fed and finalized by one thread at a time; nothing shares it while it is in use.
    private let context: OpaquePointer

    public init() {
        // EVP_MD_CTX_new fails only when malloc does, which Swift treats as fatal everywhere else too.
        guard let context = EVP_MD_CTX_new() else { fatalError("EVP_MD_CTX_new: out of memory") }
        self.context = context
        EVP_DigestInit_ex(context, EVP_sha256(), nil)
    }

    deinit { EVP_MD_CTX_free(context) }

    /// Feeds more bytes.
    public func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        EVP_DigestUpdate(context, base, bytes.count)
    }

    /// Feeds more bytes.
    public func update(_ bytes: [UInt8]) { bytes.withUnsafeBytes { update($0) } }

    /// Feeds a string's UTF-8 bytes.
    public func update(_ text: String) {
        var text = text
        text.withUTF8 { update(UnsafeRawBufferPointer($0)) }
    }

    /// The digest as 64 lowercase hex characters; the hasher is spent afterwards.
    public func finalizeHex() -> String {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        EVP_DigestFinal_ex(context, &digest, &length)
        return Hex.encode(digest.prefix(Int(length)))
    }

    /// The digest's 32 bytes appended to `digests`; the hasher then starts a new message, so that one hasher digests
    /// many small records (RawStore's record digests) without a libcrypto context each.
    public func finalizeAndRestart(appendingTo digests: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Int(EVP_MAX_MD_SIZE)) { digest in
            var length: UInt32 = 0
            EVP_DigestFinal_ex(context, digest.baseAddress, &length)
            digests.append(contentsOf: digest.prefix(Int(length)))
        }
        EVP_DigestInit_ex(context, EVP_sha256(), nil)
    }

    /// The hex digest of a whole file, read in 1 MiB chunks into one buffer (memory flat in the file size): the
    /// landing zone digests every download, and a fresh `Data` per chunk cost a page-faulted allocation and a copy each.
    public static func hexDigest(ofFile path: String) throws -> String {
        let file = open(path, O_RDONLY | O_CLOEXEC)
        guard file >= 0 else {
            throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: path])
        }
        defer { close(file) }
        let hasher = SHA256()
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count = read(file, buffer.baseAddress, buffer.count)
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR { continue }
                throw CocoaError(.fileReadUnknown, userInfo: [NSFilePathErrorKey: path,
                                                              NSUnderlyingErrorKey: POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)])
            }
            hasher.update(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
        }
        return hasher.finalizeHex()
    }

    /// The hex digest of `bytes`.
    public static func hexDigest(of bytes: [UInt8]) -> String {
        let hasher = SHA256()
        hasher.update(bytes)
        return hasher.finalizeHex()
    }

    /// The hex digest of `text`'s UTF-8 bytes.
    public static func hexDigest(of text: String) -> String {
        let hasher = SHA256()
        hasher.update(text)
        return hasher.finalizeHex()
    }
}
