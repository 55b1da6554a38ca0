// Reading and writing public keys as SubjectPublicKeyInfo (RFC 5280 / RFC 5480).

extension APNsPublicKey {
    /// Reads a PEM key: `PUBLIC KEY` (SPKI), or a private key (`PRIVATE KEY` as in Apple's
    /// `.p8`, or `EC PRIVATE KEY`) whose public key is derived — so the fake can be given
    /// the same file the sender signs with.
    /// - Throws: `APNsKeyError` naming what is wrong.
    public init(pemRepresentation: String) throws(APNsKeyError) {
        for document in try PEMDocument.parseAll(pemRepresentation) {
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
        var outer = DERReader(der)
        var info = DERReader(try outer.read(DERTag.sequence, "SubjectPublicKeyInfo SEQUENCE"))
        try outer.expectEnd("SubjectPublicKeyInfo")
        try info.readP256AlgorithmIdentifier()
        let point = try info.readBitStringBytes("subjectPublicKey BIT STRING")
        try info.expectEnd("SubjectPublicKeyInfo")
        try self.init(x963Representation: Array(point))
    }

    /// The DER SubjectPublicKeyInfo.
    public var derRepresentation: [UInt8] {
        DERWriter.sequence(
            DERWriter.p256AlgorithmIdentifier,
            DERWriter.element(DERTag.bitString, [0x00] + x963Representation))
    }

    /// The SPKI PEM text (`-----BEGIN PUBLIC KEY-----`), as `openssl pkey -pubout` writes.
    public var pemRepresentation: String {
        PEMDocument(label: "PUBLIC KEY", der: derRepresentation).text
    }
}
