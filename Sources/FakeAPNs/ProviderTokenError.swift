import PushCore

// Why a provider token could not be decoded. FakeAPNs answers every one of these with
// 403 InvalidProviderToken; the description goes to the journal so a test sees why.

/// A provider token (JWT) is malformed.
///
/// Compare with the static members (`error == .notThreeParts`); `description` says what
/// was found.
package struct ProviderTokenError: Error, Hashable, Sendable, CustomStringConvertible, CodedError {
    package enum Code: Hashable, Sendable {
        case notThreeParts
        case badBase64URL
        case headerNotJSON
        case claimsNotJSON
        case duplicateMember
        case algorithmNotES256
        case missingKeyID
        case missingIssuer
        case illTypedIssuer
        case missingIssuedAt
        case illTypedIssuedAt
        case signatureNotSixtyFourBytes
    }

    package let code: Code
    /// What was wrong and what a correct token has there.
    package let message: String

    private init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// Not `header.claims.signature`.
    package static var notThreeParts: Self { .notThreeParts(0) }
    /// A part is not unpadded base64url.
    package static var badBase64URL: Self { .badBase64URL("") }
    /// The header is not a JSON object.
    package static var headerNotJSON: Self { .headerNotJSON("") }
    /// The claims are not a JSON object.
    package static var claimsNotJSON: Self { .claimsNotJSON("") }
    /// The header or the claims name a member twice (RFC 7515 §4: reject or take the last;
    /// rejecting keeps the fake from disagreeing with APNs about which one counts).
    package static var duplicateMember: Self { .duplicateMember("", "") }
    /// `alg` is missing or not `"ES256"`.
    package static var algorithmNotES256: Self { .algorithmNotES256("") }
    /// `kid` is missing, empty or not a string.
    package static var missingKeyID: Self { .missingKeyID("") }
    /// The `iss` claim (team id) is missing.
    package static var missingIssuer: Self {
        Self(.missingIssuer, "the claims have no \"iss\"; it must be your 10-character team id")
    }
    /// `iss` is not a string, or is empty.
    package static var illTypedIssuer: Self { .illTypedIssuer("") }
    /// The `iat` claim is missing.
    package static var missingIssuedAt: Self {
        Self(.missingIssuedAt, "the claims have no \"iat\"; it must be the issue time in seconds since 1970")
    }
    /// `iat` is neither a number of seconds nor a string of decimal digits.
    package static var illTypedIssuedAt: Self { .illTypedIssuedAt("") }
    /// The signature does not decode to the 64 bytes of ES256's r ‖ s.
    package static var signatureNotSixtyFourBytes: Self { .signatureNotSixtyFourBytes(0) }

    static func notThreeParts(_ count: Int) -> Self {
        Self(.notThreeParts, "a provider token is three base64url parts separated by '.' (header.claims.signature); found \(count)")
    }

    static func badBase64URL(_ part: String) -> Self {
        Self(.badBase64URL, "the \(part) part is not unpadded base64url (A–Z a–z 0–9 - _, no '=')")
    }

    static func headerNotJSON(_ detail: String) -> Self {
        Self(.headerNotJSON, "the header is not a JSON object: \(detail)")
    }

    static func claimsNotJSON(_ detail: String) -> Self {
        Self(.claimsNotJSON, "the claims are not a JSON object: \(detail)")
    }

    static func duplicateMember(_ part: String, _ key: String) -> Self {
        Self(.duplicateMember, "the member \"\(key)\" appears more than once in the \(part)")
    }

    static func algorithmNotES256(_ found: String) -> Self {
        Self(.algorithmNotES256, "the header's alg is \(found); APNs provider tokens are signed with \"ES256\"")
    }

    static func missingKeyID(_ detail: String) -> Self {
        Self(.missingKeyID, "the header has \(detail); it needs \"kid\": the 10-character key id of the .p8 key")
    }

    static func illTypedIssuer(_ found: String) -> Self {
        Self(.illTypedIssuer, "the claim \"iss\" is \(found); it must be a non-empty string, your team id")
    }

    static func illTypedIssuedAt(_ found: String) -> Self {
        Self(.illTypedIssuedAt, "the claim \"iat\" is \(found); it must be the issue time in seconds since 1970, a number (e.g. 1796120505) or a string of decimal digits")
    }

    static func signatureNotSixtyFourBytes(_ count: Int) -> Self {
        Self(.signatureNotSixtyFourBytes, "the signature is \(count) bytes; ES256 signatures are 64 bytes (r ‖ s, not DER)")
    }
}
