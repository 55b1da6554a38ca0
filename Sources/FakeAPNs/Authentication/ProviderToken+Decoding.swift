// Taking a provider token apart: shape, header and claims, before any signature check.
// The checks that need state (registered keys, the clock, the connection's last token)
// belong to the APNs validation; this only says whether the token is well formed.
import Contracts
import PushCrypto

/// A well-formed provider token, not yet verified.
package struct DecodedProviderToken: Sendable, Hashable {
    /// The header's `kid`.
    package var keyID: String
    /// The header's `alg` (always `"ES256"` once decoded).
    package var algorithm: String
    /// The `iss` claim: the team id.
    package var teamID: String
    /// The `iat` claim: seconds since 1970 (a fraction truncated, a digit string read).
    package var issuedAt: Int64
    /// How `iat` was read when it was not an integer, e.g. `iat 1796120505.432378 read as
    /// 1796120505`; nil for an integer.
    package var issuedAtReading: String?
    /// The bytes that were signed: the ASCII of `header.claims`.
    package var signingInput: [UInt8]
    /// The 64-byte r ‖ s signature.
    package var signature: [UInt8]

    /// A decoded token from its parts (for tests and for callers that decode elsewhere).
    package init(keyID: String, algorithm: String, teamID: String, issuedAt: Int64, issuedAtReading: String? = nil,
                 signingInput: [UInt8], signature: [UInt8]) {
        self.keyID = keyID
        self.algorithm = algorithm
        self.teamID = teamID
        self.issuedAt = issuedAt
        self.issuedAtReading = issuedAtReading
        self.signingInput = signingInput
        self.signature = signature
    }

    /// Whether the signature verifies under `key`.
    package func isSignatureValid(for key: APNsPublicKey) -> Bool {
        key.isValidSignature(signature, for: signingInput)
    }
}

extension ProviderToken {
    /// Decodes `token` (the text after `bearer `) without verifying it.
    ///
    /// Checks, in order: three parts, base64url, header is a JSON object with `alg` =
    /// `"ES256"` and a string `kid`, claims are a JSON object with a string `iss` and an
    /// `iat`, and a 64-byte signature. Extra header parameters (`typ`) and claims are
    /// allowed, as APNs allows them.
    ///
    /// `iat` is read as APNs reads it (senders have sent these forms to APNs for years):
    /// any JSON number, its fraction truncated (`1796120505.432378`, `1.7e9`), or a string
    /// of 1 to 18 decimal digits (`"1796120505"`); ``DecodedProviderToken/issuedAtReading``
    /// says how such a value was read. Anything else (`true`, `"soon"`, `"-1"`, a number
    /// outside ±9.2e18) is ``ProviderTokenError/illTypedIssuedAt``.
    package static func decode(_ token: some StringProtocol) -> Result<DecodedProviderToken, ProviderTokenError> {
        func fail(_ code: ProviderTokenError.Code, _ detail: String) -> Result<DecodedProviderToken, ProviderTokenError> {
            .failure(ProviderTokenError(code, detail))
        }
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { return fail(.notThreeParts, "\(parts.count)") }
        guard let headerBytes = Base64URL.decode(parts[0]) else { return fail(.badBase64URL, "header") }
        guard let claimsBytes = Base64URL.decode(parts[1]) else { return fail(.badBase64URL, "claims") }
        guard let signature = Base64URL.decode(parts[2]) else { return fail(.badBase64URL, "signature") }

        let header: [JSONMember]
        switch object(headerBytes) {
        case .success(let members): header = members
        case .failure(let problem): return fail(.headerNotJSON, problem.detail)
        }
        if let duplicate = duplicateKey(header) { return fail(.duplicateMember, "\"\(duplicate)\" in the header") }
        guard let algorithmValue = header.first(where: { $0.key == "alg" })?.value.value else {
            return fail(.algorithmNotES256, "missing")
        }
        guard algorithmValue.stringValue == "ES256" else {
            return fail(.algorithmNotES256, describe(algorithmValue))
        }
        guard let keyIDValue = header.first(where: { $0.key == "kid" })?.value.value else {
            return fail(.missingKeyID, "no \"kid\"")
        }
        guard let keyID = keyIDValue.stringValue, !keyID.isEmpty else {
            return fail(.missingKeyID, "\"kid\": \(describe(keyIDValue))")
        }

        let claims: [JSONMember]
        switch object(claimsBytes) {
        case .success(let members): claims = members
        case .failure(let problem): return fail(.claimsNotJSON, problem.detail)
        }
        if let duplicate = duplicateKey(claims) { return fail(.duplicateMember, "\"\(duplicate)\" in the claims") }
        guard let issuerValue = claims.first(where: { $0.key == "iss" })?.value.value else {
            return .failure(.missingIssuer)
        }
        guard let teamID = issuerValue.stringValue, !teamID.isEmpty else {
            return fail(.illTypedIssuer, describe(issuerValue))
        }
        guard let issuedAtValue = claims.first(where: { $0.key == "iat" })?.value.value else {
            return .failure(.missingIssuedAt)
        }
        guard let (issuedAt, issuedAtReading) = readIssuedAt(issuedAtValue) else {
            return fail(.illTypedIssuedAt, describe(issuedAtValue))
        }

        guard signature.count == 64 else { return fail(.signatureNotSixtyFourBytes, "\(signature.count)") }
        let signingInput = Array(token.utf8.prefix(parts[0].utf8.count + 1 + parts[1].utf8.count))
        return .success(DecodedProviderToken(
            keyID: keyID, algorithm: "ES256", teamID: teamID, issuedAt: issuedAt, issuedAtReading: issuedAtReading,
            signingInput: signingInput, signature: signature))
    }

