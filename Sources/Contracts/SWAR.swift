/// Byte classes tested eight bytes at a time in a 64-bit word (SIMD within a register): a
/// device token, a public key and a body's strings are checked on every request.
package enum SWAR {
    static let ones: UInt64 = 0x0101_0101_0101_0101
    static let highBits: UInt64 = 0x8080_8080_8080_8080

    @inline(__always)
    static func load(_ base: UnsafePointer<UInt8>, _ offset: Int) -> UInt64 {
        UInt64(littleEndian: UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self))
    }

    /// 0x80 in each byte of `word` within `low...high`; every byte of `word` must be below
    /// 0x80 (then no sum carries into the next byte).
    @inline(__always)
    static func inRange(_ word: UInt64, _ low: UInt8, _ high: UInt8) -> UInt64 {
        let atLeastLow = word &+ ones &* UInt64(0x80 &- low)
        let aboveHigh = word &+ ones &* UInt64(0x7F &- high)
        return atLeastLow & ~aboveHigh & highBits
    }

    /// True when `a` and `b` hold the same bytes: whole words, the last one overlapping the
    /// one before when the count is not a multiple of 8.
    static func equal(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        let count = a.count
        guard count == b.count else { return false }
        guard let left = a.baseAddress, let right = b.baseAddress else { return true }
        if count >= 8 {
            var index = 0
            while count &- index > 8 {
                guard load(left, index) == load(right, index) else { return false }
                index &+= 8
            }
            return load(left, count &- 8) == load(right, count &- 8)
        }
        if count >= 4 {
            return load32(left, 0) == load32(right, 0) && load32(left, count &- 4) == load32(right, count &- 4)
        }
        for index in 0..<count where left[index] != right[index] { return false }
        return true
    }

    @inline(__always)
    static func load32(_ base: UnsafePointer<UInt8>, _ offset: Int) -> UInt32 {
        UnsafeRawPointer(base + offset).loadUnaligned(as: UInt32.self)
    }

    /// True when every byte is ASCII and none is `A`-`Z`: `ASCII.lowercased` would keep it.
    package static func isLowercaseASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        var found: UInt64 = 0
        var index = 0
        while bytes.count &- index >= 8 {
            let word = load(base, index)
            found |= word | inRange(word & ~highBits, 0x41, 0x5A)
            index &+= 8
        }
        while index < bytes.count {
            let byte = base[index]
            found |= UInt64(byte | (byte &- 0x41 < 26 ? 0x80 : 0))
            index &+= 1
        }
        return found & highBits == 0
    }

    /// True when every byte is below 0x80.
    static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        var any: UInt64 = 0
        var index = 0
        while bytes.count &- index >= 8 {
            any |= load(base, index)
            index &+= 8
        }
        while index < bytes.count {
            any |= UInt64(base[index])
            index &+= 1
        }
        return any & highBits == 0
    }

    /// Every byte is `0-9`, `A-F` or `a-f` (the `hex` format; a device token on every request).
    package static func allHexDigits(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        var index = 0
        while bytes.count &- index >= 8 {
            let word = load(base, index)
            guard word & highBits == 0,
                  inRange(word, 0x30, 0x39) | inRange(word | ones &* 0x20, 0x61, 0x66) == highBits else { return false }
            index &+= 8
        }
        while index < bytes.count {
            guard FormatMatchers.hexBit(base[index]) == 1 else { return false }
            index &+= 1
        }
        return true
    }

    /// 0x80 in each byte of an ASCII `word` in the base64 alphabet (`A-Z a-z 0-9 + /`).
    @inline(__always)
    static func base64Bytes(_ word: UInt64) -> UInt64 {
        inRange(word | ones &* 0x20, 0x61, 0x7A) | inRange(word, 0x30, 0x39) | equalBytes(word & (ones &* 0xFB), 0x2B)
    }

    /// 0x80 in each byte of `word` equal to `byte`, exactly (no false positives).
    @inline(__always)
    static func equalBytes(_ word: UInt64, _ byte: UInt8) -> UInt64 {
        let difference = word ^ (ones &* UInt64(byte))
        return ~(((difference & ~highBits) &+ ~highBits) | difference | ~highBits)
    }

    /// Well-formed padded base64, the common case (the `base64` and P-256 key formats).
    /// `checked` leading bytes are known to be in the alphabet already (``FlatJSON`` scans
    /// them with the string: ``outsideBase64(_:)``).
    static func isPlainBase64(_ bytes: UnsafeBufferPointer<UInt8>, checked: Int = 0) -> Bool {
        let count = bytes.count
        guard count % 4 == 0 else { return false }
        guard count > 0, let base = bytes.baseAddress else { return true }
        let body = count - 2
        // A block with a byte outside the alphabet stops the blocks; the words below find it.
        var index = endOfBase64Blocks(base, from: min(max(checked, 0), body), before: body)
        while body &- index >= 8 {
            let word = load(base, index)
            guard word & highBits == 0, base64Bytes(word) == highBits else { return false }
            index &+= 8
        }
        while index < body {
            guard FormatMatchers.base64Bit(base[index]) == 1 else { return false }
            index &+= 1
        }
        let last = bytes[count - 1]
        let secondLast = bytes[count - 2]
        if last == 0x3D {
            return secondLast == 0x3D || FormatMatchers.base64Bit(secondLast) == 1
        }
        return FormatMatchers.base64Bit(secondLast) == 1 && FormatMatchers.base64Bit(last) == 1
    }

    /// Sixteen bytes from `base + offset`, one per lane: SSE2 or NEON registers, where
    /// byte-wise sums never carry into the next lane (twice the bytes of a word per step).
    @inline(__always)
    static func load16(_ base: UnsafePointer<UInt8>, _ offset: Int) -> SIMD16<UInt8> {
        UnsafeRawPointer(base + offset).loadUnaligned(as: SIMD16<UInt8>.self)
    }

    /// 0x80 in each lane of `lanes` within `low...high` (other bits are noise); every lane
    /// must be below 0x80. Wrapping sums and masks only: these compile to vector
    /// instructions, where lane comparisons would not.
    @inline(__always)
    static func inRange16(_ lanes: SIMD16<UInt8>, _ low: UInt8, _ high: UInt8) -> SIMD16<UInt8> {
        (lanes &+ SIMD16(repeating: 0x80 &- low)) & ~(lanes &+ SIMD16(repeating: 0x7F &- high))
    }

    /// The lanes' high bits as two words, the first 8 lanes in the first (byte 0 lowest).
    @inline(__always)
    static func highBitWords(_ lanes: SIMD16<UInt8>) -> SIMD2<UInt64> {
        let words = unsafeBitCast(lanes & SIMD16(repeating: 0x80), to: SIMD2<UInt64>.self)
        return SIMD2(UInt64(littleEndian: words[0]), UInt64(littleEndian: words[1]))
    }

    /// 0x80 in each of 16 lanes outside the base64 alphabet `A-Z a-z 0-9 + /`, else 0. A
    /// lane in the alphabet cannot end a plain JSON string run (``firstSpecial16(_:)``): 16
    /// bytes of base64 are inside a string.
    @inline(__always)
    static func outsideBase64(_ lanes: SIMD16<UInt8>) -> SIMD16<UInt8> {
        // Letters (either case), '/' with the digits (0x2F-0x39), and '+': exact for lanes
        // below 0x80; a lane at or above 0x80 is outside whatever the sums say.
        let inAlphabet = inRange16(lanes | SIMD16(repeating: 0x20), 0x61, 0x7A) | inRange16(lanes, 0x2F, 0x39)
            | ~((lanes ^ SIMD16(repeating: 0x2B)) &+ SIMD16(repeating: 0x7F))
        return (lanes | ~inAlphabet) & SIMD16(repeating: 0x80)
    }

    /// The offset of the first 16-byte block from `start` (before `limit`) with a byte outside
    /// the base64 alphabet, or of the last whole block's end: after the first block (most
    /// strings are short, and stop there), 32 bytes a step while both halves are base64.
    @inline(__always)
    static func endOfBase64Blocks(_ base: UnsafePointer<UInt8>, from start: Int, before limit: Int) -> Int {
        guard limit &- start >= 16, !any(outsideBase64(load16(base, start))) else { return start }
        var index = start &+ 16
        while limit &- index >= 32, !any(outsideBase64(load16(base, index)) | outsideBase64(load16(base, index &+ 16))) {
            index &+= 32
        }
        if limit &- index >= 16, !any(outsideBase64(load16(base, index))) { index &+= 16 }
        return index
    }

    /// True when any lane of `lanes` is nonzero.
    @inline(__always)
    static func any(_ lanes: SIMD16<UInt8>) -> Bool {
        let words = unsafeBitCast(lanes, to: SIMD2<UInt64>.self)
        return words[0] | words[1] != 0
    }

    /// The offset (0-15) of the first of 16 bytes that ends a plain JSON string run (as
    /// ``firstSpecial(_:)``), or 16 when none does.
    @inline(__always)
    static func firstSpecial16(_ lanes: SIMD16<UInt8>) -> Int {
        // Each sum has its high bit set when the lane is at least 0x20, is not a quote, is not
        // a backslash: exact below 0x80, and a lane at or above 0x80 is special whatever they say.
        let printable: SIMD16<UInt8> = lanes &+ SIMD16(repeating: 0x60)
        let notQuote: SIMD16<UInt8> = (lanes ^ SIMD16(repeating: 0x22)) &+ SIMD16(repeating: 0x7F)
        let notBackslash: SIMD16<UInt8> = (lanes ^ SIMD16(repeating: 0x5C)) &+ SIMD16(repeating: 0x7F)
        let special = highBitWords(lanes | ~(printable & notQuote & notBackslash))
        if special[0] != 0 { return special[0].trailingZeroBitCount >> 3 }
        return 8 &+ (special[1].trailingZeroBitCount >> 3)
    }

    /// The offset in `word` (0-7) of its first byte that ends a plain JSON string run: a
    /// quote, a backslash, a control character or non-ASCII; 8 when there is none. Exact:
    /// the borrow tests flag false positives only after a true one.
    @inline(__always)
    static func firstSpecial(_ word: UInt64) -> Int {
        let control = (word &- ones &* 0x20) & ~word
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5C)
        let special = (control | ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash) | word) & highBits
        return special.trailingZeroBitCount >> 3
    }
}
