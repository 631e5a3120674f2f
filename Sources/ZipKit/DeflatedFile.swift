import CZlib
import Glibc

/// A raw DEFLATE stream being inflated chunk by chunk; owns its `z_stream` and frees it in deinit.
public final class Inflater {
    /// The stream lives at a fixed address because zlib keeps a pointer back to it.
    private let stream: UnsafeMutablePointer<z_stream>
    private let output: UnsafeMutableRawBufferPointer
    /// True once zlib has seen the end of the stream.
    public private(set) var finished = false

    static let outputChunk = 64 << 10

    /// Starts a raw DEFLATE stream (no zlib header), the counterpart of `Deflater`.
    public init() throws {
        stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        let status = inflateInit2_(stream, -15, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        guard status == Z_OK else {
            stream.deallocate()
            throw DeflatedFileError("zlib could not start inflating (status \(status))")
        }
        output = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.outputChunk, alignment: 16)
    }

    deinit {
        inflateEnd(stream)
        stream.deallocate()
        output.deallocate()
    }

    /// Inflates `bytes`, handing each piece of output to `sink`; bytes after the end of the stream are refused.
    public func inflate(_ bytes: UnsafeRawBufferPointer, into sink: (UnsafeRawBufferPointer) throws -> Void) throws {
        guard bytes.count > 0 else { return }
        if finished { throw DeflatedFileError("data after the end of the compressed stream") }
        stream.pointee.next_in = UnsafeMutablePointer(mutating: bytes.baseAddress?.assumingMemoryBound(to: Bytef.self))
        stream.pointee.avail_in = uInt(bytes.count)
        while true {
            stream.pointee.next_out = output.baseAddress?.assumingMemoryBound(to: Bytef.self)
            stream.pointee.avail_out = uInt(output.count)
            let status = CZlib.inflate(stream, Z_NO_FLUSH)
            guard status == Z_OK || status == Z_STREAM_END || status == Z_BUF_ERROR else {
                let detail = stream.pointee.msg.map { String(cString: $0) } ?? "zlib status \(status)"
                throw DeflatedFileError("corrupt compressed data (\(detail))")
            }
            let produced = output.count - Int(stream.pointee.avail_out)
            if produced > 0 { try sink(UnsafeRawBufferPointer(rebasing: output[0..<produced])) }
            if status == Z_STREAM_END {
                finished = true
                if stream.pointee.avail_in > 0 { throw DeflatedFileError("data after the end of the compressed stream") }
                return
            }
            if stream.pointee.avail_in == 0 && stream.pointee.avail_out > 0 { return }
            if status == Z_BUF_ERROR && produced == 0 { return }
        }
    }
}

/// A compressed file that could not be written or read back; the message says why (the caller names the file).
public struct DeflatedFileError: Error, CustomStringConvertible, Sendable {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// Whole files as one raw DEFLATE stream (the landing zone's `.z` objects), written and read in 64 KiB pieces so
/// memory stays flat whatever the file's size.
public enum DeflatedFile {
    /// Compresses the file at `source` into a new file at `destination` (created, never replacing one).
    public static func compress(_ source: String, to destination: String, level: Int32 = 6) throws {
        let input = open(source, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw DeflatedFileError("\(source): cannot open: \(String(cString: strerror(errno)))") }
        defer { close(input) }
        let output = open(destination, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard output >= 0 else {
            throw DeflatedFileError("\(destination): cannot create: \(String(cString: strerror(errno)))")
        }
        var ok = false
        defer {
            close(output)
            if !ok { unlink(destination) }
        }
        let deflater = try Deflater(level: level)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 << 10, alignment: 16)
        defer { buffer.deallocate() }
        let sink: (UnsafeRawBufferPointer) throws -> Void = { chunk in try writeAll(output, chunk, path: destination) }
        while true {
            let count = read(input, buffer.baseAddress, buffer.count)
            if count < 0 {
                if errno == EINTR { continue }
                throw DeflatedFileError("\(source): cannot read: \(String(cString: strerror(errno)))")
            }
            try deflater.deflate(UnsafeRawBufferPointer(rebasing: buffer[0..<count]), finish: count == 0, into: sink)
            if count == 0 { break }
        }
        guard fsync(output) == 0 else {
            throw DeflatedFileError("\(destination): cannot sync: \(String(cString: strerror(errno)))")
        }
        ok = true
    }

    /// Inflates the file at `path`, handing each piece of the original bytes to `sink`; a file cut short or garbled
    /// throws (it never yields a silently shorter document).
    public static func inflate(_ path: String, into sink: (UnsafeRawBufferPointer) throws -> Void) throws {
        let input = open(path, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw DeflatedFileError("cannot open: \(String(cString: strerror(errno)))") }
        defer { close(input) }
        let inflater = try Inflater()
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 << 10, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count = read(input, buffer.baseAddress, buffer.count)
            if count < 0 {
                if errno == EINTR { continue }
                throw DeflatedFileError("cannot read: \(String(cString: strerror(errno)))")
            }
            if count == 0 { break }
            try inflater.inflate(UnsafeRawBufferPointer(rebasing: buffer[0..<count]), into: sink)
        }
        guard inflater.finished else { throw DeflatedFileError("the compressed file is truncated (it ends before its stream does)") }
    }

    private static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, path: String) throws {
        var offset = 0
        while offset < bytes.count {
            let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                throw DeflatedFileError("\(path): cannot write: \(String(cString: strerror(errno)))")
            }
            offset += written
        }
    }
}
