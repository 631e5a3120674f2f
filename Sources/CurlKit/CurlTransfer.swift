import CCurl
import CCurlShim
import Foundation
import Synchronization

/// One libcurl easy handle, cleaned up in deinit. Between transfers it keeps the connections it opened (and their
/// TLS sessions), so a handle used again for the same host sends on the open connection: `HandlePool`.
final class CurlEasy: @unchecked Sendable {   // used by one transfer at a time (the pool hands it to one thread)
    let handle: UnsafeMutableRawPointer

    init() throws {
        CurlGlobal.initializeOnce()
        guard let handle = curl_easy_init() else {
            throw HTTPError(kind: .usage, curlCode: nil, message: "libcurl could not create a handle", url: "")
        }
        self.handle = handle
    }

    deinit { curl_easy_cleanup(handle) }
}

/// The idle easy handles of the process. A transfer takes one (or a new one when none is idle) and gives it back
/// when done, so a night's ~1,300 requests to three hosts open a connection per handle instead of one per request:
/// with a real vendor each saved connection is a TCP and TLS handshake. One pool for every client, since the fetch
/// builds a client per request (its redactor follows a refreshed token): libcurl sends on an open connection only
/// to the same scheme, host and port with the same TLS settings, and credentials travel in each request, never in
/// the connection. Handles are never shared by two transfers at once.
final class HandlePool: Sendable {
    static let shared = HandlePool()

    private let idle = Mutex<[CurlEasy]>([])
    /// Idle handles kept at most; a handle given back beyond them is cleaned up (its connections closed).
    static let limit = 16

    func take() throws -> CurlEasy {
        try idle.withLock { $0.popLast() } ?? CurlEasy()
    }

    func give(_ easy: CurlEasy) {
        idle.withLock { if $0.count < Self.limit { $0.append(easy) } }
    }
}

/// One transfer on an easy handle: its options, lists and callbacks, all let go in deinit (the handle is reset,
/// then the lists it pointed to are freed), while the handle and its connections live on.
final class CurlTransfer {
    private let easy: CurlEasy
    private var handle: UnsafeMutableRawPointer { easy.handle }
    private var headerList: UnsafeMutablePointer<curl_slist>?
    /// Lists set with `set(_:list:)` (e.g. SMTP recipients): libcurl keeps pointers to them until cleanup.
    private var otherLists: [UnsafeMutablePointer<curl_slist>] = []
    /// libcurl's detailed message for a failed transfer (e.g. "RCPT failed: 550"), filled when set up.
    private var errorBuffer: UnsafeMutablePointer<CChar>?
    /// The bytes an upload (an SMTP message) reads from; kept alive as long as the handle.
    private var upload: UploadSource?
    /// Receives body and header bytes from libcurl's C callbacks.
    let sink: TransferSink

    /// A transfer on `easy` (a fresh handle when nil): a pooled handle comes reset by its last transfer's deinit.
    init(sink: TransferSink, easy: CurlEasy? = nil) throws {
        self.easy = try easy ?? CurlEasy()
        self.sink = sink
    }

    deinit {
        // Reset first: the handle outlives this transfer and must not keep pointers to the lists, the error buffer,
        // the upload or the sink freed below.
        curl_easy_reset(handle)
        if let headerList { curl_slist_free_all(headerList) }
        for list in otherLists { curl_slist_free_all(list) }
        errorBuffer?.deallocate()
    }

    func set(_ option: CURLoption, _ value: Int) throws {
        try check(ownerdash_curl_setopt_long(handle, option, value), "setting option \(option.rawValue)")
    }

    func set(_ option: CURLoption, _ value: String) throws {
        try check(ownerdash_curl_setopt_string(handle, option, value), "setting option \(option.rawValue)")
    }

    func setHeaders(_ headers: [(name: String, value: String)]) throws {
        for (name, value) in headers {
            guard let appended = curl_slist_append(headerList, "\(name): \(value)") else {
                throw HTTPError(kind: .usage, curlCode: nil, message: "libcurl could not build the header list", url: "")
            }
            headerList = appended
        }
        try check(ownerdash_curl_setopt_slist(handle, CURLOPT_HTTPHEADER, headerList), "setting headers")
    }

