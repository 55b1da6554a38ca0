// The little DER (X.690) this package needs: reading and writing TLV elements for PKCS#8,
// SEC1 and SPKI keys, ECDSA signatures and X.509 certificates. Single-byte tags, definite lengths only.

/// ASN.1 tags used by key and signature encodings.
package enum DERTag {
    package static let integer: UInt8 = 0x02
    package static let bitString: UInt8 = 0x03
    package static let octetString: UInt8 = 0x04
    package static let null: UInt8 = 0x05
    package static let objectIdentifier: UInt8 = 0x06
    package static let sequence: UInt8 = 0x30
    /// [0] EXPLICIT, constructed.
    package static let contextZero: UInt8 = 0xa0
    /// [1] EXPLICIT, constructed.
    package static let contextOne: UInt8 = 0xa1
}

/// Object identifiers for EC keys, as DER contents bytes.
package enum DEROID {
    /// id-ecPublicKey, 1.2.840.10045.2.1.
    package static let ecPublicKey: [UInt8] = [0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01]
    /// prime256v1 / secp256r1, 1.2.840.10045.3.1.7.
    package static let prime256v1: [UInt8] = [0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07]

    /// Dotted form for error messages ("1.2.840.10045.2.1").
    package static func dotted(_ contents: ArraySlice<UInt8>) -> String {
        guard let first = contents.first else { return "(empty OID)" }
        var parts = [first < 80 ? String(first / 40) : "2", String(first < 80 ? first % 40 : first - 80)]
        var value: UInt64 = 0
        for byte in contents.dropFirst() {
            guard value >> 56 == 0 else { return "(OID too long)" }
            value = value << 7 | UInt64(byte & 0x7f)
            if byte & 0x80 == 0 {
                parts.append(String(value))
                value = 0
            }
        }
        return parts.joined(separator: ".")
    }
}

/// Reads consecutive DER elements from a byte slice without trapping on bad input.
package struct DERReader {
    private let bytes: ArraySlice<UInt8>
    private var index: Int

    package init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        index = bytes.startIndex
    }

    package init(_ bytes: [UInt8]) {
        self.init(bytes[...])
    }

    package var isAtEnd: Bool { index >= bytes.endIndex }

    /// The tag of the next element, if any.
    package var peekTag: UInt8? { isAtEnd ? nil : bytes[index] }

    /// Reads the next element; `what` names it in the error.
    package mutating func read(_ expectedTag: UInt8, _ what: String) throws(CryptoEncodingError) -> ArraySlice<UInt8> {
        guard index < bytes.endIndex else {
            throw CryptoEncodingError(.malformedDER, "expected \(what), found the end of the data")
        }
        let tag = bytes[index]
        guard tag == expectedTag else {
            throw CryptoEncodingError(.malformedDER, "expected \(what) (tag 0x\(hex(expectedTag))), found tag 0x\(hex(tag))")
        }
        var cursor = index + 1
        guard cursor < bytes.endIndex else { throw CryptoEncodingError(.malformedDER, "\(what): missing length") }
        let first = bytes[cursor]
        cursor += 1
        var length = 0
        if first < 0x80 {
            length = Int(first)
        } else {
            let lengthBytes = Int(first & 0x7f)
            guard lengthBytes >= 1, lengthBytes <= 3 else {
                throw CryptoEncodingError(.malformedDER, "\(what): unsupported length form 0x\(hex(first))")
            }
            guard bytes.endIndex - cursor >= lengthBytes else { throw CryptoEncodingError(.malformedDER, "\(what): truncated length") }
            for _ in 0..<lengthBytes {
                length = length << 8 | Int(bytes[cursor])
                cursor += 1
            }
        }
        guard bytes.endIndex - cursor >= length else {
            throw CryptoEncodingError(.malformedDER, "\(what): length \(length) runs past the end of the data")
        }
        index = cursor + length
        return bytes[cursor..<(cursor + length)]
    }

    /// Reads an INTEGER and returns it as an `Int` (for small version numbers).
    package mutating func readSmallInteger(_ what: String) throws(CryptoEncodingError) -> Int {
        let contents = try read(DERTag.integer, what)
        guard !contents.isEmpty, contents.count <= 4 else { throw CryptoEncodingError(.malformedDER, "\(what): not a small INTEGER") }
        return contents.reduce(0) { $0 << 8 | Int($1) }
    }

    /// Reads a BIT STRING with no unused bits and returns its bytes.
    package mutating func readBitStringBytes(_ what: String) throws(CryptoEncodingError) -> ArraySlice<UInt8> {
        let contents = try read(DERTag.bitString, what)
        guard contents.first == 0 else { throw CryptoEncodingError(.malformedDER, "\(what): BIT STRING with unused bits") }
        return contents.dropFirst()
    }

    /// Throws unless every byte was consumed.
    package func expectEnd(_ what: String) throws(CryptoEncodingError) {
        guard isAtEnd else { throw CryptoEncodingError(.malformedDER, "unexpected data after \(what)") }
    }

    private func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789abcdef")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0xf)]])
    }
}

