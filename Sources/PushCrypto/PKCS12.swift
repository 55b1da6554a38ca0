// PKCS#12 (RFC 7292) files as OpenSSL 3 writes them by default, so a certificate and its key
// can be handed to tools that want a `.p12` (Keychain Access, Java's keytool, node-apn's `pfx`,
// Python `cryptography`): PFX version 3; an AuthenticatedSafe of two ContentInfos, the
// certificate bag in an encryptedData and the key in a pkcs8ShroudedKeyBag, both encrypted
// with PBES2 (PBKDF2-HMAC-SHA256, AES-256-CBC, RFC 8018); the whole sealed with an
// HMAC-SHA256 MAC keyed by the PKCS#12 key derivation (RFC 7292 Appendix B, ID 3).
//
// Test-only like the rest of this module: it writes files for tests, it does not read them.

/// Writes PKCS#12 (`.p12` / `.pfx`) files holding one certificate and its private key.
///
/// ```swift
/// let p12 = PKCS12.archive(certificateDER: leaf, privateKeyInfo: pkcs8, friendlyName: "Sender: com.example.app",
///                          password: "secret")
/// // openssl pkcs12 -info -nodes -in file.p12 -passin pass:secret
/// ```
package enum PKCS12 {
    /// PBKDF2 and MAC iterations, OpenSSL 3's default (`PKCS12_DEFAULT_ITER`).
    package static let defaultIterations = 2048
    /// The most iterations `archive` accepts.
    package static let maximumIterations = 1_000_000
    /// Salt length for PBKDF2 and the MAC, OpenSSL's default (`PKCS5_SALT_LEN`).
    static let saltByteCount = 8

    /// A PFX holding `certificateDER` and `privateKeyInfo` (PKCS#8 DER), each bag carrying a
    /// localKeyId (SHA-256 of the certificate) that pairs them and, when given, a friendlyName.
    /// - Parameters:
    ///   - password: encrypts both bags and keys the MAC; may be empty (readers then accept
    ///     an empty password, and OpenSSL also no password at all).
    ///   - iterations: PBKDF2 and MAC iteration count (1…`maximumIterations`).
    /// - Returns: the DER of the PFX, or nil for an iteration count out of range.
    package static func archive(
        certificateDER: [UInt8], privateKeyInfo: [UInt8], friendlyName: String?, password: String,
        iterations: Int = defaultIterations
    ) -> [UInt8]? {
        guard (1...maximumIterations).contains(iterations) else { return nil }
        let passwordBytes = Array(password.utf8)
        var attributes = [attribute(DEROID.pkcs9LocalKeyID, DERWriter.octetString(SHA256.hash(certificateDER)))]
        if let friendlyName {
            attributes.append(attribute(DEROID.pkcs9FriendlyName, DERWriter.element(0x1e, bmpBytes(friendlyName))))
        }
        let certificateBag = safeBag(DEROID.pkcs12CertBag, DERWriter.sequence(
            DERWriter.objectIdentifier(DEROID.pkcs9X509Certificate),
            DERWriter.contextSpecific(0, constructed: true, DERWriter.octetString(certificateDER))), attributes: attributes)
        guard let certificates = pbes2Encrypt(DERWriter.sequence(certificateBag), password: passwordBytes, iterations: iterations),
              let key = pbes2Encrypt(privateKeyInfo, password: passwordBytes, iterations: iterations) else { return nil }
        let keyBag = safeBag(DEROID.pkcs12ShroudedKeyBag,
                             DERWriter.sequence(key.algorithm, DERWriter.octetString(key.ciphertext)), attributes: attributes)
        // EncryptedData { version 0, EncryptedContentInfo { data, algorithm, [0] IMPLICIT ciphertext } }.
        let encryptedData = DERWriter.sequence(
            DERWriter.element(DERTag.integer, [0x00]),
            DERWriter.sequence(DERWriter.objectIdentifier(DEROID.pkcs7Data), certificates.algorithm,
                               DERWriter.contextSpecific(0, constructed: false, certificates.ciphertext)))
        let authenticatedSafe = DERWriter.sequence(
            contentInfo(DEROID.pkcs7EncryptedData, encryptedData),
            contentInfo(DEROID.pkcs7Data, DERWriter.octetString(DERWriter.sequence(keyBag))))
        let macSalt = secureRandomBytes(saltByteCount)
        let macKey = keyDerivation(id: 3, password: bmpBytes(password) + [0, 0], salt: macSalt, iterations: iterations,
                                   length: SHA256.digestByteCount)
        let mac = HMACSHA256.authenticationCode(for: authenticatedSafe, key: macKey)
        let macData = DERWriter.sequence(
            DERWriter.sequence(DERWriter.sequence(DERWriter.objectIdentifier(DEROID.sha256), DERWriter.element(DERTag.null, [])),
                               DERWriter.octetString(mac)),
            DERWriter.octetString(macSalt),
            integer(iterations))
        return DERWriter.sequence(
            DERWriter.element(DERTag.integer, [0x03]),
            contentInfo(DEROID.pkcs7Data, DERWriter.octetString(authenticatedSafe)),
            macData)
    }

    /// PBES2 with a fresh salt and IV: the AlgorithmIdentifier (with its parameters) and the
    /// AES-256-CBC ciphertext of `plaintext`.
    static func pbes2Encrypt(_ plaintext: [UInt8], password: [UInt8], iterations: Int) -> (algorithm: [UInt8], ciphertext: [UInt8])? {
        let salt = secureRandomBytes(saltByteCount)
        let iv = secureRandomBytes(AESCBC.blockByteCount)
        guard let key = PBKDF2.deriveKey(password: password, salt: salt, iterations: iterations, length: 32),
              let ciphertext = AESCBC.encrypt(plaintext, key: key, iv: iv) else { return nil }
        let prf = DERWriter.sequence(DERWriter.objectIdentifier(DEROID.hmacWithSHA256), DERWriter.element(DERTag.null, []))
        let keyDerivation = DERWriter.sequence(DERWriter.objectIdentifier(DEROID.pbkdf2),
                                               DERWriter.sequence(DERWriter.octetString(salt), integer(iterations), prf))
        let scheme = DERWriter.sequence(DERWriter.objectIdentifier(DEROID.aes256CBC), DERWriter.octetString(iv))
        let algorithm = DERWriter.sequence(DERWriter.objectIdentifier(DEROID.pbes2), DERWriter.sequence(keyDerivation, scheme))
        return (algorithm, ciphertext)
    }

    /// SafeBag { bagId, [0] EXPLICIT bagValue, bagAttributes SET OF Attribute }.
    private static func safeBag(_ oid: [UInt8], _ value: [UInt8], attributes: [[UInt8]]) -> [UInt8] {
        DERWriter.sequence(DERWriter.objectIdentifier(oid), DERWriter.contextSpecific(0, constructed: true, value),
                           DERWriter.set(attributes))
    }

    /// PKCS12Attribute { attrId, attrValues SET OF (one value) }.
    private static func attribute(_ oid: [UInt8], _ value: [UInt8]) -> [UInt8] {
        DERWriter.sequence(DERWriter.objectIdentifier(oid), DERWriter.set([value]))
    }

    /// A non-negative INTEGER below 2³².
    private static func integer(_ value: Int) -> [UInt8] {
        DERWriter.unsignedInteger((0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) })
    }

    /// ContentInfo { contentType, [0] EXPLICIT content }.
    private static func contentInfo(_ oid: [UInt8], _ content: [UInt8]) -> [UInt8] {
        DERWriter.sequence(DERWriter.objectIdentifier(oid), DERWriter.contextSpecific(0, constructed: true, content))
    }

    /// UTF-16 big-endian (a BMPString's bytes; characters outside the BMP become surrogate
    /// pairs, as OpenSSL writes them).
    static func bmpBytes(_ text: String) -> [UInt8] {
        text.utf16.flatMap { [UInt8(truncatingIfNeeded: $0 >> 8), UInt8(truncatingIfNeeded: $0)] }
    }
}

