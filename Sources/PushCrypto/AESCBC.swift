// AES in Cipher Block Chaining mode (NIST SP 800-38A §6.2) with PKCS#7 padding (RFC 5652
// §6.3): the content encryption of PBES2 (RFC 8018 §6.2) in the PKCS#12 files OpenSSL 3
// writes by default (AES-256-CBC).

/// AES-CBC with a 16- or 32-byte key and a 16-byte IV.
///
/// ```swift
/// let sealed = AESCBC.encrypt(plaintext, key: key32, iv: iv)        // padded to whole blocks
/// let opened = AESCBC.decrypt(sealed ?? [], key: key32, iv: iv)     // nil on bad padding
/// ```
package enum AESCBC {
    /// The block size, which is also the IV length.
    package static let blockByteCount = 16

    /// Encrypts `plaintext` after PKCS#7 padding (1…16 bytes, each holding the pad length),
    /// or as is with `padding: false` (then its length must be a multiple of 16).
    /// - Returns: the ciphertext, or nil for a key that is not 16 or 32 bytes, an IV that is
    ///   not 16, or an unpadded plaintext that is not whole blocks.
    package static func encrypt(_ plaintext: [UInt8], key: [UInt8], iv: [UInt8], padding: Bool = true) -> [UInt8]? {
        guard let cipher = AES(key: key), iv.count == blockByteCount else { return nil }
        var input = plaintext
        if padding {
            let pad = blockByteCount - plaintext.count % blockByteCount
            input += [UInt8](repeating: UInt8(pad), count: pad)
        }
        guard input.count % blockByteCount == 0 else { return nil }
        var output: [UInt8] = []
        output.reserveCapacity(input.count)
        var previous = iv
        for start in stride(from: 0, to: input.count, by: blockByteCount) {
            var block = [UInt8](repeating: 0, count: blockByteCount)
            for index in 0..<blockByteCount {
                block[index] = input[start + index] ^ previous[index]
            }
            previous = cipher.encrypt(block: block)
            output += previous
        }
        return output
    }

    /// Decrypts and, unless `padding: false`, checks and removes PKCS#7 padding.
    /// - Returns: the plaintext, or nil for a bad key or IV length, a ciphertext that is not
    ///   whole blocks (or empty when padded), or padding that is not 1…16 equal bytes.
    package static func decrypt(_ ciphertext: [UInt8], key: [UInt8], iv: [UInt8], padding: Bool = true) -> [UInt8]? {
        guard let cipher = AES(key: key), iv.count == blockByteCount, ciphertext.count % blockByteCount == 0 else { return nil }
        var output: [UInt8] = []
        output.reserveCapacity(ciphertext.count)
        var previous = iv[...]
        for start in stride(from: 0, to: ciphertext.count, by: blockByteCount) {
            let block = ciphertext[start..<(start + blockByteCount)]
            guard let decrypted = cipher.decrypt(block: block) else { return nil }
            output += zip(decrypted, previous).map { $0 ^ $1 }
            previous = block
        }
        guard padding else { return output }
        guard let last = output.last, (1...blockByteCount).contains(Int(last)),
              output.suffix(Int(last)).allSatisfy({ $0 == last }) else { return nil }
        return Array(output.dropLast(Int(last)))
    }
}

extension AES {
    /// Encrypts one 16-byte block through the table-driven fast path.
    func encrypt(block: [UInt8]) -> [UInt8] {
        let input = (UInt32(block[0]) << 24 | UInt32(block[1]) << 16 | UInt32(block[2]) << 8 | UInt32(block[3]),
                     UInt32(block[4]) << 24 | UInt32(block[5]) << 16 | UInt32(block[6]) << 8 | UInt32(block[7]),
                     UInt32(block[8]) << 24 | UInt32(block[9]) << 16 | UInt32(block[10]) << 8 | UInt32(block[11]),
                     UInt32(block[12]) << 24 | UInt32(block[13]) << 16 | UInt32(block[14]) << 8 | UInt32(block[15]))
        let words = roundKeys.withUnsafeBufferPointer { keys in
            AES.tables.withUnsafeBufferPointer { tables in
                guard let keys = keys.baseAddress, let tables = tables.baseAddress else { return input }
                return AES.encrypt(input, keys: keys, rounds: rounds, tables: tables)
            }
        }
        return [words.0, words.1, words.2, words.3].flatMap { word in
            (0..<4).map { UInt8(truncatingIfNeeded: word >> UInt32(24 - 8 * $0)) }
        }
    }
}
