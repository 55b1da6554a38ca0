// The AES block cipher (FIPS 197) with 128- and 256-bit keys. Encryption is the fast path
// (GCM runs it in counter mode for every TLS record): rounds use "T-tables", so SubBytes,
// ShiftRows and MixColumns of one round become four table lookups and XORs per output word.
// The inverse cipher (AES+Decryption.swift) is only for CBC in PKCS#12 files.
//
// Not constant-time: table lookups are indexed by secret state, which leaks through the
// cache. Acceptable for a TLS server that exists for tests on loopback; never for real secrets.

/// AES encryption (and, in AES+Decryption.swift, decryption) with an expanded key.
struct AES: Sendable {
    /// The 4 × (rounds + 1) round-key words, big-endian (w[0] is the first four key bytes):
    /// 44 for AES-128, 60 for AES-256.
    let roundKeys: [UInt32]
    /// Nr: 10 for a 16-byte key, 14 for a 32-byte key.
    let rounds: Int

    /// Expands a 16-byte (AES-128) or 32-byte (AES-256) key (FIPS 197 §5.2); `nil` for any
    /// other length (AES-192 is not needed here).
    init?(key: [UInt8]) {
        guard key.count == 16 || key.count == 32 else { return nil }
        let keyWords = key.count / 4  // Nk
        rounds = keyWords + 6
        let wordCount = 4 * (rounds + 1)
        var words = [UInt32](repeating: 0, count: wordCount)
        for index in 0..<keyWords {
            words[index] = UInt32(key[4 * index]) << 24 | UInt32(key[4 * index + 1]) << 16
                | UInt32(key[4 * index + 2]) << 8 | UInt32(key[4 * index + 3])
        }
        var roundConstant: UInt32 = 0x01
        AES.tables.withUnsafeBufferPointer { tables in
            guard let sbox = tables.baseAddress.map({ $0 + AES.sboxOffset }) else { return }
            for index in keyWords..<wordCount {
                var word = words[index - 1]
                if index % keyWords == 0 {
                    let rotated = (word << 8) | (word >> 24)
                    word = AES.lastRoundWord(rotated, rotated, rotated, rotated, sbox) ^ (roundConstant << 24)
                    roundConstant = AES.xtime(roundConstant)
                } else if keyWords > 6, index % keyWords == 4 {
                    word = AES.lastRoundWord(word, word, word, word, sbox)  // SubWord only (AES-256)
                }
                words[index] = words[index - keyWords] ^ word
            }
        }
        roundKeys = words
    }

    /// Encrypts one block given as four big-endian words.
    /// - Parameters:
    ///   - keys: the 4 × (`rounds` + 1) round-key words.
    ///   - rounds: Nr, the cipher's `rounds` (10 or 14).
    ///   - tables: `AES.tables` (Te0…Te3, then the S-box).
    @inline(__always)
    static func encrypt(
        _ block: (UInt32, UInt32, UInt32, UInt32), keys: UnsafePointer<UInt32>, rounds: Int, tables: UnsafePointer<UInt32>
    ) -> (UInt32, UInt32, UInt32, UInt32) {
        var s0 = block.0 ^ keys[0], s1 = block.1 ^ keys[1], s2 = block.2 ^ keys[2], s3 = block.3 ^ keys[3]
        let te1 = tables + 256, te2 = tables + 512, te3 = tables + 768
        let last = 4 * rounds
        var round = 4
        while round < last {
            let t0 = tables[Int(s0 >> 24)] ^ te1[Int((s1 >> 16) & 0xff)] ^ te2[Int((s2 >> 8) & 0xff)] ^ te3[Int(s3 & 0xff)] ^ keys[round]
            let t1 = tables[Int(s1 >> 24)] ^ te1[Int((s2 >> 16) & 0xff)] ^ te2[Int((s3 >> 8) & 0xff)] ^ te3[Int(s0 & 0xff)] ^ keys[round + 1]
            let t2 = tables[Int(s2 >> 24)] ^ te1[Int((s3 >> 16) & 0xff)] ^ te2[Int((s0 >> 8) & 0xff)] ^ te3[Int(s1 & 0xff)] ^ keys[round + 2]
            let t3 = tables[Int(s3 >> 24)] ^ te1[Int((s0 >> 16) & 0xff)] ^ te2[Int((s1 >> 8) & 0xff)] ^ te3[Int(s2 & 0xff)] ^ keys[round + 3]
            s0 = t0
            s1 = t1
            s2 = t2
            s3 = t3
            round &+= 4
        }
        // The last round has no MixColumns: S-box bytes, shifted rows.
        let sbox = tables + sboxOffset
        return (lastRoundWord(s0, s1, s2, s3, sbox) ^ keys[last], lastRoundWord(s1, s2, s3, s0, sbox) ^ keys[last + 1],
                lastRoundWord(s2, s3, s0, s1, sbox) ^ keys[last + 2], lastRoundWord(s3, s0, s1, s2, sbox) ^ keys[last + 3])
    }