extension DEROID {
    /// id-data, 1.2.840.113549.1.7.1.
    package static let pkcs7Data: [UInt8] = [0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x07, 0x01]
    /// id-encryptedData, 1.2.840.113549.1.7.6.
    package static let pkcs7EncryptedData: [UInt8] = [0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x07, 0x06]
    /// pkcs8ShroudedKeyBag, 1.2.840.113549.1.12.10.1.2.
    package static let pkcs12ShroudedKeyBag: [UInt8] = [0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x0c, 0x0a, 0x01, 0x02]
    /// certBag, 1.2.840.113549.1.12.10.1.3.
    package static let pkcs12CertBag: [UInt8] = [0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x0c, 0x0a, 0x01, 0x03]
    /// x509Certificate (certificate type of a CertBag), 1.2.840.113549.1.9.22.1.
    package static let pkcs9X509Certificate: [UInt8] = [0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x09, 0x16, 0x01]
    /// friendlyName, 1.2.840.113549.1.9.20.
    package static let pkcs9FriendlyName: [UInt8] = [0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x09, 0x14]
    /// localKeyId, 1.2.840.113549.1.9.21.
    package static let pkcs9LocalKeyID: [UInt8] = [0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x09, 0x15]
    /// PBES2, 1.2.840.113549.1.5.13.
    package static let pbes2: [UInt8] = [0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x05, 0x0d]
    /// PBKDF2, 1.2.840.113549.1.5.12.
    package static let pbkdf2: [UInt8] = [0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x05, 0x0c]
    /// hmacWithSHA256, 1.2.840.113549.2.9.
    package static let hmacWithSHA256: [UInt8] = [0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x02, 0x09]
    /// aes256-CBC, 2.16.840.1.101.3.4.1.42.
    package static let aes256CBC: [UInt8] = [0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x01, 0x2a]
    /// id-sha256, 2.16.840.1.101.3.4.2.1.
    package static let sha256: [UInt8] = [0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01]
}
