import PushCrypto

// Conversion between JWS's raw r ‖ s signatures and the DER form OpenSSL and most X.509
// tooling produce (`openssl dgst -sign`), so signatures from other tools can be checked.

/// DER ⇄ raw (r ‖ s) for P-256 ECDSA signatures.
package enum ECDSASignatureDER {
    /// The 64-byte r ‖ s form of a DER `SEQUENCE { INTEGER r, INTEGER s }`.
    /// - Throws: `APNsKeyError.malformedSignature` if the shape is wrong or a value is
    ///   negative or longer than 32 bytes.
    package static func rawSignature(fromDER der: [UInt8]) throws(APNsKeyError) -> [UInt8] {
        let integers: [ArraySlice<UInt8>]
        do throws(CryptoEncodingError) {
            var outer = DERReader(der)
            var sequence = DERReader(try outer.read(DERTag.sequence, "signature SEQUENCE"))
            try outer.expectEnd("the signature")
            integers = [try sequence.read(DERTag.integer, "INTEGER r"), try sequence.read(DERTag.integer, "INTEGER s")]
            try sequence.expectEnd("INTEGER s")
        } catch {
            throw .with(.malformedSignature, APNsKeyError(error).description)
        }
        var raw: [UInt8] = []
        for (name, integer) in zip(["r", "s"], integers) {
            guard let first = integer.first, first & 0x80 == 0 else {
                throw .with(.malformedSignature, "\(name) is empty or negative")
            }
            let magnitude = integer.drop { $0 == 0 }
            guard magnitude.count <= 32 else {
                throw .with(.malformedSignature, "\(name) is longer than 32 bytes")
            }
            raw += [UInt8](repeating: 0, count: 32 - magnitude.count) + magnitude
        }
        return raw
    }

    /// The DER encoding of a 64-byte r ‖ s signature; `nil` for any other length.
    package static func derSignature(fromRaw raw: [UInt8]) -> [UInt8]? {
        guard raw.count == 64 else { return nil }
        return DERWriter.sequence(
            DERWriter.unsignedInteger(Array(raw[0..<32])),
            DERWriter.unsignedInteger(Array(raw[32..<64])))
    }
}
