// The PKCS#12 key derivation (RFC 7292 Appendix B.2) with SHA-256, which keys the MAC of a
// PFX (ID 3). It predates PBKDF2 and mixes the salt and password differently, so it is its
// own function; OpenSSL 3 still uses it for the MAC while encrypting bags with PBES2.

extension PKCS12 {
    /// `length` bytes derived from `password` (a BMPString's bytes with its two-byte
    /// terminator, as RFC 7292 B.1 encodes it) for purpose `id` (1 key, 2 IV, 3 MAC).
    ///
    /// D = `id` repeated to one block (v = 64); I = salt and password each repeated to whole
    /// blocks; Aᵢ = SHA-256^iterations(D ‖ I); between outputs every block of I becomes
    /// (Iⱼ + B + 1) mod 2^512, B = Aᵢ repeated to a block. `iterations` below 1 counts as 1.
    static func keyDerivation(id: UInt8, password: [UInt8], salt: [UInt8], iterations: Int, length: Int) -> [UInt8] {
        let v = SHA256.blockByteCount
        func filled(_ bytes: [UInt8]) -> [UInt8] {
            guard !bytes.isEmpty else { return [] }
            let count = v * ((bytes.count + v - 1) / v)
            return (0..<count).map { bytes[$0 % bytes.count] }
        }
        let diversifier = [UInt8](repeating: id, count: v)
        var input = filled(salt) + filled(password)
        var output: [UInt8] = []
        while output.count < max(length, 0) {
            var digest = SHA256.hash(diversifier + input)
            for _ in 1..<max(iterations, 1) {
                digest = SHA256.hash(digest)
            }
            output += digest
            guard output.count < length else { break }
            let b = (0..<v).map { digest[$0 % digest.count] }
            for start in stride(from: 0, to: input.count, by: v) {
                var carry: UInt16 = 1
                for index in stride(from: v - 1, through: 0, by: -1) {
                    let sum = UInt16(input[start + index]) + UInt16(b[index]) + carry
                    input[start + index] = UInt8(truncatingIfNeeded: sum)
                    carry = sum >> 8
                }
            }
        }
        return Array(output.prefix(max(length, 0)))
    }
}
