#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ZipKit

// A purpose-built pull tokenizer for the small, regular XML of worksheets and shared strings.
// libxml2's SAX2 parser manages about 65 MB/s on sheet XML, which makes it the bottleneck of a
// 240 MB sheet; this scanner works on the inflated bytes in place, a window at a time, and hands
// out byte ranges instead of strings. Names are matched by local name, so any prefix works.

/// Memory that a value type points into; freed when the last copy of the owner goes away.
final class RawAllocation {
    let base: UnsafeMutableRawPointer
    init(byteCount: Int) { base = UnsafeMutableRawPointer.allocate(byteCount: max(byteCount, 16), alignment: 16) }
    deinit { base.deallocate() }
}

/// A growable byte buffer without Array's bounds and uniqueness checks.
struct ScratchBytes {
    private(set) var owner: RawAllocation
    private(set) var base: UnsafeMutablePointer<UInt8>
    private(set) var count = 0
    private var capacity: Int

    init(capacity: Int = 256) {
        owner = RawAllocation(byteCount: capacity)
        base = owner.base.assumingMemoryBound(to: UInt8.self)
        self.capacity = capacity
    }

    @inline(__always) mutating func removeAll() { count = 0 }

    @inline(__always) mutating func append(_ byte: UInt8) {
        if count == capacity { grow(to: count + 1) }
        base[count] = byte
        count += 1
    }

    @inline(__always) mutating func append(_ source: UnsafePointer<UInt8>, _ length: Int) {
        if count + length > capacity { grow(to: count + length) }
        (base + count).update(from: source, count: length)
        count += length
    }

    private mutating func grow(to needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let newOwner = RawAllocation(byteCount: newCapacity)
        let newBase = newOwner.base.assumingMemoryBound(to: UInt8.self)
        newBase.update(from: base, count: count)
        owner = newOwner
        base = newBase
        capacity = newCapacity
    }

    var buffer: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }

    func string() -> String { String(decoding: buffer, as: UTF8.self) }
}

/// The inflated bytes of one zip entry, seen through a window that slides forward as they are consumed.
final class PartWindow {
    private let reader: any EntryByteStream
    private(set) var base: UnsafeMutablePointer<UInt8>
    private(set) var count = 0
    /// Offset in the part of `base[0]`, for error messages.
    private(set) var offsetOfBase: Int = 0
    private var capacity: Int
    private var atEnd = false

    /// Inflate this much at a time: big enough that zlib and the scanner run in long stretches, small enough to stay in cache.
    static let standardChunk = 256 << 10
    /// A single token (one tag, one CDATA section) may not need more than this; text runs come in pieces and a
    /// cell holds at most `TextLimits.cellBytes`, so 16 MiB is far past anything a worksheet holds, and a part
    /// that inflates to one endless tag stops here instead of taking the window to gigabytes.
    static let maxCapacity = 16 << 20
    private let chunk: Int

    /// `chunk` is only made tiny by tests, so that every token straddles a refill.
    init(reader: any EntryByteStream, chunk: Int = PartWindow.standardChunk) {
        self.reader = reader
        self.chunk = max(chunk, 1)
        capacity = 2 * self.chunk
        base = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
    }

    deinit { base.deallocate() }

    /// Moves bytes from `keep` on to the front and reads more after them.
    /// Returns how far the kept bytes moved, and whether any new bytes arrived.
    func refill(keepingFrom keep: Int) throws -> (shift: Int, more: Bool) {
        if atEnd { return (0, false) }
        let kept = count - keep
        if keep > 0 {
            if kept > 0 { memmove(base, base + keep, kept) }
            offsetOfBase += keep
            count = kept
        }
        if capacity - count < chunk {
            guard capacity < Self.maxCapacity else {
                throw XLSXError.malformedPart(part: reader.entry.name, detail: "a single XML tag or CDATA section is longer than \(Self.maxCapacity >> 20) MiB")
            }
            let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity * 2)
            bigger.update(from: base, count: count)
            base.deallocate()
            base = bigger
            capacity *= 2
        }
        let n: Int
        do {
            n = try reader.read(into: UnsafeMutableRawBufferPointer(start: base + count, count: capacity - count))
        } catch let error as ZipError {
            throw XLSXError.zip(error)
        }
        if n == 0 {
            atEnd = true
            return (keep, false)
        }
        count += n
        return (keep, true)
    }

    /// Reads the rest of the part without looking at it, so that the zip's size and CRC checks run.
    func drain() throws {
        guard !atEnd else { return }
        count = 0
        do {
            while try reader.read(into: UnsafeMutableRawBufferPointer(start: base, count: capacity)) > 0 {}
        } catch let error as ZipError {
            throw XLSXError.zip(error)
        }
        atEnd = true
    }
}

