import PushCrypto

// Reading and writing public keys as SubjectPublicKeyInfo (RFC 5280 / RFC 5480).

extension APNsPublicKey {
    /// Reads a PEM key: `PUBLIC KEY` (SPKI), or a private key (`PRIVATE KEY` as in Apple's
    /// `.p8`, or `EC PRIVATE KEY`) whose public key is derived — so the fake can be given
    /// the same file the sender signs with.
    /// - Throws: `APNsKeyError` naming what is wrong.
    public init(pemRepresentation: String) throws(APNsKeyError) {
        for document in try APNsKeyError.reading({ () throws(CryptoEncodingError) in try PEMDocument.parseAll(pemRepresentation) }) {
            switch document.label {
            case "PUBLIC KEY":
                self = try APNsPublicKey(derRepresentation: document.der)
                return
            case "PRIVATE KEY", "EC PRIVATE KEY":
                self = try APNsSigningKey(pemDocument: document).publicKey
                return
            case "EC PARAMETERS":
                continue
            default:
                throw .with(.unsupportedPEMLabel, document.label)
            }
        }
        throw .with(.unsupportedPEMLabel, "EC PARAMETERS (no key block follows)")
    }

    /// Reads a DER SubjectPublicKeyInfo holding a P-256 point.
    /// - Throws: `APNsKeyError` naming what is wrong.
    public init(derRepresentation der: [UInt8]) throws(APNsKeyError) {
        let point = try APNsKeyError.reading { () throws(CryptoEncodingError) in try DERReader.readP256SubjectPublicKeyInfo(der[...]) }
        try self.init(x963Representation: Array(point))
    }

    /// The DER SubjectPublicKeyInfo.
    public var derRepresentation: [UInt8] {
        DERWriter.p256SubjectPublicKeyInfo(x963Representation)
    }

    /// The SPKI PEM text (`-----BEGIN PUBLIC KEY-----`), as `openssl pkey -pubout` writes.
    public var pemRepresentation: String {
        PEMDocument(label: "PUBLIC KEY", der: derRepresentation).text
    }
}
