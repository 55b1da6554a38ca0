/// The bytes of a plain JSON object, read with no escapes and no non-ASCII. A cursor between
/// two pointers: every body an app sends is read here.
struct PlainJSONScanner {
    let start: UnsafePointer<UInt8>
    let end: UnsafePointer<UInt8>
    var cursor: UnsafePointer<UInt8>

    /// Nil for an empty body (which is not an object).
    init?(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return nil }
        start = base
        end = base + bytes.count
        cursor = base
    }

    /// Where the cursor is, as an index into the bytes.
    var index: Int { cursor - start }

    var isAtEnd: Bool { cursor == end }

    @inline(__always)
    mutating func skipWhitespace() {
        // Runs of spaces (a body padded or indented) eight at a time.
        while end - cursor >= 8, SWAR.load(cursor, 0) == 0x2020_2020_2020_2020 {
            cursor += 8
        }
        while cursor < end {
            switch cursor.pointee {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"): cursor += 1
            default: return
            }
        }
    }

    /// Moves past `literal` when the bytes at the cursor are it.
    @inline(__always)
    mutating func take(_ literal: [UInt8]) -> Bool {
        guard end - cursor >= literal.count else { return false }
        let equal = literal.withUnsafeBufferPointer { SWAR.equal($0, UnsafeBufferPointer(start: cursor, count: $0.count)) }
        if equal { cursor += literal.count }
        return equal
    }

    @inline(__always)
    mutating func take(_ byte: UInt8) -> Bool {
        guard cursor < end, cursor.pointee == byte else { return false }
        cursor += 1
        return true
    }

    /// The bytes of the string at the cursor up to its first quote, moving past that quote;
    /// nil when there is no string or no closing quote. They are not checked: a caller takes
    /// them only when they are plain (``isPlain(_:)``, or a check that admits nothing else),
    /// and then the first quote is the closing one (a plain string has no escape).
    @inline(__always)
    mutating func stringContent() -> UnsafeBufferPointer<UInt8>? {
        guard take(UInt8(ascii: "\"")) else { return nil }
        let first = cursor
        // Sixteen bytes a step to the word holding a quote: ~5 instructions per 8 bytes.
        let quotes = SWAR.ones &* 0x22
        while end - cursor >= 16 {
            let low = SWAR.load(cursor, 0) ^ quotes
            let high = SWAR.load(cursor, 8) ^ quotes
            if (low &- SWAR.ones) & ~low & SWAR.highBits | (high &- SWAR.ones) & ~high & SWAR.highBits != 0 { break }
            cursor += 16
        }
        while end - cursor >= 8 {
            let word = SWAR.load(cursor, 0) ^ quotes
            // The lowest byte found is exact (a borrow only sets bytes above a zero byte).
            let found = (word &- SWAR.ones) & ~word & SWAR.highBits
            if found != 0 {
                cursor += found.trailingZeroBitCount >> 3
                return closeString(from: first)
            }
            cursor += 8
        }
        while cursor < end {
            if cursor.pointee == UInt8(ascii: "\"") { return closeString(from: first) }
            cursor += 1
        }
        return nil
    }

    /// The bytes from `first` to the cursor, which is on the closing quote; moves past it.
    @inline(__always)
    private mutating func closeString(from first: UnsafePointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        defer { cursor += 1 }
        return UnsafeBufferPointer(start: first, count: cursor - first)
    }

    /// True when every byte of `text` is plain string text: 0x20–0x7F, neither a quote nor a
    /// backslash (eight bytes at a time).
    static func isPlain(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = text.baseAddress else { return true }
        var index = 0
        while text.count &- index >= 8 {
            guard SWAR.firstSpecial(SWAR.load(base, index)) == 8 else { return false }
            index &+= 8
        }
        while index < text.count {
            let byte = base[index]
            guard byte >= 0x20, byte < 0x80, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") else { return false }
            index &+= 1
        }
        return true
    }
}