/// Element local names the readers act on; everything else is `.other`.
enum ElementName: UInt8 {
    case other, row, c, v, f, `is`, t, r, rPh, si, sst, sheetData, mergeCell

    @inline(__always) static func classify(_ p: UnsafePointer<UInt8>, _ n: Int) -> ElementName {
        switch n {
        case 1:
            switch p[0] {
            case 0x63: return .c
            case 0x76: return .v
            case 0x66: return .f
            case 0x74: return .t
            case 0x72: return .r
            default: return .other
            }
        case 2:
            if p[0] == 0x69 && p[1] == 0x73 { return .is }
            if p[0] == 0x73 && p[1] == 0x69 { return .si }
            return .other
        case 3:
            if p[0] == 0x72 && p[1] == 0x6F && p[2] == 0x77 { return .row }
            if p[0] == 0x72 && p[1] == 0x50 && p[2] == 0x68 { return .rPh }
            if p[0] == 0x73 && p[1] == 0x73 && p[2] == 0x74 { return .sst }
            return .other
        case 9:
            if memcmp(p, "sheetData", 9) == 0 { return .sheetData }
            if memcmp(p, "mergeCell", 9) == 0 { return .mergeCell }
            return .other
        default:
            return .other
        }
    }
}

enum TokenKind {
    case startTag, emptyTag, endTag, text, cdata, end
}

/// Pull tokenizer over a `PartWindow`. Ranges it reports are valid until the next call to `next()`.
struct ByteScanner {
    let window: PartWindow
    /// Names the part in error messages.
    let part: String
    private(set) var base: UnsafeMutablePointer<UInt8>
    private(set) var pos = 0
    private(set) var end = 0

    /// Local name of the current start/end tag.
    private(set) var name: ElementName = .other
    /// Text or CDATA content of the current token.
    private(set) var textStart = 0
    private(set) var textEnd = 0
    /// Attributes of the current start tag: (local name start, end, value start, end) per attribute.
    private(set) var attributeCount = 0
    private var attributeOwner: RawAllocation
    private(set) var attributes: UnsafeMutablePointer<Int>
    private var attributeCapacity = 16

    init(reader: any EntryByteStream, chunk: Int = PartWindow.standardChunk) {
        window = PartWindow(reader: reader, chunk: chunk)
        part = reader.entry.name
        base = window.base
        attributeOwner = RawAllocation(byteCount: 16 * 4 * MemoryLayout<Int>.stride)
        attributes = attributeOwner.base.assumingMemoryBound(to: Int.self)
    }

    /// Where the scanner is in the part, for error messages.
    var offset: Int { window.offsetOfBase + pos }

    func malformed(_ detail: String) -> XLSXError {
        .malformedPart(part: part, detail: "\(detail) (near byte \(offset))")
    }

    /// Keeps bytes from `keep` on, reads more; `pos` is moved to where `keep` now is.
    private mutating func refill(keep: Int) throws -> Bool {
        let (shift, more) = try window.refill(keepingFrom: keep)
        base = window.base
        end = window.count
        pos = keep - shift
        return more
    }

    @inline(__always) static func isSpace(_ b: UInt8) -> Bool {
        b == 0x20 || b == 0x0A || b == 0x09 || b == 0x0D
    }

