// The shapes that hold an EC private key: ECPrivateKey (SEC1 / RFC 5915, OpenSSL's
// `EC PRIVATE KEY`) and PKCS#8 PrivateKeyInfo (RFC 5208, `PRIVATE KEY`, Apple's .p8) with
// an ECPrivateKey inside. Reading checks the shape only; what the values must be (a scalar
// in 1..<n, a point on the curve that matches it) is for the key type that uses them.

/// The fields of an ECPrivateKey as found in DER, before their values are checked.
package struct ECPrivateKeyDER: Sendable {
    /// The privateKey OCTET STRING: 32 bytes big-endian, though some encoders drop leading zeros.
    package var scalar: ArraySlice<UInt8>
    /// The namedCurve OID of the `[0] parameters`, if present (PKCS#8 names it outside instead).
    package var namedCurve: ArraySlice<UInt8>?
    /// The `[1] publicKey` BIT STRING's bytes (an X9.63 point), if present.
    package var publicKey: ArraySlice<UInt8>?

    /// Reads ECPrivateKey { version 1, privateKey, [0] parameters OPTIONAL, [1] publicKey OPTIONAL }.
    /// - Throws: `CryptoEncodingError.malformedDER` naming where the shape breaks.
    package init(sec1 der: ArraySlice<UInt8>) throws(CryptoEncodingError) {
        var outer = DERReader(der)
        var key = DERReader(try outer.read(DERTag.sequence, "ECPrivateKey SEQUENCE"))
        try outer.expectEnd("ECPrivateKey")
        let version = try key.readSmallInteger("ECPrivateKey version")
        guard version == 1 else { throw CryptoEncodingError(.malformedDER, "ECPrivateKey version \(version), expected 1") }
        scalar = try key.read(DERTag.octetString, "privateKey OCTET STRING")
        if key.peekTag == DERTag.contextZero {
            var parameters = DERReader(try key.read(DERTag.contextZero, "parameters [0]"))
            namedCurve = try parameters.read(DERTag.objectIdentifier, "namedCurve OBJECT IDENTIFIER")
        }
        if key.peekTag == DERTag.contextOne {
            var wrapper = DERReader(try key.read(DERTag.contextOne, "publicKey [1]"))
            publicKey = try wrapper.readBitStringBytes("publicKey BIT STRING")
        }
        try key.expectEnd("ECPrivateKey")
    }

    /// Reads a PKCS#8 PrivateKeyInfo whose algorithm is id-ecPublicKey on prime256v1 and
    /// the ECPrivateKey inside it.
    /// - Throws: `CryptoEncodingError` (malformed DER, another algorithm or curve).
    package init(pkcs8 der: [UInt8]) throws(CryptoEncodingError) {
        var outer = DERReader(der)
        var info = DERReader(try outer.read(DERTag.sequence, "PrivateKeyInfo SEQUENCE"))
        try outer.expectEnd("PrivateKeyInfo")
        let version = try info.readSmallInteger("PrivateKeyInfo version")
        guard version == 0 || version == 1 else {
            throw CryptoEncodingError(.malformedDER, "PrivateKeyInfo version \(version), expected 0")
        }
        try info.readP256AlgorithmIdentifier()
        let privateKey = try info.read(DERTag.octetString, "privateKey OCTET STRING")
        // Optional attributes [0] and (version 2) publicKey [1] follow; they carry nothing we need.
        try self.init(sec1: privateKey)
    }

    /// The PKCS#8 PrivateKeyInfo for a P-256 key, with the public key included as Apple's
    /// `.p8` files and `openssl genpkey` do.
    /// - Parameters:
    ///   - scalar: the 32-byte big-endian private scalar.
    ///   - publicKeyX963: the matching point, `04 ‖ X ‖ Y`.
    package static func pkcs8(scalar: [UInt8], publicKeyX963: [UInt8]) -> [UInt8] {
        let ecPrivateKey = DERWriter.sequence(
            DERWriter.element(DERTag.integer, [0x01]),
            DERWriter.element(DERTag.octetString, scalar),
            DERWriter.element(DERTag.contextOne, DERWriter.element(DERTag.bitString, [0x00] + publicKeyX963)))
        return DERWriter.sequence(
            DERWriter.element(DERTag.integer, [0x00]),
            DERWriter.p256AlgorithmIdentifier,
            DERWriter.element(DERTag.octetString, ecPrivateKey))
    }
}
