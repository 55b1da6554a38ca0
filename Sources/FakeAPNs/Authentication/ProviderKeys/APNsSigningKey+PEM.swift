import PushCrypto

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
        for document in try APNsKeyError.reading({ () throws(CryptoEncodingError) in try PEMDocument.parseAll(pemRepresentation) }) where document.label != "EC PARAMETERS" {
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
        let fields = try APNsKeyError.reading { () throws(CryptoEncodingError) in try ECPrivateKeyDER(pkcs8: der) }
        try self.init(ecPrivateKey: fields, curveKnown: true)
    }

    /// Reads a DER ECPrivateKey (SEC1).
    init(sec1 der: ArraySlice<UInt8>, curveKnown: Bool) throws(APNsKeyError) {
        let fields = try APNsKeyError.reading { () throws(CryptoEncodingError) in try ECPrivateKeyDER(sec1: der) }
        try self.init(ecPrivateKey: fields, curveKnown: curveKnown)
    }

    /// Checks the values of an ECPrivateKey: a P-256 curve, a valid scalar, and a stored
    /// public key (if any) that matches it.
    private init(ecPrivateKey fields: ECPrivateKeyDER, curveKnown: Bool) throws(APNsKeyError) {
        let scalarBytes = fields.scalar
        guard (1...32).contains(scalarBytes.count) else {
            throw .with(.invalidPrivateKey, "expected a 32-byte scalar, found \(scalarBytes.count) bytes — is this a P-256 key?")
        }
        // RFC 5915 fixes the length at 32; some encoders drop leading zero bytes.
        let raw = [UInt8](repeating: 0, count: 32 - scalarBytes.count) + scalarBytes
        if let curve = fields.namedCurve {
            guard Array(curve) == DEROID.prime256v1 else { throw .with(.unsupportedCurve, DEROID.dotted(curve)) }
        } else if !curveKnown, scalarBytes.count != 32 {
            throw .with(.malformedDER, "ECPrivateKey names no curve and its scalar is not 32 bytes")
        }
        let storedPublicKey = try fields.publicKey.map { point throws(APNsKeyError) in
            try APNsPublicKey(x963Representation: Array(point))
        }
        try self.init(rawRepresentation: raw)
        if let storedPublicKey, storedPublicKey != publicKey {
            throw .publicKeyMismatch
        }
    }

    /// The DER PKCS#8 encoding, with the public key included as Apple's `.p8` files do.
    public var derRepresentation: [UInt8] {
        ECPrivateKeyDER.pkcs8(scalar: rawRepresentation, publicKeyX963: publicKey.x963Representation)
    }

    /// The PKCS#8 PEM text (`-----BEGIN PRIVATE KEY-----`), the format of Apple's `.p8`
    /// files, so a test can write one for a sender under test to read.
    public var pemRepresentation: String {
        PEMDocument(label: "PRIVATE KEY", der: derRepresentation).text
    }
}
