import CZlib

/// Inflates one entry chunk by chunk into caller buffers, checking its size limits while it runs and its CRC at the end.
public final class ZipEntryReader {
    public let entry: ZipEntry
    private let bytes: ArchiveBytes
    private let limits: ZipLimits
    /// The zlib stream lives at a fixed address because zlib keeps a pointer back to it.
    private let stream: UnsafeMutablePointer<z_stream>?
    private let input: UnsafeMutableRawBufferPointer
    private var nextInputOffset: UInt64
    private var compressedLeft: UInt64
    private var produced: UInt64 = 0
    private var crc: UInt = 0
    private var finished = false

    static let inputChunk = 64 << 10

    init(bytes: ArchiveBytes, entry: ZipEntry, limits: ZipLimits) throws {
        self.entry = entry
        self.bytes = bytes
        self.limits = limits
        if entry.flags & 1 != 0 { throw ZipError.encrypted(entry: entry.name) }
        guard entry.method == 0 || entry.method == 8 else {
            throw ZipError.unsupportedMethod(entry: entry.name, method: entry.method)
        }
        if entry.uncompressedSize > limits.maxInflatedSize {
            throw ZipError.inflatedSizeLimit(entry: entry.name, limit: limits.maxInflatedSize)
        }
        if entry.uncompressedSize > limits.ratioThreshold,
           entry.uncompressedSize / max(entry.compressedSize, 1) > limits.maxCompressionRatio {
            throw ZipError.compressionRatioLimit(entry: entry.name, limit: limits.maxCompressionRatio)
        }
        let header = try bytes.read(at: entry.localHeaderOffset, count: 30)
        guard header.count == 30 else {
            throw ZipError.truncated(detail: "entry \(entry.name) starts past the end of the file")
        }
        guard le32(header, 0) == 0x0403_4B50 else {
            throw ZipError.corruptEntry(entry: entry.name, detail: "no local file header where the directory points")
        }
        let dataStart = entry.localHeaderOffset + 30 + UInt64(le16(header, 26)) + UInt64(le16(header, 28))
        guard dataStart <= bytes.size, entry.compressedSize <= bytes.size - dataStart else {
            throw ZipError.truncated(detail: "entry \(entry.name) runs past the end of the file")
        }
        nextInputOffset = dataStart
        compressedLeft = entry.compressedSize

        if entry.method == 8 {
            let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
            stream.initialize(to: z_stream())
            // Raw DEFLATE (negative window bits): zip entries carry no zlib header.
            let status = inflateInit2_(stream, -15, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
            guard status == Z_OK else {
                stream.deallocate()
                throw ZipError.corruptEntry(entry: entry.name, detail: "zlib could not start inflating (status \(status))")
            }
            self.stream = stream
            self.input = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.inputChunk, alignment: 16)
        } else {
            self.stream = nil
            self.input = UnsafeMutableRawBufferPointer(start: nil, count: 0)
        }
    }

    deinit {
        if let stream {
            inflateEnd(stream)
            stream.deallocate()
        }
        input.deallocate()
    }

    /// Fills `buffer` with the next inflated bytes; returns how many, 0 only at the end of the entry (after the CRC check).
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard !finished, buffer.count > 0, let out = buffer.baseAddress else { return 0 }
        let n: Int
        if let stream {
            n = try inflate(stream, into: out, count: buffer.count)
        } else {
            n = try copyStored(into: buffer)
        }
        if n > 0 {
            produced += UInt64(n)
            if produced > entry.uncompressedSize {
                throw ZipError.corruptEntry(entry: entry.name, detail: "inflates past its declared size")
            }
            crc = crc32(crc, out.assumingMemoryBound(to: Bytef.self), uInt(n))
            return n
        }
        try finish()
        return 0
    }

    private func finish() throws {
        finished = true
        guard produced == entry.uncompressedSize else {
            throw ZipError.corruptEntry(entry: entry.name, detail: "inflated to \(produced) bytes, the directory says \(entry.uncompressedSize)")
        }
        guard UInt32(truncatingIfNeeded: crc) == entry.crc32 else {
            throw ZipError.corruptEntry(entry: entry.name, detail: "CRC mismatch")
        }
    }

    private func copyStored(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard compressedLeft > 0 else { return 0 }
        let want = Int(min(UInt64(buffer.count), compressedLeft))
        let n = try bytes.read(at: nextInputOffset, into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<want]))
        guard n == want else { throw ZipError.truncated(detail: "entry \(entry.name) runs past the end of the file") }
        nextInputOffset += UInt64(n)
        compressedLeft -= UInt64(n)
        return n
    }

    private func inflate(_ stream: UnsafeMutablePointer<z_stream>, into out: UnsafeMutableRawPointer, count: Int) throws -> Int {
        stream.pointee.next_out = out.assumingMemoryBound(to: Bytef.self)
        stream.pointee.avail_out = uInt(min(count, Int(UInt32.max)))
        let capacity = Int(stream.pointee.avail_out)
        while stream.pointee.avail_out > 0 {
            if stream.pointee.avail_in == 0 && compressedLeft > 0 {
                let want = Int(min(UInt64(input.count), compressedLeft))
                let n = try bytes.read(at: nextInputOffset, into: UnsafeMutableRawBufferPointer(rebasing: input[0..<want]))
                guard n == want else { throw ZipError.truncated(detail: "entry \(entry.name) runs past the end of the file") }
                nextInputOffset += UInt64(n)
                compressedLeft -= UInt64(n)
                stream.pointee.next_in = input.baseAddress?.assumingMemoryBound(to: Bytef.self)
                stream.pointee.avail_in = uInt(n)
            }
            let status = CZlib.inflate(stream, Z_NO_FLUSH)
            if status == Z_STREAM_END { break }
            if status == Z_BUF_ERROR {
                // No progress possible: either the output is full (caller reads on) or the input ran out.
                if stream.pointee.avail_out == 0 { break }
                throw ZipError.corruptEntry(entry: entry.name, detail: "deflate data ends early")
            }
            guard status == Z_OK else {
                let detail = stream.pointee.msg.map { String(cString: $0) } ?? "zlib status \(status)"
                throw ZipError.corruptEntry(entry: entry.name, detail: "invalid deflate data (\(detail))")
            }
            let producedSoFar = produced + UInt64(capacity - Int(stream.pointee.avail_out))
            if producedSoFar > limits.ratioThreshold,
               producedSoFar / max(UInt64(stream.pointee.total_in), 1) > limits.maxCompressionRatio {
                throw ZipError.compressionRatioLimit(entry: entry.name, limit: limits.maxCompressionRatio)
            }
            if producedSoFar > limits.maxInflatedSize {
                throw ZipError.inflatedSizeLimit(entry: entry.name, limit: limits.maxInflatedSize)
            }
        }
        return capacity - Int(stream.pointee.avail_out)
    }
}