    /// The word whose bytes are S[a's top byte], S[b's second], S[c's third], S[d's last]:
    /// SubBytes with ShiftRows (and, given one word four times, SubWord).
    @inline(__always)
    static func lastRoundWord(_ a: UInt32, _ b: UInt32, _ c: UInt32, _ d: UInt32, _ sbox: UnsafePointer<UInt32>) -> UInt32 {
        sbox[Int(a >> 24)] << 24 | sbox[Int((b >> 16) & 0xff)] << 16 | sbox[Int((c >> 8) & 0xff)] << 8 | sbox[Int(d & 0xff)]
    }

    /// Where the S-box starts in `tables`.
    static let sboxOffset = 1024

    /// Where the S-box shifted into the top, second and third byte starts in `tables` (three
    /// tables of 256 words; the S-box itself is the fourth, the low byte): the counter mode's
    /// last round XORs these instead of shifting each S-box byte into place.
    static let shiftedSboxOffset = 1280

    /// Te0, Te1, Te2, Te3 (256 words each), then the S-box (256 words holding one byte each),
    /// then S-box << 24, << 16 and << 8, computed from GF(2^8) arithmetic rather than typed in. Te0[x] is the MixColumns column
    /// (2·S[x], S[x], S[x], 3·S[x]); Te1…Te3 are it rotated right by 8, 16 and 24 bits.
    static let tables: [UInt32] = {
        // exp/log over the generator 3 give inverses: x⁻¹ = 3^(255 − log x).
        var exp = [UInt32](repeating: 0, count: 256)
        var log = [Int](repeating: 0, count: 256)
        var value: UInt32 = 1
        for power in 0..<255 {
            exp[power] = value
            log[Int(value)] = power
            value ^= xtime(value)
        }
        var tables = [UInt32](repeating: 0, count: 2048)
        for x in 0..<256 {
            let b = x == 0 ? 0 : exp[(255 - log[x]) % 255]
            // The affine map: b ⊕ rotl(b,1) ⊕ rotl(b,2) ⊕ rotl(b,3) ⊕ rotl(b,4) ⊕ 0x63.
            var s = b
            for shift: UInt32 in 1...4 {
                s ^= ((b << shift) | (b >> (8 - shift))) & 0xff
            }
            s ^= 0x63
            let column = xtime(s) << 24 | s << 16 | s << 8 | (xtime(s) ^ s)
            tables[x] = column
            tables[256 + x] = column >> 8 | column << 24
            tables[512 + x] = column >> 16 | column << 16
            tables[768 + x] = column >> 24 | column << 8
            tables[sboxOffset + x] = s
            tables[shiftedSboxOffset + x] = s << 24
            tables[shiftedSboxOffset + 256 + x] = s << 16
            tables[shiftedSboxOffset + 512 + x] = s << 8
        }
        return tables
    }()

    /// Multiplication by x in GF(2^8) modulo x^8 + x^4 + x^3 + x + 1.
    @inline(__always)
    static func xtime(_ value: UInt32) -> UInt32 {
        ((value << 1) ^ ((value & 0x80) != 0 ? 0x1b : 0)) & 0xff
    }
}
