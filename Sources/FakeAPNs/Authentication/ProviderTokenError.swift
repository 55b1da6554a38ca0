import PushCore

// Why a provider token could not be decoded. FakeAPNs answers every one of these with
// 403 InvalidProviderToken; the description goes to the journal so a test sees why.

/// A provider token (JWT) is malformed.
///
/// Compare with the static members (`error == .notThreeParts`); `detail` says what was found
/// and `description` a whole sentence, with what a correct token has there.
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
    /// What was found: a count, a part's name, the parser's complaint, a member, a value.
    package let detail: String

    init(_ code: Code, _ detail: String = "") {
        self.code = code
        self.detail = detail
    }

    /// Not `header.claims.signature`; `detail` is the number of parts.
    package static var notThreeParts: Self { Self(.notThreeParts) }
    /// A part is not unpadded base64url; `detail` names the part.
    package static var badBase64URL: Self { Self(.badBase64URL) }
    /// The header is not a JSON object; `detail` is the parser's complaint.
    package static var headerNotJSON: Self { Self(.headerNotJSON) }
    /// The claims are not a JSON object; `detail` is the parser's complaint.
    package static var claimsNotJSON: Self { Self(.claimsNotJSON) }
    /// The header or the claims name a member twice (RFC 7515 §4: reject or take the last;
    /// rejecting keeps the fake from disagreeing with APNs about which one counts); `detail`
    /// names the member and the part.
    package static var duplicateMember: Self { Self(.duplicateMember) }
    /// `alg` is missing or not `"ES256"`; `detail` is what it is.
    package static var algorithmNotES256: Self { Self(.algorithmNotES256) }
    /// `kid` is missing, empty or not a string; `detail` says which.
    package static var missingKeyID: Self { Self(.missingKeyID) }
    /// The `iss` claim (team id) is missing.
    package static var missingIssuer: Self { Self(.missingIssuer) }
    /// `iss` is not a string, or is empty; `detail` is what it is.
    package static var illTypedIssuer: Self { Self(.illTypedIssuer) }
    /// The `iat` claim is missing.
    package static var missingIssuedAt: Self { Self(.missingIssuedAt) }
    /// `iat` is neither a number of seconds nor a string of decimal digits; `detail` is what it is.
    package static var illTypedIssuedAt: Self { Self(.illTypedIssuedAt) }
    /// The signature does not decode to the 64 bytes of ES256's r ‖ s; `detail` is its length.
    package static var signatureNotSixtyFourBytes: Self { Self(.signatureNotSixtyFourBytes) }

    /// What was wrong and what a correct token has there.
    package var message: String {
        switch code {
        case .notThreeParts:
            "a provider token is three base64url parts separated by '.' (header.claims.signature); found \(detail)"
        case .badBase64URL:
            "the \(detail) part is not unpadded base64url (A–Z a–z 0–9 - _, no '=')"
        case .headerNotJSON:
            "the header is not a JSON object: \(detail)"
        case .claimsNotJSON:
            "the claims are not a JSON object: \(detail)"
        case .duplicateMember:
            "the member \(detail) appears more than once"
        case .algorithmNotES256:
            "the header's alg is \(detail); APNs provider tokens are signed with \"ES256\""
        case .missingKeyID:
            "the header has \(detail); it needs \"kid\": the 10-character key id of the .p8 key"
        case .missingIssuer:
            "the claims have no \"iss\"; it must be your 10-character team id"
        case .illTypedIssuer:
            "the claim \"iss\" is \(detail); it must be a non-empty string, your team id"
        case .missingIssuedAt:
            "the claims have no \"iat\"; it must be the issue time in seconds since 1970"
        case .illTypedIssuedAt:
            "the claim \"iat\" is \(detail); it must be the issue time in seconds since 1970, a number (e.g. 1796120505) or a string of decimal digits"
        case .signatureNotSixtyFourBytes:
            "the signature is \(detail) bytes; ES256 signatures are 64 bytes (r ‖ s, not DER)"
        }
    }
}
