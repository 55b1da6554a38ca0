// Reading an X.509 v3 certificate (RFC 5280 §4.1) far enough to check who signed it, when
// it is valid, what key it holds and what its extensions say — what a TLS server needs from
// a client's certificate. No name constraints or policy processing: it protects nothing.
import Foundation

/// The public key a certificate holds, in the forms this package verifies signatures with.
package enum CertificatePublicKey: Sendable, Hashable {
    /// An EC key on P-256 (id-ecPublicKey, prime256v1).
    case p256(P256AffinePoint)
    /// An RSA key (rsaEncryption).
    case rsa(RSAPublicKey)
}

/// One extension: its dotted OID, criticality and the contents of its extnValue OCTET STRING.
package struct CertificateExtension: Sendable, Hashable {
    /// e.g. "1.2.840.113635.100.6.3.6".
    package var oid: String
    package var critical: Bool
    /// The DER inside extnValue (the OCTET STRING's contents).
    package var value: [UInt8]
}

/// A parsed DER certificate. Every field is read with bounds checks; anything that is not a
/// well-formed certificate throws ``CryptoEncodingError``.
package struct X509Certificate: Sendable, Hashable {
    /// The whole certificate, DER.
    package let der: [UInt8]
    /// The TBSCertificate element, whole: what the issuer signed.
    package let signedPart: [UInt8]
    /// The dotted OID of the issuer's signature algorithm (outer signatureAlgorithm).
    package let signatureAlgorithm: String
    /// The signature BIT STRING's bytes.
    package let signature: [UInt8]
    /// serialNumber's contents, big-endian as encoded.
    package let serialNumber: [UInt8]
    /// The issuer and subject Names, whole DER elements (compared byte for byte).
    package let issuerName: [UInt8]
    package let subjectName: [UInt8]
    package let notBefore: Date
    package let notAfter: Date
    package let publicKey: CertificatePublicKey
    package let extensions: [CertificateExtension]

    /// Parses `der`. Key types other than P-256 and RSA (1024…4096 bits) are refused.
    package init(der: [UInt8]) throws(CryptoEncodingError) {
        self.der = der
        var outer = DERReader(der)
        let certificateContents = try outer.read(DERTag.sequence, "Certificate SEQUENCE")
        try outer.expectEnd("Certificate")
        var certificate = DERReader(certificateContents)
        let tbsContents = try certificate.read(DERTag.sequence, "TBSCertificate SEQUENCE")
        signedPart = DERWriter.element(DERTag.sequence, Array(tbsContents))
        var algorithm = DERReader(try certificate.read(DERTag.sequence, "signatureAlgorithm SEQUENCE"))
        signatureAlgorithm = DEROID.dotted(try algorithm.read(DERTag.objectIdentifier, "signatureAlgorithm OID"))
        signature = Array(try certificate.readBitStringBytes("signatureValue BIT STRING"))
        try certificate.expectEnd("Certificate")

        var tbs = DERReader(tbsContents)
        if tbs.peekTag == DERTag.contextZero {
            _ = try tbs.read(DERTag.contextZero, "version [0]")
        }
        serialNumber = Array(try tbs.read(DERTag.integer, "serialNumber INTEGER"))
        _ = try tbs.read(DERTag.sequence, "signature AlgorithmIdentifier")
        issuerName = DERWriter.element(DERTag.sequence, Array(try tbs.read(DERTag.sequence, "issuer Name")))
        var validity = DERReader(try tbs.read(DERTag.sequence, "validity SEQUENCE"))
        notBefore = try validity.readTime("notBefore")
        notAfter = try validity.readTime("notAfter")
        try validity.expectEnd("Validity")
        subjectName = DERWriter.element(DERTag.sequence, Array(try tbs.read(DERTag.sequence, "subject Name")))
        let spki = DERWriter.element(DERTag.sequence, Array(try tbs.read(DERTag.sequence, "subjectPublicKeyInfo")))
        publicKey = try Self.readPublicKey(spki)
        var extensions: [CertificateExtension] = []
        while let tag = tbs.peekTag, tag != 0xa3 {
            _ = try tbs.read(tag, "issuerUniqueID or subjectUniqueID")
        }
        if tbs.peekTag == 0xa3 {
            var wrapper = DERReader(try tbs.read(0xa3, "extensions [3]"))
            var list = DERReader(try wrapper.read(DERTag.sequence, "Extensions SEQUENCE"))
            try wrapper.expectEnd("extensions [3]")
            while !list.isAtEnd {
                var field = DERReader(try list.read(DERTag.sequence, "Extension SEQUENCE"))
                let oid = DEROID.dotted(try field.read(DERTag.objectIdentifier, "extnID"))
                var critical = false
                if field.peekTag == 0x01 {
                    critical = try field.read(0x01, "critical BOOLEAN").first.map { $0 != 0 } ?? false
                }
                let value = Array(try field.read(DERTag.octetString, "extnValue OCTET STRING"))
                try field.expectEnd("Extension")
                extensions.append(CertificateExtension(oid: oid, critical: critical, value: value))
            }
        }
        try tbs.expectEnd("TBSCertificate")
        self.extensions = extensions
    }

    private static func readPublicKey(_ spki: [UInt8]) throws(CryptoEncodingError) -> CertificatePublicKey {
        var reader = DERReader(spki)
        var info = DERReader(try reader.read(DERTag.sequence, "SubjectPublicKeyInfo SEQUENCE"))
        var algorithm = DERReader(try info.read(DERTag.sequence, "AlgorithmIdentifier SEQUENCE"))
        let oid = try algorithm.read(DERTag.objectIdentifier, "algorithm OBJECT IDENTIFIER")
        if Array(oid) == DEROID.rsaEncryption {
            return .rsa(try RSAPublicKey(subjectPublicKeyInfo: spki[...]))
        }
        let point = try DERReader.readP256SubjectPublicKeyInfo(spki[...])
        guard let affine = P256AffinePoint(x963: Array(point)) else {
            throw CryptoEncodingError(.malformedDER, "the certificate's P-256 public key is not a point on the curve")
        }
        return .p256(affine)
    }

    /// The contents of the extension with dotted OID `oid`, if present.
    package func extensionValue(_ oid: String) -> [UInt8]? {
        extensions.first { $0.oid == oid }?.value
    }

    /// The first attribute of the subject whose type is `oid` (e.g. UID,
    /// 0.9.2342.19200300.100.1.1, or CN, 2.5.4.3), as text; nil if absent or not a string.
    package func subjectAttribute(_ oid: [UInt8]) -> String? {
        var name = DERReader(subjectName)
        guard var sets = try? DERReader(name.read(DERTag.sequence, "Name")) else { return nil }
        while !sets.isAtEnd {
            guard var set = try? DERReader(sets.read(0x31, "RelativeDistinguishedName SET")) else { return nil }
            while !set.isAtEnd {
                guard var pair = try? DERReader(set.read(DERTag.sequence, "AttributeTypeAndValue")),
                      let type = try? pair.read(DERTag.objectIdentifier, "type"), let tag = pair.peekTag,
                      let value = try? pair.read(tag, "value") else { return nil }
                // UTF8String, PrintableString, IA5String, T61String (read as Latin-1-ish bytes).
                if Array(type) == oid, [0x0c, 0x13, 0x16, 0x14].contains(tag) {
                    return String(decoding: value, as: UTF8.self)
                }
            }
        }
        return nil
    }

    /// Whether `issuer` names this certificate's issuer and its key verifies this
    /// certificate's signature (ecdsa-with-SHA256, or sha256WithRSAEncryption PKCS#1 v1.5).
    package func isSigned(by issuer: X509Certificate) -> Bool {
        guard issuer.subjectName == issuerName else { return false }
        switch (issuer.publicKey, signatureAlgorithm) {
        case (.p256(let point), "1.2.840.10045.4.3.2"):
            guard let (r, s) = ECDSASignatureDER.read(signature[...]) else { return false }
            return ECDSA.verify(r: r, s: s, digest: SHA256.hash(signedPart), publicKey: point)
        case (.rsa(let key), "1.2.840.113549.1.1.11"):
            return key.verifyPKCS1SHA256(signature: signature, digest: SHA256.hash(signedPart))
        default:
            return false
        }
    }
}