    /// A string-list option other than the HTTP headers (CURLOPT_MAIL_RCPT).
    func set(_ option: CURLoption, list values: [String]) throws {
        var list: UnsafeMutablePointer<curl_slist>?
        for value in values {
            guard let appended = curl_slist_append(list, value) else {
                if let list { curl_slist_free_all(list) }
                throw HTTPError(kind: .usage, curlCode: nil, message: "libcurl could not build a list", url: "")
            }
            list = appended
        }
        if let list { otherLists.append(list) }
        try check(ownerdash_curl_setopt_slist(handle, option, list), "setting option \(option.rawValue)")
    }

    /// Uploads `bytes` (CURLOPT_UPLOAD through a read callback): an SMTP message's DATA.
    func setUpload(_ bytes: [UInt8]) throws {
        let source = UploadSource(bytes)
        upload = source
        try set(CURLOPT_UPLOAD, 1)
        try set(CURLOPT_INFILESIZE, bytes.count)
        try check(ownerdash_curl_setopt_read_function(handle) { buffer, size, count, context in
            guard let buffer, let context else { return 0 }
            let source = Unmanaged<UploadSource>.fromOpaque(context).takeUnretainedValue()
            return source.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: size * count))
        }, "setting the read callback")
        try check(ownerdash_curl_setopt_pointer(handle, CURLOPT_READDATA, Unmanaged.passUnretained(source).toOpaque()),
                  "setting the read context")
    }

    /// Asks libcurl to keep its detailed message for a failure (read with `errorDetail`).
    func keepErrorDetail() throws {
        let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
        buffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        errorBuffer = buffer
        try check(ownerdash_curl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, buffer), "setting the error buffer")
    }

    /// libcurl's detailed message for the last failure, when `keepErrorDetail` was called and it wrote one.
    var errorDetail: String? {
        guard let errorBuffer, errorBuffer.pointee != 0 else { return nil }
        return String(cString: errorBuffer)
    }

    func setBody(_ body: [UInt8]) throws {
        try set(CURLOPT_POSTFIELDSIZE, body.count)
        // COPYPOSTFIELDS copies the bytes, so the Swift array need not outlive this call.
        let code = body.withUnsafeBytes { raw in
            ownerdash_curl_setopt_pointer(handle, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: raw.baseAddress))
        }
        try check(code, "setting the request body")
    }

    func installCallbacks() throws {
        let context = Unmanaged.passUnretained(sink).toOpaque()
        try check(ownerdash_curl_setopt_write_function(handle) { data, size, count, context in
            guard let data, let context else { return 0 }
            let sink = Unmanaged<TransferSink>.fromOpaque(context).takeUnretainedValue()
            return sink.receiveBody(UnsafeRawBufferPointer(start: data, count: size * count)) ? size * count : 0
        }, "setting the write callback")
        try check(ownerdash_curl_setopt_pointer(handle, CURLOPT_WRITEDATA, context), "setting the write context")
        try check(ownerdash_curl_setopt_header_function(handle) { data, size, count, context in
            guard let data, let context else { return 0 }
            let sink = Unmanaged<TransferSink>.fromOpaque(context).takeUnretainedValue()
            sink.receiveHeader(UnsafeRawBufferPointer(start: data, count: size * count))
            return size * count
        }, "setting the header callback")
        try check(ownerdash_curl_setopt_pointer(handle, CURLOPT_HEADERDATA, context), "setting the header context")
    }

    /// Runs the transfer; returns libcurl's result code.
    func perform() -> CURLcode { curl_easy_perform(handle) }

    func responseCode() -> Int {
        var code = 0
        _ = ownerdash_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &code)
        return code
    }

    func totalSeconds() -> Double {
        var seconds = 0.0
        _ = ownerdash_curl_getinfo_double(handle, CURLINFO_TOTAL_TIME, &seconds)
        return seconds
    }

    private func check(_ code: CURLcode, _ doing: String) throws {
        guard code != CURLE_OK else { return }
        throw HTTPError(kind: .usage, curlCode: Int32(code.rawValue),
                        message: "libcurl error \(code.rawValue) while \(doing): \(String(cString: curl_easy_strerror(code)))", url: "")
    }
}