    /// The next token; comments, processing instructions and the XML declaration are skipped.
    mutating func next() throws -> TokenKind {
        while true {
            if pos >= end {
                if try refill(keep: pos) { continue }
                return .end
            }
            if base[pos] != 0x3C {
                let lt = index(of: 0x3C, from: pos)
                if lt >= 0 {
                    textStart = pos
                    textEnd = lt
                    pos = lt
                    return .text
                }
                // A long text run is handed out in pieces instead of growing the window until its end: a cell of
                // gigabytes then costs one window of memory until the reader refuses it (`TextLimits`).
                if end - pos >= ByteScanner.textPiece, let cut = textCut() {
                    textStart = pos
                    textEnd = cut
                    pos = cut
                    return .text
                }
                if try refill(keep: pos) { continue }
                textStart = pos
                textEnd = end
                pos = end
                return .text
            }
            if pos + 1 >= end {
                if try refill(keep: pos) { continue }
                throw malformed("the XML ends inside a tag")
            }
            switch base[pos + 1] {
            case 0x2F: // </name>
                let close = index(of: 0x3E, from: pos + 2)
                guard close >= 0 else {
                    if try refill(keep: pos) { continue }
                    throw malformed("the XML ends inside an end tag")
                }
                var p = pos + 2
                var local = p
                while p < close {
                    let b = base[p]
                    if b == 0x3A { local = p + 1 } else if ByteScanner.isSpace(b) { break }
                    p += 1
                }
                name = ElementName.classify(base + local, p - local)
                pos = close + 1
                return .endTag
            case 0x3F: // <?...?>
                guard let close = find(0x3F, 0x3E, from: pos + 2) else {
                    if try refill(keep: pos) { continue }
                    throw malformed("the XML ends inside a processing instruction")
                }
                pos = close + 2
            case 0x21: // <!-- -->, <![CDATA[ ]]>, <!DOCTYPE
                if end - pos < 9 {
                    if try refill(keep: pos) { continue }
                }
                if end - pos >= 4 && base[pos + 2] == 0x2D && base[pos + 3] == 0x2D {
                    guard let close = find(0x2D, 0x2D, 0x3E, from: pos + 4) else {
                        if try refill(keep: pos) { continue }
                        throw malformed("the XML ends inside a comment")
                    }
                    pos = close + 3
                } else if end - pos >= 9 && memcmp(base + pos + 2, "[CDATA[", 7) == 0 {
                    guard let close = find(0x5D, 0x5D, 0x3E, from: pos + 9) else {
                        if try refill(keep: pos) { continue }
                        throw malformed("the XML ends inside a CDATA section")
                    }
                    textStart = pos + 9
                    textEnd = close
                    pos = close + 3
                    return .cdata
                } else {
                    // A DOCTYPE could declare entities this scanner will not expand; real workbooks never have one.
                    throw malformed("DOCTYPE and other declarations are not allowed in this part")
                }
            default:
                if let kind = try startTag() { return kind }
                if try refill(keep: pos) { continue }
                throw malformed("the XML ends inside a start tag")
            }
        }
    }

    /// Text runs longer than this with no markup in the window are returned in pieces.
    static let textPiece = 64 << 10

    /// Where a piece of text at `pos` may end at the window's end without splitting an entity reference or a CRLF.
    private func textCut() -> Int? {
        var cut = end
        var p = end - 1
        while p >= max(pos, end - 12) {
            if base[p] == 0x3B { break }
            if base[p] == 0x26 { cut = p; break }
            p -= 1
        }
        if cut > pos && base[cut - 1] == 0x0D { cut -= 1 }
        return cut > pos ? cut : nil
    }