extension DEROID {
    /// userId (UID), 0.9.2342.19200300.100.1.1: Apple's push certificates hold the bundle id here.
    package static let userID: [UInt8] = [0x09, 0x92, 0x26, 0x89, 0x93, 0xf2, 0x2c, 0x64, 0x01, 0x01]
}

/// ECDSA-Sig-Value ::= SEQUENCE { r INTEGER, s INTEGER } (RFC 3279 §2.2.3).
package enum ECDSASignatureDER {
    /// (r, s) from DER, nil unless both are positive INTEGERs of at most 32 significant bytes.
    package static func read(_ der: ArraySlice<UInt8>) -> (U256, U256)? {
        var outer = DERReader(der)
        guard var pair = try? DERReader(outer.read(DERTag.sequence, "ECDSA-Sig-Value")), outer.isAtEnd,
              let r = try? pair.read(DERTag.integer, "r"), let s = try? pair.read(DERTag.integer, "s"), pair.isAtEnd,
              let rValue = integer(r), let sValue = integer(s) else { return nil }
        return (rValue, sValue)
    }

    private static func integer(_ contents: ArraySlice<UInt8>) -> U256? {
        guard let first = contents.first, first & 0x80 == 0 else { return nil }
        let significant = contents.drop { $0 == 0 }
        guard significant.count <= 32 else { return nil }
        return U256(bigEndian: [UInt8](repeating: 0, count: 32 - significant.count) + significant)
    }
}
