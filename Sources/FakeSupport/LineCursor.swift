import Contracts
import Foundation  // memchr (the C library, on either platform)
import LoopbackHTTP

/// Writes a log line's bytes through a pointer into scratch memory measured for it, so a
/// line of many parts reaches the buffer being written with one copy. (Each
/// `Array.append(contentsOf:)` of a part costs ~90 instructions beside its bytes, and a
/// request line has a dozen parts: `serve` writes one per request.)
///
/// A write past the room measured is not made but counted: ``append(to:capacity:_:)`` then
/// writes the line again in room for all of it, so a short measure costs time, never bytes.
///
/// The type is `public` (its API is `package`) only so that its small writes are inlined
/// where a line is built (serve's log in ContractCheckCLI, the fakes' journal lines): the
/// compiler does not serialise an `@inlinable` body for a `package` type, and a call for each
/// byte, literal and value of a line cost ~10-40 instructions beside the bytes.
public struct LineCursor {
    @usableFromInline let base: UnsafeMutablePointer<UInt8>
    @usableFromInline let capacity: Int
    /// Bytes written so far, counting those that did not fit.
    @usableFromInline package internal(set) var count = 0

    private init(base: UnsafeMutablePointer<UInt8>, capacity: Int) {
        self.base = base
        self.capacity = capacity
    }

    /// Whether every byte written so far fitted.
    @usableFromInline var fits: Bool { count <= capacity }