    /// Parses `<name attr="v" ...>` or `.../>` at `pos`; nil when the tag is not complete in the window.
    private mutating func startTag() throws -> TokenKind? {
        var p = pos + 1
        var local = p
        while p < end {
            let b = base[p]
            if b == 0x3A { local = p + 1 } else if b <= 0x20 || b == 0x2F || b == 0x3E { break }
            p += 1
        }
        guard p < end else { return nil }
        name = ElementName.classify(base + local, p - local)
        attributeCount = 0
        while true {
            while p < end && ByteScanner.isSpace(base[p]) { p += 1 }
            guard p < end else { return nil }
            let b = base[p]
            if b == 0x3E {
                pos = p + 1
                return .startTag
            }
            if b == 0x2F {
                guard p + 1 < end else { return nil }
                guard base[p + 1] == 0x3E else { throw malformed("'/' inside a start tag") }
                pos = p + 2
                return .emptyTag
            }
            var attrLocal = p
            while p < end {
                let c = base[p]
                if c == 0x3D || ByteScanner.isSpace(c) { break }
                if c == 0x3A { attrLocal = p + 1 }
                if c == 0x3E || c == 0x2F || c == 0x3C { throw malformed("an attribute without a value") }
                p += 1
            }
            let attrNameEnd = p
            while p < end && ByteScanner.isSpace(base[p]) { p += 1 }
            guard p < end else { return nil }
            guard base[p] == 0x3D else { throw malformed("an attribute without '='") }
            p += 1
            while p < end && ByteScanner.isSpace(base[p]) { p += 1 }
            guard p < end else { return nil }
            let quote = base[p]
            guard quote == 0x22 || quote == 0x27 else { throw malformed("an unquoted attribute value") }
            let valueEnd = index(of: quote, from: p + 1)
            guard valueEnd >= 0 else { return nil }
            if attributeCount == attributeCapacity { growAttributes() }
            let slot = attributes + attributeCount * 4
            slot[0] = attrLocal
            slot[1] = attrNameEnd
            slot[2] = p + 1
            slot[3] = valueEnd
            attributeCount += 1
            p = valueEnd + 1
        }
    }

    /// Moves to the next start tag with this local name, stepping over everything else without tokenizing it;
    /// returns `.startTag`/`.emptyTag` (attributes read as by `next()`), or `.end`.
    mutating func skip(to target: ElementName) throws -> TokenKind {
        while true {
            let lt = index(of: 0x3C, from: pos)
            if lt < 0 {
                if try refill(keep: end) { continue }
                return .end
            }
            pos = lt
            guard pos + 1 < end else {
                if try refill(keep: pos) { continue }
                throw malformed("the XML ends inside a tag")
            }
            let second = base[pos + 1]
            if second == 0x21 || second == 0x3F || second == 0x2F {
                // Comments, CDATA and processing instructions may hold anything: let next() step over them.
                // It returns the token after a comment or PI, which may be the one we are looking for.
                let kind = try next()
                if kind == .end { return .end }
                if (kind == .startTag || kind == .emptyTag) && name == target { return kind }
                continue
            }
            var p = pos + 1
            var local = p
            while p < end {
                let b = base[p]
                if b == 0x3A { local = p + 1 } else if b <= 0x20 || b == 0x2F || b == 0x3E { break }
                p += 1
            }
            guard p < end else {
                if try refill(keep: pos) { continue }
                throw malformed("the XML ends inside a start tag")
            }
            if ElementName.classify(base + local, p - local) == target {
                return try next()
            }
            while p < end {
                let b = base[p]
                if b == 0x3E { break }
                if b == 0x22 || b == 0x27 {
                    let close = index(of: b, from: p + 1)
                    if close < 0 { p = end; break }
                    p = close
                }
                p += 1
            }
            guard p < end else {
                if try refill(keep: pos) { continue }
                throw malformed("the XML ends inside a start tag")
            }
            pos = p + 1
        }
    }

    /// For the common `<v>123</v>`: when the bytes at `pos` are plain text (no entity, CR or markup)
    /// followed by an end tag, all inside the window, consumes both and returns the text's range,
    /// with `name` set to the end tag's. Otherwise returns nil and consumes nothing.
    @inline(__always) mutating func plainTextThenEndTag() -> (start: Int, end: Int)? {
        var p = pos
        let limit = min(end, pos + 64)
        while p < limit {
            let b = base[p]
            if b == 0x3C { break }
            if b == 0x26 || b == 0x0D { return nil }
            p += 1
        }
        guard p + 1 < limit, base[p + 1] == 0x2F else { return nil }
        let textEnd = p
        var q = p + 2
        var local = q
        while q < limit {
            let b = base[q]
            if b == 0x3E { break }
            if b == 0x3A { local = q + 1 } else if ByteScanner.isSpace(b) { return nil }
            q += 1
        }
        guard q < limit else { return nil }
        name = ElementName.classify(base + local, q - local)
        let start = pos
        pos = q + 1
        return (start, textEnd)
    }

