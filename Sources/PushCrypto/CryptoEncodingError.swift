// Why PEM or DER bytes could not be read. Equality is on the kind of problem; `detail`
// names what was found, so a caller (FakeAPNs's key reader) can word its own message.

/// PEM text or DER bytes (keys, certificates, signatures) could not be read.
///
/// Compare with the static members (`error == .malformedDER`); `detail` says what was found
/// (a label, an OID, where the structure broke) and `description` a whole sentence.
package struct CryptoEncodingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kinds; `==` compares these.
    package enum Code: Hashable, Sendable {
        case notPEM, invalidBase64, encryptedPEM, malformedDER, unsupportedAlgorithm, unsupportedCurve,
             invalidPrivateKey, keyMismatch, invalidRSAKey
    }

    package let code: Code
    /// What was found: a PEM label, a dotted OID, or where the DER structure broke.
    package let detail: String

    package init(_ code: Code, _ detail: String) {
        self.code = code
        self.detail = detail
    }

    /// No well-formed `-----BEGIN …-----` / `-----END …-----` block; `detail` says why
    /// (empty when no block was found at all).
    package static var notPEM: Self { Self(.notPEM, "") }
    /// The body of a PEM block is not base64; `detail` is the block's label.
    package static var invalidBase64: Self { Self(.invalidBase64, "") }
    /// A PEM block carries RFC 1421 headers (an encrypted key); `detail` is its label.
    package static var encryptedPEM: Self { Self(.encryptedPEM, "") }
    /// Truncated DER, or not the expected ASN.1 shape.
    package static var malformedDER: Self { Self(.malformedDER, "") }
    /// A key's algorithm is not id-ecPublicKey; `detail` is the dotted OID.
    package static var unsupportedAlgorithm: Self { Self(.unsupportedAlgorithm, "") }
    /// An EC key's curve is not prime256v1; `detail` is the dotted OID.
    package static var unsupportedCurve: Self { Self(.unsupportedCurve, "") }

    /// A private scalar is not 1…32 bytes or not in 1..<n; `detail` says which.
    package static var invalidPrivateKey: Self { Self(.invalidPrivateKey, "") }
    /// An RSA public key this package does not take: not rsaEncryption, a modulus outside
    /// 1024…4096 bits or even, an exponent even, 1 or wider than 64 bits; `detail` says which.
    package static var invalidRSAKey: Self { Self(.invalidRSAKey, "") }
    /// A public key stored with a private key, or a certificate's key, is not the key's own;
    /// `detail` names the two.
    package static var keyMismatch: Self { Self(.keyMismatch, "") }

    /// A sentence for logs and test output.
    package var message: String {
        switch code {
        case .notPEM:
            "not PEM: " + (detail.isEmpty ? "no '-----BEGIN …-----' / '-----END …-----' block found" : detail)
        case .invalidBase64:
            "the body of the PEM block '\(detail)' is not valid base64 — the file may be truncated or edited"
        case .encryptedPEM:
            "the PEM block '\(detail)' is encrypted — decrypt it first (`openssl pkey -in key.pem -out plain.pem`)"
        case .malformedDER:
            "malformed DER: \(detail)"
        case .unsupportedAlgorithm:
            "key algorithm \(detail) is not id-ecPublicKey (1.2.840.10045.2.1)"
        case .unsupportedCurve:
            "curve \(detail) is not prime256v1 (1.2.840.10045.3.1.7)"
        case .invalidPrivateKey:
            "invalid P-256 private key: \(detail)"
        case .invalidRSAKey:
            "unsupported RSA public key: \(detail)"
        case .keyMismatch:
            "\(detail) — the files do not belong together"
        }
    }

    // The shape of PushCore's `CodedError`, written out because this module depends on
    // nothing: equal and hashed on the kind alone, described by the message.
    package static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }
    package func hash(into hasher: inout Hasher) { hasher.combine(code) }
    package var description: String { message }
}