/// The bytes of an upload, handed to libcurl's read callback piece by piece.
final class UploadSource {
    private let bytes: [UInt8]
    private var offset = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// Copies the next bytes into `buffer`; 0 at the end.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        let count = min(buffer.count, bytes.count - offset)
        guard count > 0 else { return 0 }
        bytes.withUnsafeBytes { source in
            buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[offset..<(offset + count)]))
        }
        offset += count
        return count
    }
}

/// Collects a transfer's headers and body (in memory or into a file) as libcurl hands them over.
final class TransferSink {
    private(set) var headers: [String: String] = [:]
    private(set) var body: [UInt8] = []
    private(set) var bodySize = 0
    /// The body's file, written a buffer at a time; -1 for a body kept in memory, or once closed.
    private var descriptor: Int32 = -1
    /// What libcurl handed over since the last write: libcurl hands 16 KiB at a time, and a write(2) and a `Data` for
    /// each were 2 % of a night's CPU (170 MB of answers).
    private var pending: [UInt8] = []
    private(set) var writeFailed = false

    /// Bytes gathered before they are written.
    static let bufferSize = 1 << 20

    init(destination: ResponseDestination) throws {
        switch destination {
        case .memory:
            break
        case .file(let path):
            // Opened in place and emptied: a file there already (a landing zone's idle staging file) keeps its inode,
            // where FileManager.createFile would write a temporary file and rename it over.
            descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else {
                throw HTTPError(kind: .localIO, curlCode: nil,
                                message: "cannot create \(path): \(String(cString: strerror(errno)))", url: "")
            }
            pending.reserveCapacity(Self.bufferSize)
        }
    }

    deinit { if descriptor >= 0 { close(descriptor) } }

    func receiveBody(_ bytes: UnsafeRawBufferPointer) -> Bool {
        bodySize += bytes.count
        guard descriptor >= 0 else {
            body.append(contentsOf: bytes)
            return true
        }
        pending.append(contentsOf: bytes)
        guard pending.count >= Self.bufferSize else { return true }
        guard flush() else {
            writeFailed = true
            return false
        }
        return true
    }

    /// Writes the pending bytes to the file; false when the file refuses them (errno says why).
    private func flush() -> Bool {
        let written = pending.withUnsafeBytes { buffer -> Bool in
            var offset = 0
            while offset < buffer.count {
                let count = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if count < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += count
            }
            return true
        }
        pending.removeAll(keepingCapacity: true)
        return written
    }

    func receiveHeader(_ bytes: UnsafeRawBufferPointer) {
        let line = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        if line.hasPrefix("HTTP/") {
            // A new response (after a redirect or 100-continue): forget the previous one's headers.
            headers = [:]
            return
        }
        guard let colon = line.firstIndex(of: ":") else { return }
        let name = line[..<colon].lowercased()
        headers[name] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }

    /// Closes the body's file without syncing it: a download is staged, and whoever keeps it makes it durable
    /// (the landing zone, when the bytes become a new object); most of an unchanged night's are already stored.
    func finish() throws {
        guard descriptor >= 0 else { return }
        defer {
            close(descriptor)
            descriptor = -1
        }
        guard flush() else {
            throw HTTPError(kind: .localIO, curlCode: nil, message: String(cString: strerror(errno)), url: "")
        }
    }
}

/// curl_global_init must run once, before any thread uses libcurl.
enum CurlGlobal {
    private static let initialized: Bool = {
        curl_global_init(Int(CURL_GLOBAL_DEFAULT))
        return true
    }()

    static func initializeOnce() { _ = initialized }
}
