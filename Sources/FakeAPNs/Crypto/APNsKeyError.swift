import LoopbackHTTP

// Why a key (PEM, DER, raw bytes) could not be read. Equality is on the kind of problem;
// the description carries the details and what to do about them.

/// A signing or public key could not be read.
///
/// Compare with the static members (`error == .notPEM`); `description` names what was found
/// and how to fix it.
public struct APNsKeyError: Error, Hashable, Sendable, CustomStringConvertible, CodedError {
    package enum Code: Hashable, Sendable {
        case notPEM
        case unsupportedPEMLabel
        case invalidBase64
        case malformedDER
        case unsupportedAlgorithm
        case unsupportedCurve
        case invalidPrivateKey
        case invalidPublicKey
        case publicKeyMismatch
        case malformedSignature
    }

    package let code: Code
    /// What was wrong, where, and what to do next.
    package let message: String

    private init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// No `-----BEGIN …-----` / `-----END …-----` block was found.
    public static var notPEM: APNsKeyError { .notPEM("") }
    /// The PEM block is of a kind this reader does not take (e.g. `RSA PRIVATE KEY`).
    public static var unsupportedPEMLabel: APNsKeyError { .unsupportedPEMLabel("?") }
    /// The PEM body is not valid base64.
    public static var invalidBase64: APNsKeyError { .invalidBase64("") }
    /// The DER structure is truncated or not the expected ASN.1 shape.
    public static var malformedDER: APNsKeyError { .malformedDER("") }
    /// The key is not an elliptic-curve key (algorithm OID is not id-ecPublicKey).
    public static var unsupportedAlgorithm: APNsKeyError { .unsupportedAlgorithm("") }
    /// The key is on a curve other than P-256 (prime256v1).
    public static var unsupportedCurve: APNsKeyError { .unsupportedCurve("") }
    /// The private scalar is not 32 bytes or not in 1..<n.
    public static var invalidPrivateKey: APNsKeyError { .invalidPrivateKey("") }
    /// The public point is not an uncompressed point on P-256.
    public static var invalidPublicKey: APNsKeyError { .invalidPublicKey("") }
    /// The public key stored beside a private key is not the one it derives.
    public static var publicKeyMismatch: APNsKeyError {
        APNsKeyError(.publicKeyMismatch, "the public key stored in the private key file does not match its private key — the file is corrupt or was assembled from two keys")
    }
    /// A DER ECDSA signature is not SEQUENCE { INTEGER r, INTEGER s } with 32-byte values.
    public static var malformedSignature: APNsKeyError { .malformedSignature("") }

    static func notPEM(_ detail: String) -> APNsKeyError {
        let problem = detail.isEmpty ? "no '-----BEGIN …-----' / '-----END …-----' block found" : detail
        return APNsKeyError(.notPEM, "not a PEM key: \(problem) — pass the whole text of the .p8 file Apple issued (from '-----BEGIN PRIVATE KEY-----' to '-----END PRIVATE KEY-----')")
    }

    static func unsupportedPEMLabel(_ label: String) -> APNsKeyError {
        if label == "ENCRYPTED PRIVATE KEY" || label.hasSuffix("(encrypted)") {
            return APNsKeyError(.unsupportedPEMLabel, "the key is encrypted — decrypt it first: `openssl pkcs8 -in key.p8 -out plain.p8` (Apple's .p8 files are not encrypted)")
        }
        return APNsKeyError(.unsupportedPEMLabel, "unsupported PEM block '\(label)' — expected 'PRIVATE KEY' (PKCS#8, Apple's .p8), 'EC PRIVATE KEY' (SEC1) or 'PUBLIC KEY' (SPKI)")
    }

    static func publicKeyWhereSigningKeyExpected() -> APNsKeyError {
        APNsKeyError(.unsupportedPEMLabel, "this is a public key ('PUBLIC KEY'), which cannot sign — pass the private key, the .p8 file ('PRIVATE KEY')")
    }

    static func invalidBase64(_ label: String) -> APNsKeyError {
        APNsKeyError(.invalidBase64, "the body of the PEM block '\(label)' is not valid base64 — the file may be truncated or edited")
    }

    static func malformedDER(_ detail: String) -> APNsKeyError {
        APNsKeyError(.malformedDER, "malformed DER: \(detail) — the key file is truncated, edited, or not a key")
    }

    static func unsupportedAlgorithm(_ oid: String) -> APNsKeyError {
        APNsKeyError(.unsupportedAlgorithm, "key algorithm \(oid) is not id-ecPublicKey (1.2.840.10045.2.1) — APNs provider keys are EC P-256 keys (ES256)")
    }

    static func unsupportedCurve(_ oid: String) -> APNsKeyError {
        APNsKeyError(.unsupportedCurve, "curve \(oid) is not prime256v1 (1.2.840.10045.3.1.7) — ES256 needs a P-256 key, e.g. `openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256`")
    }

    static func invalidPrivateKey(_ detail: String) -> APNsKeyError {
        APNsKeyError(.invalidPrivateKey, "invalid P-256 private key: \(detail)")
    }

    static func invalidPublicKey(_ detail: String) -> APNsKeyError {
        APNsKeyError(.invalidPublicKey, "invalid P-256 public key: \(detail)")
    }

    static func malformedSignature(_ detail: String) -> APNsKeyError {
        APNsKeyError(.malformedSignature, "malformed DER ECDSA signature: \(detail)")
    }
}
