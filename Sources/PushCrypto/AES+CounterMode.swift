// AES-128 in counter mode for GCM: the key stream of the counter blocks after J0 XORed into
// a record where it lies. Two savings over encrypting each counter block with `encrypt`:
//
// - The counter blocks of a record differ only in their last word, and from one block to the
//   next (for 255 blocks in 256) only in its last byte. In the first round that byte reaches
//   a single lookup (Te3, into the first output word); the other three words, and the other
//   three lookups of the first, are computed once per run of blocks sharing the counter's
//   upper 24 bits. In the second round each output word takes one byte of that first word:
//   one lookup per word, the other three precomputed likewise. Per block that is 5 lookups
//   in the first two rounds instead of 32 (after Bernstein and Schwabe's counter-mode caching).
// - The ten rounds are written out for AES-128 (no loop over a round count), and the last
//   round XORs S-box tables shifted into each byte's place (`shiftedSboxOffset`).
//
// Not constant-time, as `encrypt` (T-table lookups indexed by secret state).

extension AES {
    /// bytes[0..<count] ^= the AES-128 key stream of the counter blocks (c0, c1, c2, c3 + 1),
    /// (c0, c1, c2, c3 + 2), … (GCM's inc32: the last word wraps mod 2^32).
    /// - Parameters:
    ///   - keys: the 44 round-key words of a 16-byte key.
    ///   - tables: `AES.tables`.
    @inline(__always)
    static func xorKeyStream128(
        _ bytes: UnsafeMutableRawBufferPointer, count: Int, after counter: (UInt32, UInt32, UInt32, UInt32),
        keys: UnsafePointer<UInt32>, tables: UnsafePointer<UInt32>
    ) {
        let te1 = tables + 256, te2 = tables + 512, te3 = tables + 768
        let s0 = counter.0 ^ keys[0], s1 = counter.1 ^ keys[1], s2 = counter.2 ^ keys[2]
        var value = counter.3
        // Precomputed per run of blocks with the same upper 24 counter bits.
        var base0: UInt32 = 0, p0: UInt32 = 0, p1: UInt32 = 0, p2: UInt32 = 0, p3: UInt32 = 0
        var fresh = true
        var offset = 0
        while offset < count {
            value &+= 1
            if fresh || value & 0xff == 0 {
                fresh = false
                let s3 = value ^ keys[3]
                base0 = tables[Int(s0 >> 24)] ^ te1[Int((s1 >> 16) & 0xff)] ^ te2[Int((s2 >> 8) & 0xff)] ^ keys[4]
                let t1 = tables[Int(s1 >> 24)] ^ te1[Int((s2 >> 16) & 0xff)] ^ te2[Int((s3 >> 8) & 0xff)] ^ te3[Int(s0 & 0xff)] ^ keys[5]
                let t2 = tables[Int(s2 >> 24)] ^ te1[Int((s3 >> 16) & 0xff)] ^ te2[Int((s0 >> 8) & 0xff)] ^ te3[Int(s1 & 0xff)] ^ keys[6]
                let t3 = tables[Int(s3 >> 24)] ^ te1[Int((s0 >> 16) & 0xff)] ^ te2[Int((s1 >> 8) & 0xff)] ^ te3[Int(s2 & 0xff)] ^ keys[7]
                p0 = te1[Int((t1 >> 16) & 0xff)] ^ te2[Int((t2 >> 8) & 0xff)] ^ te3[Int(t3 & 0xff)] ^ keys[8]
                p1 = tables[Int(t1 >> 24)] ^ te1[Int((t2 >> 16) & 0xff)] ^ te2[Int((t3 >> 8) & 0xff)] ^ keys[9]
                p2 = tables[Int(t2 >> 24)] ^ te1[Int((t3 >> 16) & 0xff)] ^ te3[Int(t1 & 0xff)] ^ keys[10]
                p3 = tables[Int(t3 >> 24)] ^ te2[Int((t1 >> 8) & 0xff)] ^ te3[Int(t2 & 0xff)] ^ keys[11]
            }
            // Rounds 1 and 2: the lookups that depend on the counter's last byte.
            let t0 = base0 ^ te3[Int((value ^ keys[3]) & 0xff)]
            var state = (p0 ^ tables[Int(t0 >> 24)], p1 ^ te3[Int(t0 & 0xff)],
                         p2 ^ te2[Int((t0 >> 8) & 0xff)], p3 ^ te1[Int((t0 >> 16) & 0xff)])
            round(&state, keys + 12, tables)
            round(&state, keys + 16, tables)
            round(&state, keys + 20, tables)
            round(&state, keys + 24, tables)
            round(&state, keys + 28, tables)
            round(&state, keys + 32, tables)
            round(&state, keys + 36, tables)
            let stream = (finalWord(state.0, state.1, state.2, state.3, tables) ^ keys[40],
                          finalWord(state.1, state.2, state.3, state.0, tables) ^ keys[41],
                          finalWord(state.2, state.3, state.0, state.1, tables) ^ keys[42],
                          finalWord(state.3, state.0, state.1, state.2, tables) ^ keys[43])
            if count - offset >= 16 {
                xorWord(stream.0, bytes, offset)
                xorWord(stream.1, bytes, offset + 4)
                xorWord(stream.2, bytes, offset + 8)
                xorWord(stream.3, bytes, offset + 12)
            } else {
                for index in offset..<count {
                    let position = index - offset
                    let word = switch position / 4 {
                    case 0: stream.0
                    case 1: stream.1
                    case 2: stream.2
                    default: stream.3
                    }
                    bytes[index] ^= UInt8(truncatingIfNeeded: word >> UInt32(24 - 8 * (position % 4)))
                }
            }
            offset += 16
        }
    }

