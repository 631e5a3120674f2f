import CZlib

/// A zlib raw-DEFLATE stream (no zlib header, as zip entries carry none) that owns its `z_stream` and frees it in deinit.
public final class Deflater {
    /// The stream lives at a fixed address because zlib keeps a pointer back to it.
    private let stream: UnsafeMutablePointer<z_stream>
    private let output: UnsafeMutableRawBufferPointer
    /// Every byte given to `deflate` so far.
    public private(set) var totalIn: UInt64 = 0
    /// Every compressed byte handed out so far.
    public private(set) var totalOut: UInt64 = 0

    static let outputChunk = 64 << 10

    /// Starts a raw DEFLATE stream at `level` (0-9; 6 is zlib's balance of size and speed).
    public init(level: Int32 = 6) throws {
        stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        // -15: raw deflate with a 32 KiB window; memLevel 8 is zlib's default.
        let status = deflateInit2_(stream, level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY, zlibVersion(),
                                   Int32(MemoryLayout<z_stream>.size))
        guard status == Z_OK else {
            stream.deallocate()
            throw ZipWriteError.deflateFailed(entry: "", detail: "zlib could not start deflating (status \(status))")
        }
        output = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.outputChunk, alignment: 16)
    }

    deinit {
        deflateEnd(stream)
        stream.deallocate()
        output.deallocate()
    }

    /// Compresses `bytes`, handing each full chunk of output to `sink`; `finish` flushes the end of the stream.
    public func deflate(_ bytes: UnsafeRawBufferPointer, finish: Bool,
                        into sink: (UnsafeRawBufferPointer) throws -> Void) throws {
        // zlib never writes through next_in; the cast is only because its API is not const-correct.
        stream.pointee.next_in = UnsafeMutablePointer(mutating: bytes.baseAddress?.assumingMemoryBound(to: Bytef.self))
        stream.pointee.avail_in = uInt(bytes.count)
        totalIn += UInt64(bytes.count)
        let flush = finish ? Z_FINISH : Z_NO_FLUSH
        while true {
            stream.pointee.next_out = output.baseAddress?.assumingMemoryBound(to: Bytef.self)
            stream.pointee.avail_out = uInt(output.count)
            let status = CZlib.deflate(stream, flush)
            guard status == Z_OK || status == Z_STREAM_END || status == Z_BUF_ERROR else {
                let detail = stream.pointee.msg.map { String(cString: $0) } ?? "zlib status \(status)"
                throw ZipWriteError.deflateFailed(entry: "", detail: detail)
            }
            let produced = output.count - Int(stream.pointee.avail_out)
            if produced > 0 {
                totalOut += UInt64(produced)
                try sink(UnsafeRawBufferPointer(rebasing: output[0..<produced]))
            }
            if finish {
                if status == Z_STREAM_END { return }
            } else if stream.pointee.avail_in == 0 && stream.pointee.avail_out > 0 {
                return
            }
        }
    }
}

/// The CRC-32 zip stores per entry, updated chunk by chunk.
public struct CRC32: Sendable, Equatable {
    public private(set) var value: UInt32 = 0

    public init() {}

    /// Folds `bytes` into the checksum.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        value = UInt32(truncatingIfNeeded: crc32(uLong(value), base.assumingMemoryBound(to: Bytef.self), uInt(bytes.count)))
    }
}