    /// Index of the first `byte` at or after `from` in the window, -1 if none. Runs in sheets are short
    /// (a cell value, an attribute), where a plain loop beats a call to memchr; long runs go to memchr.
    @inline(__always) private func index(of byte: UInt8, from: Int) -> Int {
        var p = from
        let shortEnd = min(end, from + 24)
        while p < shortEnd {
            if base[p] == byte { return p }
            p += 1
        }
        guard p < end, let hit = memchr(base + p, Int32(byte), end - p) else { return -1 }
        return hit.assumingMemoryBound(to: UInt8.self) - base
    }

    private mutating func growAttributes() {
        let newOwner = RawAllocation(byteCount: attributeCapacity * 2 * 4 * MemoryLayout<Int>.stride)
        let newBase = newOwner.base.assumingMemoryBound(to: Int.self)
        newBase.update(from: attributes, count: attributeCapacity * 4)
        attributeOwner = newOwner
        attributes = newBase
        attributeCapacity *= 2
    }

    /// Index of the first `a b` pair at or after `from`, nil if not in the window.
    private func find(_ a: UInt8, _ b: UInt8, from: Int) -> Int? {
        var p = from
        while p + 1 < end {
            guard let hit = memchr(base + p, Int32(b), end - p) else { return nil }
            let i = hit.assumingMemoryBound(to: UInt8.self) - base
            if i > from && base[i - 1] == a { return i - 1 }
            p = i + 1
        }
        return nil
    }

    /// Index of the first `a b c` triple at or after `from`, nil if not in the window.
    private func find(_ a: UInt8, _ b: UInt8, _ c: UInt8, from: Int) -> Int? {
        var p = from
        while p < end {
            guard let hit = memchr(base + p, Int32(c), end - p) else { return nil }
            let i = hit.assumingMemoryBound(to: UInt8.self) - base
            if i >= from + 2 && base[i - 1] == b && base[i - 2] == a { return i - 2 }
            p = i + 1
        }
        return nil
    }

    // MARK: - Reading what a token holds

    /// The one-letter local name of attribute `i`, or 0 when its name is longer.
    @inline(__always) func attributeLetter(_ i: Int) -> UInt8 {
        let slot = attributes + i * 4
        return slot[1] - slot[0] == 1 ? base[slot[0]] : 0
    }

    /// The local name of attribute `i` (slow; for rarely read attributes).
    func attributeName(_ i: Int) -> String {
        let slot = attributes + i * 4
        return String(decoding: UnsafeBufferPointer(start: base + slot[0], count: slot[1] - slot[0]), as: UTF8.self)
    }

    @inline(__always) func attributeValue(_ i: Int) -> (start: Int, end: Int) {
        let slot = attributes + i * 4
        return (slot[2], slot[3])
    }

    /// Appends text (entity references decoded, line ends normalized to LF) to `out`.
    func appendText(_ start: Int, _ stop: Int, to out: inout ScratchBytes) throws {
        var p = start
        var run = start
        while p < stop {
            let b = base[p]
            if b == 0x26 {
                out.append(base + run, p - run)
                p = try appendEntity(at: p, stop, to: &out)
                run = p
            } else if b == 0x0D {
                out.append(base + run, p - run)
                out.append(0x0A)
                p += 1
                if p < stop && base[p] == 0x0A { p += 1 }
                run = p
            } else {
                p += 1
            }
        }
        out.append(base + run, stop - run)
    }

    /// Appends CDATA content (no entities; line ends normalized) to `out`.
    func appendCDATA(_ start: Int, _ stop: Int, to out: inout ScratchBytes) {
        var p = start
        var run = start
        while let hit = memchr(base + p, 0x0D, stop - p) {
            let i = hit.assumingMemoryBound(to: UInt8.self) - base
            out.append(base + run, i - run)
            out.append(0x0A)
            p = i + 1
            if p < stop && base[p] == 0x0A { p += 1 }
            run = p
        }
        out.append(base + run, stop - run)
    }

