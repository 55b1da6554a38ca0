// Reading and writing signing keys: Apple's .p8 (PKCS#8, RFC 5208) with an ECPrivateKey
// (SEC1 / RFC 5915) inside, and bare SEC1 `EC PRIVATE KEY` files as OpenSSL writes them.

extension APNsSigningKey {
    /// Reads a PEM private key: `PRIVATE KEY` (PKCS#8, the `.p8` file Apple issues) or
    /// `EC PRIVATE KEY` (SEC1). An `EC PARAMETERS` block before it is skipped.
    ///
    /// If the file also stores the public key, it must match the one derived from the
    /// private key.
    /// - Throws: `APNsKeyError` naming what is wrong (not PEM, wrong key type or curve,
    ///   malformed DER, invalid scalar, mismatching public key).
    public init(pemRepresentation: String) throws(APNsKeyError) {
        for document in try PEMDocument.parseAll(pemRepresentation) where document.label != "EC PARAMETERS" {
            self = try APNsSigningKey(pemDocument: document)
            return
        }
        throw .with(.unsupportedPEMLabel, "EC PARAMETERS (no key block follows)")
    }

    /// Reads one `PRIVATE KEY` or `EC PRIVATE KEY` block.
    init(pemDocument document: PEMDocument) throws(APNsKeyError) {
        switch document.label {
        case "PRIVATE KEY":
            self = try APNsSigningKey(derRepresentation: document.der)
        case "EC PRIVATE KEY":
            self = try APNsSigningKey(sec1: document.der[...], curveKnown: false)
        case "PUBLIC KEY":
            throw .publicKeyWhereSigningKeyExpected()
        default:
            throw .with(.unsupportedPEMLabel, document.label)
        }
    }

    /// Reads a DER PKCS#8 `PrivateKeyInfo` holding a P-256 key.
    /// - Throws: `APNsKeyError` naming what is wrong.
    public init(derRepresentation der: [UInt8]) throws(APNsKeyError) {
        var outer = DERReader(der)
        var info = DERReader(try outer.read(DERTag.sequence, "PrivateKeyInfo SEQUENCE"))
        try outer.expectEnd("PrivateKeyInfo")
        let version = try info.readSmallInteger("PrivateKeyInfo version")
        guard version == 0 || version == 1 else { throw .with(.malformedDER, "PrivateKeyInfo version \(version), expected 0") }
        try info.readP256AlgorithmIdentifier()
        let privateKey = try info.read(DERTag.octetString, "privateKey OCTET STRING")
        // Optional attributes [0] and (version 2) publicKey [1] follow; they carry nothing we need.
        self = try APNsSigningKey(sec1: privateKey, curveKnown: true)
    }

    /// Reads an ECPrivateKey { version 1, privateKey, [0] parameters, [1] publicKey }.
    init(sec1 der: ArraySlice<UInt8>, curveKnown: Bool) throws(APNsKeyError) {
        var outer = DERReader(der)
        var key = DERReader(try outer.read(DERTag.sequence, "ECPrivateKey SEQUENCE"))
        try outer.expectEnd("ECPrivateKey")
        let version = try key.readSmallInteger("ECPrivateKey version")
        guard version == 1 else { throw .with(.malformedDER, "ECPrivateKey version \(version), expected 1") }
        let scalarBytes = try key.read(DERTag.octetString, "privateKey OCTET STRING")
        guard (1...32).contains(scalarBytes.count) else {
            throw .with(.invalidPrivateKey, "expected a 32-byte scalar, found \(scalarBytes.count) bytes — is this a P-256 key?")
        }
        // RFC 5915 fixes the length at 32; some encoders drop leading zero bytes.
        let raw = [UInt8](repeating: 0, count: 32 - scalarBytes.count) + scalarBytes
        if key.peekTag == DERTag.contextZero {
            var parameters = DERReader(try key.read(DERTag.contextZero, "parameters [0]"))
            let curve = try parameters.read(DERTag.objectIdentifier, "namedCurve OBJECT IDENTIFIER")
            guard Array(curve) == DEROID.prime256v1 else { throw .with(.unsupportedCurve, DEROID.dotted(curve)) }
        } else if !curveKnown, scalarBytes.count != 32 {
            throw .with(.malformedDER, "ECPrivateKey names no curve and its scalar is not 32 bytes")
        }
        var storedPublicKey: APNsPublicKey?
        if key.peekTag == DERTag.contextOne {
            var wrapper = DERReader(try key.read(DERTag.contextOne, "publicKey [1]"))
            let point = try wrapper.readBitStringBytes("publicKey BIT STRING")
            storedPublicKey = try APNsPublicKey(x963Representation: Array(point))
        }
        try key.expectEnd("ECPrivateKey")
        try self.init(rawRepresentation: raw)
        if let storedPublicKey, storedPublicKey != publicKey {
            throw .publicKeyMismatch
        }
    }

    /// The DER PKCS#8 encoding, with the public key included as Apple's `.p8` files do.
    public var derRepresentation: [UInt8] {
        let ecPrivateKey = DERWriter.sequence(
            DERWriter.element(DERTag.integer, [0x01]),
            DERWriter.element(DERTag.octetString, rawRepresentation),
            DERWriter.element(DERTag.contextOne, DERWriter.element(DERTag.bitString, [0x00] + publicKey.x963Representation)))
        return DERWriter.sequence(
            DERWriter.element(DERTag.integer, [0x00]),
            DERWriter.p256AlgorithmIdentifier,
            DERWriter.element(DERTag.octetString, ecPrivateKey))
    }

    /// The PKCS#8 PEM text (`-----BEGIN PRIVATE KEY-----`), the format of Apple's `.p8`
    /// files, so a test can write one for a sender under test to read.
    public var pemRepresentation: String {
        PEMDocument(label: "PRIVATE KEY", der: derRepresentation).text
    }
}
