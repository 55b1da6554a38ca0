/// Eight bytes at a time: the word tests the common walk uses to check a run of field bytes
/// with a few integer operations instead of one comparison per byte.
extension HTTP1RequestHead {
    /// The 8 bytes at `pointer` as one word, the first in the low byte.
    @inline(__always)
    static func loadWord(_ pointer: UnsafePointer<UInt8>) -> UInt64 {
        UInt64(littleEndian: UnsafeRawPointer(pointer).loadUnaligned(as: UInt64.self))
    }

    /// Whether a byte of `word` is below `limit` (at most 128): subtracting `limit` from each
    /// byte borrows into its top bit only if it is smaller (a byte with its top bit already
    /// set is not below). A borrow can mark a byte above a smaller one too, never a word
    /// without one, so the answer is exact.
    @inline(__always)
    static func hasByte(in word: UInt64, below limit: UInt8) -> Bool {
        bytesBelow(limit, in: word) != 0
    }

    /// The top bits of ``hasByte(in:below:)``: the lowest one set marks the first byte of
    /// `word` below `limit` (a later one may be marked by a borrow).
    @inline(__always)
    static func bytesBelow(_ limit: UInt8, in word: UInt64) -> UInt64 {
        (word &- 0x0101_0101_0101_0101 &* UInt64(limit)) & ~word & 0x8080_8080_8080_8080
    }

    /// Whether a byte of `word` is above `limit` (at most 127): adding 127 − `limit` carries
    /// into a byte's top bit only if it is larger; a byte of 128 or more has that bit set.
    @inline(__always)
    static func hasByte(in word: UInt64, above limit: UInt8) -> Bool {
        ((word &+ 0x0101_0101_0101_0101 &* UInt64(127 - limit)) | word) & 0x8080_8080_8080_8080 != 0
    }

    /// Marks (top bit) exactly the bytes of `word` that are ASCII letters, digits or `-`.
    /// Every byte is handled in 7 bits below 0x80, so no sum carries into its neighbour: a
    /// byte of 0x20–0x7F with 0x20 set is a lowercase letter only if it was a letter, a
    /// digit only if it was one, `-` only if it was one.
    @inline(__always)
    static func nameBytes(in word: UInt64) -> UInt64 {
        let high: UInt64 = 0x8080_8080_8080_8080, ones: UInt64 = 0x0101_0101_0101_0101
        let low7 = word & 0x7F7F_7F7F_7F7F_7F7F
        let plain = ~word & (low7 &+ ones &* 0x60) & high  // below 0x80 and at least 0x20
        let folded = low7 | 0x2020_2020_2020_2020
        @inline(__always)
        func within(_ low: UInt64, _ highest: UInt64) -> UInt64 {
            (folded &+ ones &* (0x80 - low)) & ~(folded &+ ones &* (0x7F - highest))
        }
        return plain & (within(0x61, 0x7A) | within(0x30, 0x39) | within(0x2D, 0x2D))
    }
}