    /// Decodes the entity reference at `p` (which holds `&`); returns the index after its `;`.
    private func appendEntity(at p: Int, _ stop: Int, to out: inout ScratchBytes) throws -> Int {
        var q = p + 1
        while q < stop && base[q] != 0x3B && q - p < 12 { q += 1 }
        guard q < stop, base[q] == 0x3B else { throw malformed("an '&' that does not start an entity reference") }
        let nameStart = p + 1
        let length = q - nameStart
        if length >= 2 && base[nameStart] == 0x23 {
            var value: UInt32 = 0
            var i = nameStart + 1
            let hex = base[i] == 0x78
            if hex { i += 1 }
            guard i < q else { throw malformed("an empty character reference") }
            while i < q {
                let c = base[i]
                let digit: UInt32
                switch c {
                case 0x30...0x39: digit = UInt32(c - 0x30)
                case 0x61...0x66 where hex: digit = UInt32(c - 0x61 + 10)
                case 0x41...0x46 where hex: digit = UInt32(c - 0x41 + 10)
                default: throw malformed("a malformed character reference")
                }
                value = value * (hex ? 16 : 10) + digit
                i += 1
            }
            guard value != 0, let scalar = Unicode.Scalar(value), let units = UTF8.encode(scalar) else {
                throw malformed("a character reference to an invalid code point")
            }
            for unit in units { out.append(unit) }
            return q + 1
        }
        let byte: UInt8
        switch length {
        case 2 where base[nameStart] == 0x6C && base[nameStart + 1] == 0x74: byte = 0x3C // lt
        case 2 where base[nameStart] == 0x67 && base[nameStart + 1] == 0x74: byte = 0x3E // gt
        case 3 where memcmp(base + nameStart, "amp", 3) == 0: byte = 0x26
        case 4 where memcmp(base + nameStart, "quot", 4) == 0: byte = 0x22
        case 4 where memcmp(base + nameStart, "apos", 4) == 0: byte = 0x27
        default:
            let entity = String(decoding: UnsafeBufferPointer(start: base + nameStart, count: length), as: UTF8.self)
            throw malformed("undefined entity &\(entity);")
        }
        out.append(byte)
        return q + 1
    }

    /// Skips the element whose start tag was just read, including everything inside it.
    mutating func skipElement() throws {
        var depth = 1
        while depth > 0 {
            switch try next() {
            case .startTag: depth += 1
            case .endTag: depth -= 1
            case .end: throw malformed("the XML ends inside an element")
            default: break
            }
        }
    }

    /// Collects the text content of the element whose start tag was just read, skipping child elements' markup.
    /// Throws `TextLimitExceeded` as soon as `out` holds more than `limit` bytes, so a cell inflating to gigabytes
    /// is never held.
    mutating func collectText(into out: inout ScratchBytes, limit: Int = TextLimits.cellBytes) throws {
        var depth = 1
        while true {
            switch try next() {
            case .text:
                try appendText(textStart, textEnd, to: &out)
                if out.count > limit { throw TextLimitExceeded() }
            case .cdata:
                appendCDATA(textStart, textEnd, to: &out)
                if out.count > limit { throw TextLimitExceeded() }
            case .startTag: depth += 1
            case .endTag:
                depth -= 1
                if depth == 0 { return }
            case .end: throw malformed("the XML ends inside an element")
            case .emptyTag: break
            }
        }
    }

    /// Collects the text of `<t>` elements up to the end of the current element, leaving out phonetic runs (`<rPh>`).
    mutating func collectRichText(into out: inout ScratchBytes, limit: Int = TextLimits.cellBytes) throws {
        var depth = 1
        while true {
            switch try next() {
            case .startTag:
                if name == .t {
                    try collectText(into: &out, limit: limit)
                } else if name == .rPh {
                    try skipElement()
                } else {
                    depth += 1
                }
            case .endTag:
                depth -= 1
                if depth == 0 { return }
            case .end: throw malformed("the XML ends inside an element")
            default: break
            }
        }
    }
}
