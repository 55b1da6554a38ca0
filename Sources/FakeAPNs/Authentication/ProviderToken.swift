// APNs provider tokens: JWTs (RFC 7519) signed with ES256 (RFC 7518 §3.4), in JWS compact
// form. Apple's spec: header {"alg": "ES256", "kid": key id}, claims {"iss": team id,
// "iat": issue time in seconds}.
import Contracts
import Foundation
import PushCrypto

/// Mints and decodes APNs provider tokens (ES256 JWTs).
///
/// ```swift
/// let key = APNsSigningKey.generate()
/// let token = ProviderToken.mint(keyID: "ABC123DEFG", teamID: "DEF123GHIJ", signingKey: key)
/// // send: "authorization: bearer \(token)"
/// ```
public enum ProviderToken {
    /// A signed provider token, ready for the `authorization: bearer` header.
    ///
    /// The signature is deterministic (RFC 6979): the same inputs always mint the same
    /// token, which keeps golden files and journals stable.
    /// - Parameters:
    ///   - keyID: the key id (`kid`), the 10 characters in the `.p8` file's name.
    ///   - teamID: the team id (`iss`).
    ///   - issuedAt: the `iat` claim, truncated to whole seconds; APNs rejects tokens older
    ///     than an hour, so tests of ExpiredProviderToken pass an old date.
    ///   - signingKey: the provider's private key.
    /// - Returns: `header.claims.signature`, each part base64url without padding.
    public static func mint(keyID: String, teamID: String, issuedAt: Date = Date(), signingKey: APNsSigningKey) -> String {
        let header = #"{"alg":"ES256","kid":"# + JSONTreeWriter.quoted(keyID) + "}"
        let claims = #"{"iss":"# + JSONTreeWriter.quoted(teamID) + #","iat":"# + String(seconds(issuedAt)) + "}"
        let signingInput = Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(Array(claims.utf8))
        let signature = signingKey.signature(for: Array(signingInput.utf8))
        return signingInput + "." + Base64URL.encode(signature)
    }

    /// Whole seconds since 1970, rounded down; clamped so no `Date` can trap the conversion.
    static func seconds(_ date: Date) -> Int64 {
        let interval = date.timeIntervalSince1970.rounded(.down)
        guard interval.isFinite else { return 0 }
        if interval >= 9.2e18 { return Int64.max }
        if interval <= -9.2e18 { return Int64.min }
        return Int64(interval)
    }
}
