// The AES inverse cipher (FIPS 197 §5.3), byte by byte: InvShiftRows, InvSubBytes,
// AddRoundKey, InvMixColumns. CBC decryption of a PKCS#12 file's few hundred bytes is all it
// serves, so it is written for clarity, not speed (TLS only ever encrypts with AES).

extension AES {
    /// Decrypts one 16-byte block (`nil` for another length).
    func decrypt(block: ArraySlice<UInt8>) -> [UInt8]? {
        guard block.count == 16 else { return nil }
        var state = Array(block)
        addRoundKey(&state, round: rounds)
        for round in stride(from: rounds - 1, through: 0, by: -1) {
            // InvShiftRows then InvSubBytes: byte (row r, column c) comes from column c − r.
            var shifted = state
            for column in 0..<4 {
                for row in 0..<4 {
                    shifted[4 * column + row] = AES.inverseSBox[Int(state[4 * ((column - row + 4) % 4) + row])]
                }
            }
            state = shifted
            addRoundKey(&state, round: round)
            if round > 0 { AES.inverseMixColumns(&state) }
        }
        return state
    }

    /// XORs the four round-key words of `round` into the state (column-major bytes).
    private func addRoundKey(_ state: inout [UInt8], round: Int) {
        for column in 0..<4 {
            let word = roundKeys[4 * round + column]
            for row in 0..<4 {
                state[4 * column + row] ^= UInt8(truncatingIfNeeded: word >> UInt32(24 - 8 * row))
            }
        }
    }

    /// Each column times the inverse MixColumns matrix (0e 0b 0d 09, rotated per row).
    private static func inverseMixColumns(_ state: inout [UInt8]) {
        for column in 0..<4 {
            let a = state[(4 * column)..<(4 * column + 4)].map(UInt32.init)
            for row in 0..<4 {
                let product = multiply(a[row], 0x0e) ^ multiply(a[(row + 1) % 4], 0x0b)
                    ^ multiply(a[(row + 2) % 4], 0x0d) ^ multiply(a[(row + 3) % 4], 0x09)
                state[4 * column + row] = UInt8(truncatingIfNeeded: product)
            }
        }
    }

    /// a·b in GF(2^8), shift and add.
    private static func multiply(_ a: UInt32, _ b: UInt32) -> UInt32 {
        var result: UInt32 = 0, value = a, factor = b
        while factor != 0 {
            if factor & 1 != 0 { result ^= value }
            value = xtime(value)
            factor >>= 1
        }
        return result
    }

    /// S⁻¹, inverted from the S-box in `tables`.
    static let inverseSBox: [UInt8] = {
        var inverse = [UInt8](repeating: 0, count: 256)
        for x in 0..<256 {
            inverse[Int(tables[sboxOffset + x] & 0xff)] = UInt8(x)
        }
        return inverse
    }()
}
