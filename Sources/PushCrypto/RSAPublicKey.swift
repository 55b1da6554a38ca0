// RSA public keys and RSASSA-PSS verification (RFC 8017 §8.1.2, EMSA-PSS §9.1.2) with
// SHA-256, MGF1-SHA256 and a 32-byte salt: TLS 1.3's rsa_pss_rsae_sha256 (RFC 8446 §4.2.3),
// what a client presenting an RSA certificate (Apple's push certificates are RSA 2048)
// signs its CertificateVerify with. Verification only: the fakes never sign with RSA.

/// An RSA public key (n, e), as read from a certificate's SubjectPublicKeyInfo.
///
/// Bounded: the modulus is 1024…4096 bits and odd, the exponent odd, above 1 and at most 64
/// bits (real keys use 65537), so one verification costs at most ~130 Montgomery products
/// of 64 limbs, whatever a peer sends.
///
/// ```swift
/// let key = try RSAPublicKey(subjectPublicKeyInfo: spkiDER)
/// let ok = key.verifyPSSSHA256(signature: signature, message: signedContent)
/// ```
package struct RSAPublicKey: Sendable, Hashable {
    /// The smallest modulus accepted, in bits (RFC 8017's own test vectors use 1024).
    package static let minimumModulusBits = 1024
    /// The largest modulus accepted, in bits: bounds the work one signature can cost.
    package static let maximumModulusBits = 4096

    let modulus: RSAModulus
    /// The public exponent e.
    package let exponent: UInt64
    /// The modulus's size in bits (2048 for an RSA 2048 key).
    package let modulusBits: Int

    /// A key from the big-endian bytes of n and e (leading zeros allowed).
    /// - Throws: ``CryptoEncodingError/invalidRSAKey`` when n is even or outside
    ///   1024…4096 bits, or e is even, 1, or wider than 64 bits.
    package init(modulus: ArraySlice<UInt8>, exponent: ArraySlice<UInt8>) throws(CryptoEncodingError) {
        let n = modulus.drop { $0 == 0 }
        let bits = n.first.map { n.count * 8 - $0.leadingZeroBitCount } ?? 0
        guard bits >= Self.minimumModulusBits, bits <= Self.maximumModulusBits else {
            throw CryptoEncodingError(.invalidRSAKey, "a \(bits)-bit modulus (this verifier takes \(Self.minimumModulusBits)…\(Self.maximumModulusBits) bits)")
        }
        let e = exponent.drop { $0 == 0 }
        guard e.count <= 8 else { throw CryptoEncodingError(.invalidRSAKey, "a public exponent wider than 64 bits") }
        let exponentValue = e.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        guard exponentValue > 1, exponentValue & 1 == 1 else {
            throw CryptoEncodingError(.invalidRSAKey, "public exponent \(exponentValue) (must be odd and above 1)")
        }
        guard let limbs = RSAModulus.limbs(bigEndian: n, count: (n.count + 7) / 8),
              let prepared = RSAModulus(limbs: limbs) else {
            throw CryptoEncodingError(.invalidRSAKey, "an even modulus")
        }
        self.modulus = prepared
        self.exponent = exponentValue
        modulusBits = bits
    }

    /// A key from a DER SubjectPublicKeyInfo whose algorithm is rsaEncryption
    /// (1.2.840.113549.1.1.1, parameters NULL or absent) holding RSAPublicKey { n, e }.
    /// - Throws: ``CryptoEncodingError/malformedDER`` for a broken structure,
    ///   ``CryptoEncodingError/invalidRSAKey`` for another algorithm or a key out of bounds.
    package init(subjectPublicKeyInfo der: ArraySlice<UInt8>) throws(CryptoEncodingError) {
        var outer = DERReader(der)
        var info = DERReader(try outer.read(DERTag.sequence, "SubjectPublicKeyInfo SEQUENCE"))
        try outer.expectEnd("SubjectPublicKeyInfo")
        var algorithm = DERReader(try info.read(DERTag.sequence, "AlgorithmIdentifier SEQUENCE"))
        let oid = try algorithm.read(DERTag.objectIdentifier, "algorithm OBJECT IDENTIFIER")
        guard Array(oid) == DEROID.rsaEncryption else {
            throw CryptoEncodingError(.invalidRSAKey, "key algorithm \(DEROID.dotted(oid)) is not rsaEncryption (1.2.840.113549.1.1.1)")
        }
        if !algorithm.isAtEnd {
            guard try algorithm.read(DERTag.null, "parameters NULL").isEmpty else {
                throw CryptoEncodingError(.malformedDER, "rsaEncryption parameters: a NULL with contents")
            }
        }
        try algorithm.expectEnd("AlgorithmIdentifier")
        var bits = DERReader(try info.readBitStringBytes("subjectPublicKey BIT STRING"))
        try info.expectEnd("SubjectPublicKeyInfo")
        var key = DERReader(try bits.read(DERTag.sequence, "RSAPublicKey SEQUENCE"))
        try bits.expectEnd("RSAPublicKey")
        let n = try key.read(DERTag.integer, "modulus INTEGER")
        let e = try key.read(DERTag.integer, "publicExponent INTEGER")
        try key.expectEnd("RSAPublicKey")
        guard n.first.map({ $0 & 0x80 == 0 }) == true, e.first.map({ $0 & 0x80 == 0 }) == true else {
            throw CryptoEncodingError(.invalidRSAKey, "a negative or empty modulus or exponent")
        }
        try self.init(modulus: n, exponent: e)
    }

    /// The modulus's length in bytes, k in RFC 8017: a signature is exactly this long.
    package var modulusByteCount: Int { (modulusBits + 7) / 8 }

    /// Whether `signature` is an RSASSA-PSS signature of `message` under this key, with
    /// SHA-256, MGF1-SHA256 and a salt of 32 bytes (TLS 1.3's rsa_pss_rsae_sha256).
    /// Any input is answered, never trapped on: wrong lengths, s ≥ n and bad padding are false.
    package func verifyPSSSHA256(signature: some Collection<UInt8>, message: some Collection<UInt8>) -> Bool {
        verifyPSSSHA256(signature: Array(signature), digest: SHA256.hash(message))
    }

    /// As ``verifyPSSSHA256(signature:message:)`` with the message's SHA-256 digest given.
    package func verifyPSSSHA256(signature: [UInt8], digest: [UInt8]) -> Bool {
        let hashLength = SHA256.digestByteCount
        guard signature.count == modulusByteCount, digest.count == hashLength,
              let s = RSAModulus.limbs(bigEndian: signature[...], count: modulus.limbs.count),
              RSAModulus.isLess(s, modulus.limbs) else { return false }
        let m = modulus.power(s, exponent: exponent)
        // EM is emLen = ⌈(modBits − 1)/8⌉ bytes; m must fit in emBits = modBits − 1 bits.
        let encodedBits = modulusBits - 1
        let encodedLength = (encodedBits + 7) / 8
        let full = RSAModulus.bigEndianBytes(m, count: modulusByteCount)
        guard full.prefix(modulusByteCount - encodedLength).allSatisfy({ $0 == 0 }) else { return false }
        return Self.emsaPSSVerify(digest: digest, encoded: Array(full.suffix(encodedLength)), encodedBits: encodedBits)
    }

    /// EMSA-PSS-VERIFY (RFC 8017 §9.1.2) for SHA-256, MGF1-SHA256, sLen = 32.
    static func emsaPSSVerify(digest: [UInt8], encoded: [UInt8], encodedBits: Int) -> Bool {
        let hashLength = SHA256.digestByteCount
        let saltLength = hashLength
        let encodedLength = encoded.count
        guard encodedLength >= hashLength + saltLength + 2, encoded.last == 0xbc else { return false }
        let databaseLength = encodedLength - hashLength - 1
        let hash = Array(encoded[databaseLength..<(encodedLength - 1)])
        // The bits above emBits in the first byte must be zero, before and after unmasking.
        let topMask = UInt8(truncatingIfNeeded: 0xff >> (8 * encodedLength - encodedBits))
        guard encoded[0] & ~topMask == 0 else { return false }
        var database = mgf1SHA256(seed: hash, length: databaseLength)
        for index in 0..<databaseLength { database[index] ^= encoded[index] }
        database[0] &= topMask
        let separator = databaseLength - saltLength - 1
        guard database[0..<separator].allSatisfy({ $0 == 0 }), database[separator] == 0x01 else { return false }
        var hasher = SHA256.Hasher()
        hasher.update([UInt8](repeating: 0, count: 8))
        hasher.update(digest)
        hasher.update(database[(separator + 1)...])
        return hasher.finalize() == hash
    }

    /// MGF1 with SHA-256 (RFC 8017 §B.2.1): SHA-256(seed ‖ counter) for counter 0, 1, …,
    /// concatenated and cut to `length` bytes.
    static func mgf1SHA256(seed: [UInt8], length: Int) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(length + SHA256.digestByteCount)
        var counter: UInt32 = 0
        while output.count < length {
            var hasher = SHA256.Hasher()
            hasher.update(seed)
            hasher.update([UInt8(counter >> 24), UInt8(truncatingIfNeeded: counter >> 16),
                           UInt8(truncatingIfNeeded: counter >> 8), UInt8(truncatingIfNeeded: counter)])
            output += hasher.finalize()
            counter += 1
        }
        return Array(output.prefix(length))
    }
}

extension DEROID {
    /// rsaEncryption, 1.2.840.113549.1.1.1.
    package static let rsaEncryption: [UInt8] = [0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01]
}