    /// One full round (SubBytes, ShiftRows, MixColumns through Te0…Te3, AddRoundKey with the
    /// four words at `keys`).
    @inline(__always)
    static func round(_ s: inout (UInt32, UInt32, UInt32, UInt32), _ keys: UnsafePointer<UInt32>, _ tables: UnsafePointer<UInt32>) {
        let te1 = tables + 256, te2 = tables + 512, te3 = tables + 768
        let t0 = tables[Int(s.0 >> 24)] ^ te1[Int((s.1 >> 16) & 0xff)] ^ te2[Int((s.2 >> 8) & 0xff)] ^ te3[Int(s.3 & 0xff)] ^ keys[0]
        let t1 = tables[Int(s.1 >> 24)] ^ te1[Int((s.2 >> 16) & 0xff)] ^ te2[Int((s.3 >> 8) & 0xff)] ^ te3[Int(s.0 & 0xff)] ^ keys[1]
        let t2 = tables[Int(s.2 >> 24)] ^ te1[Int((s.3 >> 16) & 0xff)] ^ te2[Int((s.0 >> 8) & 0xff)] ^ te3[Int(s.1 & 0xff)] ^ keys[2]
        let t3 = tables[Int(s.3 >> 24)] ^ te1[Int((s.0 >> 16) & 0xff)] ^ te2[Int((s.1 >> 8) & 0xff)] ^ te3[Int(s.2 & 0xff)] ^ keys[3]
        s = (t0, t1, t2, t3)
    }

    /// `lastRoundWord` from the shifted S-box tables: S[a's top byte] << 24 ⊕ S[b's second]
    /// << 16 ⊕ S[c's third] << 8 ⊕ S[d's last], four lookups XORed, no shifts.
    @inline(__always)
    static func finalWord(_ a: UInt32, _ b: UInt32, _ c: UInt32, _ d: UInt32, _ tables: UnsafePointer<UInt32>) -> UInt32 {
        let shifted = tables + shiftedSboxOffset
        return shifted[Int(a >> 24)] ^ shifted[256 + Int((b >> 16) & 0xff)] ^ shifted[512 + Int((c >> 8) & 0xff)]
            ^ tables[sboxOffset + Int(d & 0xff)]
    }

    /// bytes[offset..<offset+4] ^= the big-endian bytes of `word`.
    @inline(__always)
    static func xorWord(_ word: UInt32, _ bytes: UnsafeMutableRawBufferPointer, _ offset: Int) {
        let value = UInt32(bigEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)) ^ word
        bytes.storeBytes(of: value.bigEndian, toByteOffset: offset, as: UInt32.self)
    }
}
