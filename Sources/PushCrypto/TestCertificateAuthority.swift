// A throwaway certificate authority, so a TLS client can trust the fakes through one CA file
// the way it trusts any private CA (SSL_CERT_FILE, NODE_EXTRA_CA_CERTS, a Java truststore,
// curl --cacert). Certificates are X.509 v3 (RFC 5280) written by DERWriter and signed with
// ecdsa-with-SHA256; they protect nothing and exist for tests.
import Foundation

/// A test CA: a P-256 key and a self-signed X.509 v3 certificate with basicConstraints
/// CA:TRUE (critical), keyUsage keyCertSign | cRLSign (critical) and a subjectKeyIdentifier.
///
/// ```swift
/// let ca = TestCertificateAuthority.generate()
/// try ca.certificatePEM.write(toFile: "ca.pem", atomically: true, encoding: .utf8)  // the file users trust
/// let leaf = ca.issueServerCertificate(dnsNames: ["localhost"], ipAddresses: [[127, 0, 0, 1]])
/// ```
///
/// The CA certificate is valid from one day before it was made for ten years; key
/// identifiers are the leftmost 160 bits of SHA-256 of the public key (RFC 7093 §2, method 1).
package struct TestCertificateAuthority: Sendable {
    /// The CA's key pair.
    package let key: P256KeyPair
    /// The CA certificate, DER.
    package let certificateDER: [UInt8]
    /// The CA's subject Name, DER: the issuer of every certificate it signs.
    private let subjectName: [UInt8]
    /// The CA's subjectKeyIdentifier, which leaves name as their authorityKeyIdentifier
    /// (nil for a reused CA certificate that has none).
    private let keyIdentifier: [UInt8]?

    /// The host name every leaf is for: loopback. A layer above adds the names it answers for
    /// (FakeAPNs adds Apple's push hosts).
    package static let defaultDNSNames = ["localhost"]
    /// 127.0.0.1 and ::1.
    package static let defaultIPAddresses: [[UInt8]] = [[127, 0, 0, 1], [UInt8](repeating: 0, count: 15) + [1]]

    /// How far back `notBefore` is set, so clocks a little behind still accept a fresh
    /// certificate: one day.
    package static let backdating: TimeInterval = 86_400
    /// How long after its issue a server certificate expires: 397 days, within the 398 days
    /// Apple platforms accept for a TLS server certificate.
    package static let serverCertificateLifetime: TimeInterval = 397 * 86_400
    /// The CA's lifetime from now: ten years, long enough to keep one between runs.
    package static let authorityLifetime: TimeInterval = 3650 * 86_400

    /// A fresh CA with a new key.
    /// - Parameters:
    ///   - commonName: the CA's subject CN, what trust-store UIs show.
    ///   - now: the issue time (for tests); validity runs from a day before it.
    package static func generate(commonName: String = "PushContracts Test CA", now: Date = Date()) -> TestCertificateAuthority {
        let key = P256KeyPair.generate()
        let subject = name(commonName: commonName)
        let identifier = keyIdentifier(key.publicKeyX963)
        let extensions = [
            extensionField(DEROID.basicConstraints, critical: true, DERWriter.sequence(DERWriter.boolean(true))),
            extensionField(DEROID.keyUsage, critical: true, DERWriter.namedBits([5, 6])),  // keyCertSign, cRLSign
            extensionField(DEROID.subjectKeyIdentifier, critical: false, DERWriter.octetString(identifier)),
        ]
        let certificate = sign(issuer: subject, subject: subject, subjectKey: key.publicKeyX963, extensions: extensions,
                               notBefore: now - backdating, notAfter: now + authorityLifetime, signer: key)
        return TestCertificateAuthority(key: key, certificateDER: certificate, subjectName: subject, keyIdentifier: identifier)
    }

    private init(key: P256KeyPair, certificateDER: [UInt8], subjectName: [UInt8], keyIdentifier: [UInt8]?) {
        self.key = key
        self.certificateDER = certificateDER
        self.subjectName = subjectName
        self.keyIdentifier = keyIdentifier
    }

    /// Reuses a CA kept between runs: its key (`PRIVATE KEY`, PKCS#8, as `keyPEM` writes, or
    /// `EC PRIVATE KEY`, SEC1) and its certificate (`CERTIFICATE`).
    /// - Throws: `CryptoEncodingError` if either is not PEM or not P-256, the key is invalid,
    ///   or the certificate is not for this key.
    package init(keyPEM: String, certificatePEM: String) throws(CryptoEncodingError) {
        let key = try TestCertificateAuthority.readKey(keyPEM)
        guard let document = try PEMDocument.parseAll(certificatePEM).first(where: { $0.label == "CERTIFICATE" }) else {
            throw CryptoEncodingError(.notPEM, "no '-----BEGIN CERTIFICATE-----' block in the CA certificate file")
        }
        let fields = try CertificateFields(document.der)
        guard fields.subjectPublicKey == key.publicKeyX963[...] else {
            throw CryptoEncodingError(.keyMismatch, "the CA certificate's public key is not the CA key's")
        }
        self.init(key: key, certificateDER: document.der, subjectName: Array(fields.subjectName),
                  keyIdentifier: fields.subjectKeyIdentifier.map { Array($0) })
    }

    /// The CA certificate as PEM (`CERTIFICATE`): the file a client is told to trust.
    package var certificatePEM: String { PEMDocument(label: "CERTIFICATE", der: certificateDER).text }

    /// The CA key as PKCS#8 PEM (`PRIVATE KEY`), to keep beside `certificatePEM`.
    package var keyPEM: String {
        PEMDocument(label: "PRIVATE KEY", der: ECPrivateKeyDER.pkcs8(scalar: key.privateKey, publicKeyX963: key.publicKeyX963)).text
    }

    /// Issues a certificate for a TLS server, with a fresh P-256 key.
    ///
    /// The leaf has subject CN = the first DNS name (or the first address), a random
    /// positive 16-byte serial, validity from one day ago to 397 days from now, and the
    /// extensions clients check: basicConstraints CA:FALSE (critical), keyUsage
    /// digitalSignature (critical), extKeyUsage serverAuth, subjectAltName with every
    /// dNSName and iPAddress, subjectKeyIdentifier and authorityKeyIdentifier.
    /// - Parameters:
    ///   - dnsNames: host names, e.g. `localhost`, `api.example.com`.
    ///   - ipAddresses: 4-byte IPv4 or 16-byte IPv6 addresses (other lengths are skipped).
    ///   - now: the issue time (for tests).
    package func issueServerCertificate(
        dnsNames: [String], ipAddresses: [[UInt8]], now: Date = Date()
    ) -> (certificateDER: [UInt8], key: P256KeyPair) {
        let leafKey = P256KeyPair.generate()
        let addresses = ipAddresses.filter { $0.count == 4 || $0.count == 16 }
        let alternativeNames = dnsNames.map { DERWriter.contextSpecific(2, constructed: false, Array($0.utf8)) }
            + addresses.map { DERWriter.contextSpecific(7, constructed: false, $0) }
        let commonName = dnsNames.first ?? addresses.first.map(TestCertificateAuthority.addressText) ?? "localhost"
        var extensions = [
            TestCertificateAuthority.extensionField(DEROID.basicConstraints, critical: true, DERWriter.sequence()),
            TestCertificateAuthority.extensionField(DEROID.keyUsage, critical: true, DERWriter.namedBits([0])),  // digitalSignature
            TestCertificateAuthority.extensionField(DEROID.extendedKeyUsage, critical: false,
                                                    DERWriter.sequence(DERWriter.objectIdentifier(DEROID.serverAuthentication))),
            TestCertificateAuthority.extensionField(DEROID.subjectAltName, critical: false, DERWriter.element(DERTag.sequence, alternativeNames.flatMap { $0 })),
            TestCertificateAuthority.extensionField(DEROID.subjectKeyIdentifier, critical: false,
                                                    DERWriter.octetString(TestCertificateAuthority.keyIdentifier(leafKey.publicKeyX963))),
        ]
        if let keyIdentifier {
            extensions.append(TestCertificateAuthority.extensionField(
                DEROID.authorityKeyIdentifier, critical: false,
                DERWriter.sequence(DERWriter.contextSpecific(0, constructed: false, keyIdentifier))))
        }
        let certificate = TestCertificateAuthority.sign(
            issuer: subjectName, subject: TestCertificateAuthority.name(commonName: commonName), subjectKey: leafKey.publicKeyX963,
            extensions: extensions, notBefore: now - TestCertificateAuthority.backdating,
            notAfter: now + TestCertificateAuthority.serverCertificateLifetime, signer: key)
        return (certificate, leafKey)
    }

    /// Issues a certificate for a TLS client, with a fresh P-256 key: what a provider
    /// presents to a server (FakeAPNs adds Apple's push extensions in its own module).
    ///
    /// Subject: `UID` = `userID` (Apple puts the bundle id there) when given, then CN =
    /// `commonName`; a random positive 16-byte serial; basicConstraints CA:FALSE (critical),
    /// keyUsage digitalSignature (critical), extKeyUsage clientAuth, subjectKeyIdentifier,
    /// authorityKeyIdentifier, then `extraExtensions` in order.
    /// - Parameters:
    ///   - validity: notBefore…notAfter; by default one day ago to 397 days from `now`.
    ///   - extraExtensions: (OID contents bytes, critical, DER of the extnValue contents).
    package func issueClientCertificate(
        commonName: String, userID: String? = nil, extraExtensions: [(oid: [UInt8], critical: Bool, value: [UInt8])] = [],
        validity: ClosedRange<Date>? = nil, now: Date = Date()
    ) -> (certificateDER: [UInt8], key: P256KeyPair) {
        let leafKey = P256KeyPair.generate()
        var attributes: [[UInt8]] = []
        if let userID {
            attributes.append(DERWriter.set([DERWriter.sequence(DERWriter.objectIdentifier(DEROID.userID), DERWriter.utf8String(userID))]))
        }
        attributes.append(DERWriter.set([DERWriter.sequence(DERWriter.objectIdentifier(DEROID.commonName), DERWriter.utf8String(commonName))]))
        var extensions = [
            Self.extensionField(DEROID.basicConstraints, critical: true, DERWriter.sequence()),
            Self.extensionField(DEROID.keyUsage, critical: true, DERWriter.namedBits([0])),  // digitalSignature
            Self.extensionField(DEROID.extendedKeyUsage, critical: false, DERWriter.sequence(DERWriter.objectIdentifier(DEROID.clientAuthentication))),
            Self.extensionField(DEROID.subjectKeyIdentifier, critical: false, DERWriter.octetString(Self.keyIdentifier(leafKey.publicKeyX963))),
        ]
        if let keyIdentifier {
            extensions.append(Self.extensionField(DEROID.authorityKeyIdentifier, critical: false,
                                                  DERWriter.sequence(DERWriter.contextSpecific(0, constructed: false, keyIdentifier))))
        }
        extensions += extraExtensions.map { Self.extensionField($0.oid, critical: $0.critical, $0.value) }
        let dates = validity ?? (now - Self.backdating)...(now + Self.serverCertificateLifetime)
        let certificate = Self.sign(issuer: subjectName, subject: DERWriter.element(DERTag.sequence, attributes.flatMap { $0 }),
                                    subjectKey: leafKey.publicKeyX963, extensions: extensions,
                                    notBefore: dates.lowerBound, notAfter: dates.upperBound, signer: key)
        return (certificate, leafKey)
    }

    // MARK: - Building

    /// Name ::= SEQUENCE { SET { SEQUENCE { id-at-commonName, UTF8String } } }.
    private static func name(commonName: String) -> [UInt8] {
        DERWriter.sequence(DERWriter.set([DERWriter.sequence(DERWriter.objectIdentifier(DEROID.commonName), DERWriter.utf8String(commonName))]))
    }

    /// Extension ::= SEQUENCE { extnID, critical BOOLEAN DEFAULT FALSE, extnValue OCTET STRING }.
    private static func extensionField(_ oid: [UInt8], critical: Bool, _ value: [UInt8]) -> [UInt8] {
        DERWriter.sequence(DERWriter.objectIdentifier(oid), critical ? DERWriter.boolean(true) : [], DERWriter.octetString(value))
    }

    /// The leftmost 160 bits of SHA-256 of the subjectPublicKey bits (RFC 7093 §2, method 1).
    private static func keyIdentifier(_ publicKeyX963: [UInt8]) -> [UInt8] {
        Array(SHA256.hash(publicKeyX963).prefix(20))
    }

    /// The dotted or colon-separated form of an address, for a CN.
    private static func addressText(_ address: [UInt8]) -> String {
        if address.count == 4 { return address.map(String.init).joined(separator: ".") }
        return stride(from: 0, to: address.count, by: 2)
            .map { String(UInt16(address[$0]) << 8 | UInt16(address[$0 + 1]), radix: 16) }.joined(separator: ":")
    }

    /// TBSCertificate, signed: Certificate ::= SEQUENCE { tbs, ecdsa-with-SHA256, BIT STRING signature }.
    private static func sign(
        issuer: [UInt8], subject: [UInt8], subjectKey: [UInt8], extensions: [[UInt8]],
        notBefore: Date, notAfter: Date, signer: P256KeyPair
    ) -> [UInt8] {
        // A positive 16-byte serial: the top bit cleared, never all zero.
        var serial = secureRandomBytes(16)
        serial[0] = (serial[0] & 0x7f) | 0x01
        let algorithm = DERWriter.sequence(DERWriter.objectIdentifier(DEROID.ecdsaWithSHA256))
        let tbs = DERWriter.sequence(
            DERWriter.contextSpecific(0, constructed: true, DERWriter.element(DERTag.integer, [0x02])),  // v3
            DERWriter.element(DERTag.integer, serial),
            algorithm,
            issuer,
            DERWriter.sequence(DERWriter.time(notBefore), DERWriter.time(notAfter)),
            subject,
            DERWriter.p256SubjectPublicKeyInfo(subjectKey),
            DERWriter.contextSpecific(3, constructed: true, DERWriter.element(DERTag.sequence, extensions.flatMap { $0 })))
        return DERWriter.sequence(tbs, algorithm, DERWriter.bitString(signer.signatureDER(for: tbs)))
    }

    // MARK: - Reading a kept CA

    /// The first `PRIVATE KEY` or `EC PRIVATE KEY` block, checked: a P-256 scalar in 1..<n
    /// whose stored public key (if any) is its own.
    private static func readKey(_ pem: String) throws(CryptoEncodingError) -> P256KeyPair {
        let documents = try PEMDocument.parseAll(pem)
        guard let document = documents.first(where: { $0.label == "PRIVATE KEY" || $0.label == "EC PRIVATE KEY" }) else {
            throw CryptoEncodingError(.notPEM, "no 'PRIVATE KEY' or 'EC PRIVATE KEY' block in the CA key file (found \(documents.map(\.label)))")
        }
        let fields = document.label == "PRIVATE KEY" ? try ECPrivateKeyDER(pkcs8: document.der) : try ECPrivateKeyDER(sec1: document.der[...])
        if let curve = fields.namedCurve, Array(curve) != DEROID.prime256v1 {
            throw CryptoEncodingError(.unsupportedCurve, DEROID.dotted(curve))
        }
        let scalar = fields.scalar.drop { $0 == 0 }
        guard scalar.count <= 32, let pair = P256KeyPair(privateKey: [UInt8](repeating: 0, count: 32 - scalar.count) + scalar) else {
            throw CryptoEncodingError(.invalidPrivateKey, "the scalar must be 32 bytes between 1 and n − 1")
        }
        if let stored = fields.publicKey, Array(stored) != pair.publicKeyX963 {
            throw CryptoEncodingError(.keyMismatch, "the public key stored in the CA key file is not its private key's")
        }
        return pair
    }
}

