/// A public key FakeAPNs verifies provider-token (ES256 JWT) signatures with.
///
/// The crypto helper's `APNsPublicKey` conforms; a test may also supply its own key type.
public protocol ProviderTokenVerificationKey: Sendable {
    /// Whether `raw64` (the JWS signature: r ‖ s, 32 bytes each) signs `message`
    /// (the JWT signing input, `header.claims` in base64url).
    func isValidSignature(_ raw64: [UInt8], for message: [UInt8]) -> Bool
}

/// What the fake reads out of a provider token before it verifies the signature.
package struct ProviderTokenParts: Sendable, Hashable {
    package var keyID: String
    package var algorithm: String
    package var teamID: String
    package var issuedAt: Int64
    package var signingInput: [UInt8]
    package var signature: [UInt8]

    package init(keyID: String, algorithm: String, teamID: String, issuedAt: Int64, signingInput: [UInt8], signature: [UInt8]) {
        self.keyID = keyID
        self.algorithm = algorithm
        self.teamID = teamID
        self.issuedAt = issuedAt
        self.signingInput = signingInput
        self.signature = signature
    }
}

/// Splits a JWT into its parts, or nil when it is not a well-formed provider token.
package typealias ProviderTokenDecoder = @Sendable (String) -> ProviderTokenParts?
