/// A public key FakeAPNs verifies provider-token (ES256 JWT) signatures with.
///
/// The crypto helper's `APNsPublicKey` conforms; a test may also supply its own key type.
public protocol ProviderTokenVerificationKey: Sendable {
    /// Whether `raw64` (the JWS signature: r ‖ s, 32 bytes each) signs `message`
    /// (the JWT signing input, `header.claims` in base64url).
    func isValidSignature(_ raw64: [UInt8], for message: [UInt8]) -> Bool
}

/// Splits a provider token into its parts without verifying it (``ProviderToken/decode(_:)``
/// by default), or says why it is not a well-formed provider token.
package typealias ProviderTokenDecoder = @Sendable (String) -> Result<DecodedProviderToken, ProviderTokenError>