/// Builds DER elements.
package enum DERWriter {
    /// tag, definite length, contents.
    package static func element(_ tag: UInt8, _ contents: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [tag]
        let count = contents.count
        if count < 0x80 {
            out.append(UInt8(count))
        } else if count <= 0xff {
            out += [0x81, UInt8(count)]
        } else if count <= 0xffff {
            out += [0x82, UInt8(truncatingIfNeeded: count >> 8), UInt8(truncatingIfNeeded: count)]
        } else {
            out += [0x83, UInt8(truncatingIfNeeded: count >> 16), UInt8(truncatingIfNeeded: count >> 8), UInt8(truncatingIfNeeded: count)]
        }
        return out + contents
    }

    package static func sequence(_ parts: [UInt8]...) -> [UInt8] {
        element(DERTag.sequence, parts.flatMap { $0 })
    }

    /// An unsigned big-endian integer, minimal with a leading zero when the top bit is set.
    package static func unsignedInteger(_ bigEndian: [UInt8]) -> [UInt8] {
        var trimmed = Array(bigEndian.drop { $0 == 0 })
        if trimmed.isEmpty || (trimmed.first ?? 0) & 0x80 != 0 {
            trimmed.insert(0, at: 0)
        }
        return element(DERTag.integer, trimmed)
    }

    /// SubjectPublicKeyInfo { AlgorithmIdentifier { id-ecPublicKey, prime256v1 }, BIT STRING point }.
    package static func p256SubjectPublicKeyInfo(_ x963: [UInt8]) -> [UInt8] {
        sequence(p256AlgorithmIdentifier, element(DERTag.bitString, [0x00] + x963))
    }

    /// AlgorithmIdentifier { id-ecPublicKey, prime256v1 }.
    package static var p256AlgorithmIdentifier: [UInt8] {
        sequence(element(DERTag.objectIdentifier, DEROID.ecPublicKey), element(DERTag.objectIdentifier, DEROID.prime256v1))
    }
}

extension DERReader {
    /// Reads AlgorithmIdentifier { id-ecPublicKey, prime256v1 } and names what differs.
    package mutating func readP256AlgorithmIdentifier() throws(CryptoEncodingError) {
        var algorithm = DERReader(try read(DERTag.sequence, "AlgorithmIdentifier SEQUENCE"))
        let oid = try algorithm.read(DERTag.objectIdentifier, "algorithm OBJECT IDENTIFIER")
        guard Array(oid) == DEROID.ecPublicKey else { throw CryptoEncodingError(.unsupportedAlgorithm, DEROID.dotted(oid)) }
        guard algorithm.peekTag == DERTag.objectIdentifier else {
            throw CryptoEncodingError(.malformedDER, "EC parameters must name a curve (explicit curve parameters are not supported)")
        }
        let curve = try algorithm.read(DERTag.objectIdentifier, "namedCurve OBJECT IDENTIFIER")
        guard Array(curve) == DEROID.prime256v1 else { throw CryptoEncodingError(.unsupportedCurve, DEROID.dotted(curve)) }
        try algorithm.expectEnd("AlgorithmIdentifier")
    }

    /// Reads a whole DER SubjectPublicKeyInfo for a P-256 key and returns the point's bytes
    /// (not yet checked to be on the curve).
    package static func readP256SubjectPublicKeyInfo(_ der: ArraySlice<UInt8>) throws(CryptoEncodingError) -> ArraySlice<UInt8> {
        var outer = DERReader(der)
        var info = DERReader(try outer.read(DERTag.sequence, "SubjectPublicKeyInfo SEQUENCE"))
        try outer.expectEnd("SubjectPublicKeyInfo")
        try info.readP256AlgorithmIdentifier()
        let point = try info.readBitStringBytes("subjectPublicKey BIT STRING")
        try info.expectEnd("SubjectPublicKeyInfo")
        return point
    }
}
