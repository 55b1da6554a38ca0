import PushCore
import PushCrypto

// Why a key (PEM, DER, raw bytes) could not be read. Equality is on the kind of problem;
// the description carries the details and what to do about them.

/// A signing or public key could not be read.
///
/// Compare with the static members (`error == .notPEM`); `description` names what was found
/// and how to fix it.
public struct APNsKeyError: Error, Hashable, Sendable, CustomStringConvertible, CodedError {
    /// The kinds; `==` compares these, the message carries the details.
    package enum Code: Hashable, Sendable {
        case notPEM, unsupportedPEMLabel, invalidBase64, malformedDER, unsupportedAlgorithm,
             unsupportedCurve, invalidPrivateKey, invalidPublicKey, publicKeyMismatch,
             malformedSignature
    }

    package let code: Code
    /// What was wrong, where, and what to do next.
    package let message: String

    /// No `-----BEGIN …-----` / `-----END …-----` block was found.
    public static var notPEM: APNsKeyError { .with(.notPEM, "") }
    /// The PEM block is of a kind this reader does not take (e.g. `RSA PRIVATE KEY`).
    public static var unsupportedPEMLabel: APNsKeyError { .with(.unsupportedPEMLabel, "?") }
    /// The PEM body is not valid base64.
    public static var invalidBase64: APNsKeyError { .with(.invalidBase64, "") }
    /// The DER structure is truncated or not the expected ASN.1 shape.
    public static var malformedDER: APNsKeyError { .with(.malformedDER, "") }
    /// The key is not an elliptic-curve key (algorithm OID is not id-ecPublicKey).
    public static var unsupportedAlgorithm: APNsKeyError { .with(.unsupportedAlgorithm, "") }
    /// The key is on a curve other than P-256 (prime256v1).
    public static var unsupportedCurve: APNsKeyError { .with(.unsupportedCurve, "") }
    /// The private scalar is not 32 bytes or not in 1..<n.
    public static var invalidPrivateKey: APNsKeyError { .with(.invalidPrivateKey, "") }
    /// The public point is not an uncompressed point on P-256.
    public static var invalidPublicKey: APNsKeyError { .with(.invalidPublicKey, "") }
    /// The public key stored beside a private key is not the one it derives.
    public static var publicKeyMismatch: APNsKeyError { .with(.publicKeyMismatch, "") }
    /// A DER ECDSA signature is not SEQUENCE { INTEGER r, INTEGER s } with 32-byte values.
    public static var malformedSignature: APNsKeyError { .with(.malformedSignature, "") }

    /// An error of kind `code` about `detail` (what was found: a label, an OID, a reason).
    static func with(_ code: Code, _ detail: String) -> APNsKeyError {
        APNsKeyError(code: code, message: message(code, detail))
    }

    static func publicKeyWhereSigningKeyExpected() -> APNsKeyError {
        APNsKeyError(code: .unsupportedPEMLabel, message: "this is a public key ('PUBLIC KEY'), which cannot sign — pass the private key, the .p8 file ('PRIVATE KEY')")
    }

    /// Every kind's message: what was wrong, where, and what to do next.
    private static func message(_ code: Code, _ detail: String) -> String {
        switch code {
        case .notPEM:
            let problem = detail.isEmpty ? "no '-----BEGIN …-----' / '-----END …-----' block found" : detail
            return "not a PEM key: \(problem) — pass the whole text of the .p8 file Apple issued (from '-----BEGIN PRIVATE KEY-----' to '-----END PRIVATE KEY-----')"
        case .unsupportedPEMLabel where detail == "ENCRYPTED PRIVATE KEY" || detail.hasSuffix("(encrypted)"):
            return "the key is encrypted — decrypt it first: `openssl pkcs8 -in key.p8 -out plain.p8` (Apple's .p8 files are not encrypted)"
        case .unsupportedPEMLabel:
            return "unsupported PEM block '\(detail)' — expected 'PRIVATE KEY' (PKCS#8, Apple's .p8), 'EC PRIVATE KEY' (SEC1) or 'PUBLIC KEY' (SPKI)"
        case .invalidBase64:
            return "the body of the PEM block '\(detail)' is not valid base64 — the file may be truncated or edited"
        case .malformedDER:
            return "malformed DER: \(detail) — the key file is truncated, edited, or not a key"
        case .unsupportedAlgorithm:
            return "key algorithm \(detail) is not id-ecPublicKey (1.2.840.10045.2.1) — APNs provider keys are EC P-256 keys (ES256)"
        case .unsupportedCurve:
            return "curve \(detail) is not prime256v1 (1.2.840.10045.3.1.7) — ES256 needs a P-256 key, e.g. `openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256`"
        case .invalidPrivateKey:
            return "invalid P-256 private key: \(detail)"
        case .invalidPublicKey:
            return "invalid P-256 public key: \(detail)"
        case .publicKeyMismatch:
            return "the public key stored in the private key file does not match its private key — the file is corrupt or was assembled from two keys"
        case .malformedSignature:
            return "malformed DER ECDSA signature: \(detail)"
        }
    }
}

extension APNsKeyError {
    /// The same kind of problem, read by LoopbackHTTP's PEM/DER code, in this type's words.
    init(_ error: CryptoEncodingError) {
        switch error.code {
        case .notPEM: self = .with(.notPEM, error.detail)
        case .invalidBase64: self = .with(.invalidBase64, error.detail)
        case .encryptedPEM: self = .with(.unsupportedPEMLabel, "\(error.detail) (encrypted)")
        case .malformedDER: self = .with(.malformedDER, error.detail)
        case .unsupportedAlgorithm, .invalidRSAKey: self = .with(.unsupportedAlgorithm, error.detail)
        case .unsupportedCurve: self = .with(.unsupportedCurve, error.detail)
        case .invalidPrivateKey: self = .with(.invalidPrivateKey, error.detail)
        case .keyMismatch: self = .publicKeyMismatch
        }
    }

    /// Runs PEM/DER reading code and throws its errors as `APNsKeyError`s.
    static func reading<T>(_ body: () throws(CryptoEncodingError) -> T) throws(APNsKeyError) -> T {
        do {
            return try body()
        } catch {
            throw APNsKeyError(error)
        }
    }
}