    /// Appends to `line` what `write` writes, with one copy, through scratch memory of
    /// `capacity` bytes (more when the line needs more: then `write` runs again).
    package static func append(to line: inout [UInt8], capacity: Int, _ write: (inout LineCursor) -> Void) {
        var room = max(capacity, 16)
        while true {
            let written = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: room) { memory -> Int? in
                guard let base = memory.baseAddress else { return nil }
                var cursor = LineCursor(base: base, capacity: memory.count)
                write(&cursor)
                guard cursor.fits else {
                    room = cursor.count + 16
                    return nil
                }
                line.append(contentsOf: UnsafeBufferPointer(start: base, count: cursor.count))
                return cursor.count
            }
            if written != nil { return }
        }
    }

    /// Writes one byte.
    @inlinable @inline(__always)
    package mutating func write(_ byte: UInt8) {
        if count < capacity { base[count] = byte }
        count += 1
    }

    /// Writes `bytes`.
    @inlinable @inline(__always)
    package mutating func write(_ bytes: UnsafeBufferPointer<UInt8>) {
        if let source = bytes.baseAddress, capacity - count >= bytes.count {
            (base + count).update(from: source, count: bytes.count)
        }
        count += bytes.count
    }

    /// Writes a literal's UTF-8.
    @inlinable @inline(__always)
    package mutating func write(literal: StaticString) {
        write(UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    /// Writes `text`'s UTF-8: read where it is (a native or small String's bytes are
    /// contiguous), without the copy `withUTF8` makes of its argument.
    @inlinable @inline(__always)
    package mutating func write(utf8 text: String) {
        let written: Void? = text.utf8.withContiguousStorageIfAvailable { write($0) }
        guard written == nil else { return }
        var text = text
        text.withUTF8 { write($0) }
    }

    /// Writes `value` in decimal.
    @inlinable
    package mutating func write(decimal value: Int) {
        // A status, a count: one to three digits, written without the general loops.
        if value >= 0 && value < 1000 {
            if value >= 100 { write(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value / 100)) }
            if value >= 10 { write(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value / 10 % 10)) }
            return write(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value % 10))
        }
        if value < 0 { write(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var digits = 1
        var power: UInt = 10
        while digits < 20 && magnitude >= power {
            digits += 1
            power = power &* 10
        }
        let end = count + digits
        count = end
        guard fits else { return }
        var index = end
        repeat {
            index -= 1
            base[index] = UInt8(ascii: "0") + UInt8(magnitude % 10)
            magnitude /= 10
        } while magnitude > 0
    }

    /// Writes ASCII `token` lowercased, and past 20 bytes its first 8, `…` and its last 4
    /// (``LogText/token(_:)``).
    package mutating func write(token: UnsafeBufferPointer<UInt8>) {
        guard token.count > 20 else {
            for byte in token { write(ASCII.lowercase(byte)) }
            return
        }
        defer { count += 15 }
        guard capacity - count >= 15 else { return }
        let shown = base + count
        for index in 0..<8 { shown[index] = ASCII.lowercase(token[index]) }
        shown[8] = 0xE2
        shown[9] = 0x80
        shown[10] = 0xA6
        for index in 0..<4 { shown[11 + index] = ASCII.lowercase(token[token.count - 4 + index]) }
    }

    /// ``write(token:)`` of more than 20 hex digits: `| 0x20` lowercases each (a digit has
    /// that bit already), eight and four at a time.
    private mutating func write(hexToken token: UnsafeBufferPointer<UInt8>) {
        guard token.count > 20, let source = token.baseAddress else { return write(token: token) }
        defer { count += 15 }
        guard capacity - count >= 15 else { return }
        let shown = UnsafeMutableRawPointer(base + count)
        let first = UnsafeRawPointer(source).loadUnaligned(as: UInt64.self) | 0x2020_2020_2020_2020
        let last = UnsafeRawPointer(source + token.count - 4).loadUnaligned(as: UInt32.self) | 0x2020_2020
        shown.storeBytes(of: first, toByteOffset: 0, as: UInt64.self)
        shown.storeBytes(of: 0xE2, toByteOffset: 8, as: UInt8.self)
        shown.storeBytes(of: 0x80, toByteOffset: 9, as: UInt8.self)
        shown.storeBytes(of: 0xA6, toByteOffset: 10, as: UInt8.self)
        shown.storeBytes(of: last, toByteOffset: 11, as: UInt32.self)
    }

    /// Writes the request target `bytes` as ``LogText/path(_:)`` shows it: each hex segment
    /// of 20 or more digits shortened as ``write(token:)`` does, and cut at
    /// ``LogText/maxPathCharacters`` characters.
    package mutating func write(path bytes: UnsafeBufferPointer<UInt8>) {
        let pathStart = count
        guard let source = bytes.baseAddress else { return }
        // Where `byte` is first in `bytes[from..<to]`, or `to`: memchr, as the segments of
        // a target are found once per request.
        func find(_ byte: UInt8, from: Int, to: Int) -> Int {
            guard from < to, let found = memchr(source + from, Int32(byte), to - from) else { return to }
            return source.distance(to: found.assumingMemoryBound(to: UInt8.self))
        }
        // Segments up to the query, each shortened when it is a long hex run; everything
        // else (slashes, short segments, the query) copied as it is, in runs between the
        // shortened ones. Only a long segment is checked for hex (a short one never is).
        let pathEnd = find(UInt8(ascii: "?"), from: 0, to: bytes.count)
        var start = 0
        var copied = 0
        while true {
            let end = find(UInt8(ascii: "/"), from: start, to: pathEnd)
            let segment = UnsafeBufferPointer(rebasing: bytes[start..<end])
            if segment.count >= 20 && SWAR.allHexDigits(segment) {
                if copied < start { write(UnsafeBufferPointer(rebasing: bytes[copied..<start])) }
                write(hexToken: segment)
                copied = end
            }
            guard end < pathEnd else { break }
            start = end + 1
        }
        if copied < bytes.count { write(UnsafeBufferPointer(rebasing: bytes[copied...])) }
        // Bytes bound characters: only a long target needs counting (once it all fitted).
        guard count - pathStart > LogText.maxPathCharacters, fits else { return }
        let text = String(decoding: UnsafeBufferPointer(start: base + pathStart, count: count - pathStart), as: UTF8.self)
        guard text.count > LogText.maxPathCharacters else { return }
        count = pathStart
        var shown = String(text.prefix(LogText.maxPathCharacters))
        shown.withUTF8 { write($0) }
        write(literal: "…")
    }

    /// ``write(path:)`` of `target`'s UTF-8 (read where it is, as ``write(utf8:)`` reads).
    package mutating func write(path target: String) {
        let written: Void? = target.utf8.withContiguousStorageIfAvailable { write(path: $0) }
        guard written == nil else { return }
        var target = target
        target.withUTF8 { write(path: $0) }
    }

    /// ``write(path:)`` of a target whose bytes from `start` on are all hex digits (the caller
    /// checked them) and whose bytes before are never shortened (no hex segment of 20 or more
    /// digits, no `?`): the same bytes, with no segment looked for and no digit checked again
    /// (`serve` logs a device PUT so, its token checked by the handler).
    package mutating func write(path target: String, hexFrom start: Int) {
        let written: Void? = target.utf8.withContiguousStorageIfAvailable { bytes in
            guard start <= bytes.count, bytes.count <= LogText.maxPathCharacters else { return write(path: bytes) }
            write(UnsafeBufferPointer(rebasing: bytes[..<start]))
            let segment = UnsafeBufferPointer(rebasing: bytes[start...])
            if segment.count >= 20 { write(hexToken: segment) } else { write(segment) }
        }
        if written == nil { write(path: target) }
    }

    /// `PUT /v1/devices/0a1b2c3d…e8f9 204`: how every log line starts (`---` when no status
    /// was sent). `hexFrom`: where the target's hex digits start, when the caller knows
    /// (``write(path:hexFrom:)``).
    package mutating func write(method: String, path: String, hexFrom: Int? = nil, status: Int?) {
        write(utf8: method)
        write(UInt8(ascii: " "))
        if let hexFrom { write(path: path, hexFrom: hexFrom) } else { write(path: path) }
        write(UInt8(ascii: " "))
        if let status { write(decimal: status) } else { write(literal: "---") }
    }

    /// ` (why)`: a journal's detail, when there is one.
    package mutating func write(detail: String?) {
        guard let detail, !detail.isEmpty else { return }
        write(literal: " (")
        write(utf8: detail)
        write(UInt8(ascii: ")"))
    }

    /// Room for ``write(method:path:status:)``: the longest it writes.
    package static func capacity(method: String, path: String) -> Int {
        method.utf8.count + path.utf8.count + 3 + 22
    }
}