    /// `iat` in seconds and, when it was not an integer literal, how it was read; nil when
    /// it is neither a number nor a string of decimal digits, or does not fit `Int64`.
    private static func readIssuedAt(_ value: JSONValue) -> (Int64, String?)? {
        switch value {
        case .number(let number):
            if number.isIntegerLiteral {
                return number.integerValue.map { ($0, nil) }
            }
            // Truncated toward zero; ±9.2e18 keeps the conversion from trapping.
            let whole = number.doubleValue.rounded(.towardZero)
            guard whole.isFinite, abs(whole) < 9.2e18 else { return nil }
            let seconds = Int64(whole)
            return (seconds, "iat \(number.literal) read as \(seconds)")
        case .string(let text):
            let digits = text.utf8
            guard (1...18).contains(digits.count), digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
                  let seconds = Int64(text) else { return nil }
            return (seconds, "iat \"\(text)\" read as \(seconds)")
        default:
            return nil
        }
    }

    /// Why a part is not a JSON object.
    private struct NotAnObject: Error {
        var detail: String
    }

    /// The members of a JSON object, or why the bytes are not one.
    private static func object(_ bytes: [UInt8]) -> Result<[JSONMember], NotAnObject> {
        do {
            let node = try JSONReader.parse(bytes, maxDepth: 16)
            guard let members = node.value.objectMembers else {
                return .failure(NotAnObject(detail: "found \(describe(node.value)) instead of an object"))
            }
            return .success(members)
        } catch {
            return .failure(NotAnObject(detail: error.description))
        }
    }

    private static func duplicateKey(_ members: [JSONMember]) -> String? {
        var seen: Set<String> = []
        for member in members where !seen.insert(member.key).inserted {
            return member.key
        }
        return nil
    }

    /// A short rendering of a JSON value for error messages.
    private static func describe(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool(let flag): flag ? "true" : "false"
        case .number(let number): "the number \(number.literal)"
        case .string(let text): text.count > 40 ? "\"\(text.prefix(40))…\"" : "\"\(text)\""
        case .array: "an array"
        case .object: "an object"
        }
    }
}