/// What reusing a CA certificate needs from it: subject, public key, subjectKeyIdentifier.
private struct CertificateFields {
    /// The subject Name, whole (tag and length included), to copy as leaves' issuer.
    var subjectName: [UInt8]
    /// The X9.63 point of a P-256 SubjectPublicKeyInfo.
    var subjectPublicKey: ArraySlice<UInt8>
    /// The subjectKeyIdentifier's key identifier, if the extension is there.
    var subjectKeyIdentifier: ArraySlice<UInt8>?

    init(_ der: [UInt8]) throws(CryptoEncodingError) {
        var outer = DERReader(der)
        var certificate = DERReader(try outer.read(DERTag.sequence, "Certificate SEQUENCE"))
        var tbs = DERReader(try certificate.read(DERTag.sequence, "TBSCertificate SEQUENCE"))
        if tbs.peekTag == DERTag.contextZero {
            _ = try tbs.read(DERTag.contextZero, "version [0]")
        }
        _ = try tbs.read(DERTag.integer, "serialNumber INTEGER")
        _ = try tbs.read(DERTag.sequence, "signature AlgorithmIdentifier")
        _ = try tbs.read(DERTag.sequence, "issuer Name")
        _ = try tbs.read(DERTag.sequence, "validity SEQUENCE")
        // DER has one encoding per value, so re-wrapping the contents gives the original bytes.
        subjectName = DERWriter.element(DERTag.sequence, Array(try tbs.read(DERTag.sequence, "subject Name")))
        let spki = try tbs.read(DERTag.sequence, "subjectPublicKeyInfo")
        subjectPublicKey = try DERReader.readP256SubjectPublicKeyInfo(DERWriter.element(DERTag.sequence, Array(spki))[...])
        while let tag = tbs.peekTag, tag != 0xa3 {
            _ = try tbs.read(tag, "optional TBSCertificate field")
        }
        guard tbs.peekTag == 0xa3 else { return }
        var wrapper = DERReader(try tbs.read(0xa3, "extensions [3]"))
        var extensions = DERReader(try wrapper.read(DERTag.sequence, "Extensions SEQUENCE"))
        while !extensions.isAtEnd {
            var field = DERReader(try extensions.read(DERTag.sequence, "Extension SEQUENCE"))
            let oid = try field.read(DERTag.objectIdentifier, "extnID")
            if field.peekTag == 0x01 {
                _ = try field.read(0x01, "critical BOOLEAN")
            }
            var value = DERReader(try field.read(DERTag.octetString, "extnValue OCTET STRING"))
            if Array(oid) == DEROID.subjectKeyIdentifier {
                subjectKeyIdentifier = try value.read(DERTag.octetString, "KeyIdentifier OCTET STRING")
            }
        }
    }
}
