@testable import PushCore
@testable import PushCrypto
import Contracts
import FakeAPNs
import Foundation
import Testing

@Suite struct ProviderTokenSigningTests {
    static let key: APNsSigningKey? = try? APNsSigningKey(rawRepresentation: ProviderKeyECDSATests.privateKey)
    static let issuedAt = Date(timeIntervalSince1970: 1_700_000_000)

    /// Computed independently (a Python RFC 6979 + P-256 script) for the RFC 6979 A.2.5
    /// key: our token must match it byte for byte.
    static let expectedToken = "eyJhbGciOiJFUzI1NiIsImtpZCI6IkFCQzEyM0RFRkcifQ"
        + ".eyJpc3MiOiJERUYxMjNHSElKIiwiaWF0IjoxNzAwMDAwMDAwfQ"
        + ".2UY659mmI-kanULhIhaMxVcDTuhgEKDVmwBbnsFzr682dQD2KtgLureLuXr5iR8ZNdjyMvuVEgiueFbGDam53A"

    @Test func mintMatchesIndependentImplementation() throws {
        let key = try #require(Self.key)
        let token = ProviderToken.mint(keyID: "ABC123DEFG", teamID: "DEF123GHIJ", issuedAt: Self.issuedAt, signingKey: key)
        #expect(token == Self.expectedToken)
    }

    @Test func mintDecodeVerifyRoundTrip() throws {
        let key = APNsSigningKey.generate()
        let token = ProviderToken.mint(keyID: "KEY0000001", teamID: "TEAM000001",
                                       issuedAt: Date(timeIntervalSince1970: 1_700_000_123.9), signingKey: key)
        let decoded = try ProviderToken.decode(token).get()
        #expect(decoded.keyID == "KEY0000001")
        #expect(decoded.algorithm == "ES256")
        #expect(decoded.teamID == "TEAM000001")
        #expect(decoded.issuedAt == 1_700_000_123, "iat is truncated to whole seconds")
        #expect(decoded.signature.count == 64)
        #expect(decoded.signingInput == Array(token.split(separator: ".").prefix(2).joined(separator: ".").utf8))
        #expect(decoded.isSignatureValid(for: key.publicKey))
        #expect(!decoded.isSignatureValid(for: APNsSigningKey.generate().publicKey))
    }

    @Test func headerAndClaimsAreExactlyApplesShape() throws {
        let key = try #require(Self.key)
        let token = ProviderToken.mint(keyID: "ABC123DEFG", teamID: "DEF123GHIJ", issuedAt: Self.issuedAt, signingKey: key)
        let parts = token.split(separator: ".").map { Base64URL.decode($0).map { String(decoding: $0, as: UTF8.self) } }
        #expect(parts.count == 3)
        #expect(parts.first == #"{"alg":"ES256","kid":"ABC123DEFG"}"#)
        #expect(parts.dropFirst().first == #"{"iss":"DEF123GHIJ","iat":1700000000}"#)
        #expect(!token.contains("="))
    }

    @Test func oddIdentifiersAreEscapedAndSurvive() throws {
        let key = APNsSigningKey.generate()
        let token = ProviderToken.mint(keyID: "a\"b\\c\nd\u{1}", teamID: "téam", issuedAt: Self.issuedAt, signingKey: key)
        let decoded = try ProviderToken.decode(token).get()
        #expect(decoded.keyID == "a\"b\\c\nd\u{1}")
        #expect(decoded.teamID == "téam")
        #expect(decoded.isSignatureValid(for: key.publicKey))
    }

    @Test func tamperedTokensDoNotVerify() throws {
        let key = try #require(Self.key)
        let parts = Self.expectedToken.split(separator: ".").map(String.init)
        // Same header, different claims (a later iat) with the old signature.
        let laterClaims = Base64URL.encode(Array(#"{"iss":"DEF123GHIJ","iat":1700000001}"#.utf8))
        let forged = try ProviderToken.decode(parts[0] + "." + laterClaims + "." + parts[2]).get()
        #expect(!forged.isSignatureValid(for: key.publicKey))
        #expect(try ProviderToken.decode(Self.expectedToken).get().isSignatureValid(for: key.publicKey))
    }

    /// Changing any one character of a valid token (seeded sample of positions) makes it
    /// malformed or makes verification fail: canonical base64url means every change alters
    /// the signed bytes or the signature.
    @Test func everySingleCharacterChangeIsCaught() throws {
        let key = try #require(Self.key)
        let token = Array(Self.expectedToken.utf8)
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.=".utf8)
        var random = SplitMix64(seed: 0x5eed_7013)
        for _ in 0..<48 {
            let position = Int(random.next() % UInt64(token.count))
            var replacement = alphabet[Int(random.next() % UInt64(alphabet.count))]
            if replacement == token[position] { replacement = token[position] == 0x41 ? 0x42 : 0x41 }
            var mutated = token
            mutated[position] = replacement
            if case .success(let decoded) = ProviderToken.decode(String(decoding: mutated, as: UTF8.self)) {
                #expect(!decoded.isSignatureValid(for: key.publicKey), "position \(position) → \(replacement)")
            }
        }
    }

    // MARK: Malformed tokens

    static let goodSignature = [UInt8](repeating: 7, count: 64)

    static func token(_ header: String, _ claims: String, signature: [UInt8] = goodSignature) -> String {
        Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(Array(claims.utf8)) + "." + Base64URL.encode(signature)
    }

    static let header = #"{"alg":"ES256","kid":"ABC123DEFG"}"#
    static let claims = #"{"iss":"DEF123GHIJ","iat":1700000000}"#

    struct Malformed: Sendable, CustomStringConvertible {
        var description: String
        var token: String
        var error: ProviderTokenError
    }

    static let malformed: [Malformed] = [
        Malformed(description: "empty", token: "", error: .notThreeParts),
        Malformed(description: "two parts", token: "eyJhIjoxfQ.eyJhIjoxfQ", error: .notThreeParts),
        Malformed(description: "four parts", token: token(header, claims) + ".AA", error: .notThreeParts),
        Malformed(description: "padded header", token: "e30=." + Base64URL.encode(Array(claims.utf8)) + ".AA", error: .badBase64URL),
        Malformed(description: "standard base64 in signature",
                  token: Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(Array(claims.utf8)) + ".ab+/",
                  error: .badBase64URL),
        Malformed(description: "space in claims", token: "e30.e3 0.AA", error: .badBase64URL),
        Malformed(description: "header not JSON", token: token("not json", claims), error: .headerNotJSON),
        Malformed(description: "header an array", token: token(#"["ES256"]"#, claims), error: .headerNotJSON),
        Malformed(description: "header trailing comma", token: token(#"{"alg":"ES256",}"#, claims), error: .headerNotJSON),
        Malformed(description: "alg missing", token: token(#"{"kid":"ABC123DEFG"}"#, claims), error: .algorithmNotES256),
        Malformed(description: "alg HS256", token: token(#"{"alg":"HS256","kid":"ABC123DEFG"}"#, claims), error: .algorithmNotES256),
        Malformed(description: "alg none", token: token(#"{"alg":"none","kid":"ABC123DEFG"}"#, claims), error: .algorithmNotES256),
        Malformed(description: "alg lowercase", token: token(#"{"alg":"es256","kid":"ABC123DEFG"}"#, claims), error: .algorithmNotES256),
        Malformed(description: "duplicate alg",
                  token: token(#"{"alg":"ES256","kid":"ABC123DEFG","alg":"none"}"#, claims), error: .duplicateMember),
        Malformed(description: "kid missing", token: token(#"{"alg":"ES256"}"#, claims), error: .missingKeyID),
        Malformed(description: "kid a number", token: token(#"{"alg":"ES256","kid":42}"#, claims), error: .missingKeyID),
        Malformed(description: "kid empty", token: token(#"{"alg":"ES256","kid":""}"#, claims), error: .missingKeyID),
        Malformed(description: "claims not JSON", token: token(header, "{iss:1}"), error: .claimsNotJSON),
        Malformed(description: "claims a string", token: token(header, #""DEF123GHIJ""#), error: .claimsNotJSON),
        Malformed(description: "iss missing", token: token(header, #"{"iat":1700000000}"#), error: .missingIssuer),
        Malformed(description: "iss a number", token: token(header, #"{"iss":12345,"iat":1700000000}"#), error: .illTypedIssuer),
        Malformed(description: "iss null", token: token(header, #"{"iss":null,"iat":1700000000}"#), error: .illTypedIssuer),
        Malformed(description: "iat missing", token: token(header, #"{"iss":"DEF123GHIJ"}"#), error: .missingIssuedAt),
        Malformed(description: "iat a word", token: token(header, #"{"iss":"DEF123GHIJ","iat":"soon"}"#), error: .illTypedIssuedAt),
        Malformed(description: "iat a signed string", token: token(header, #"{"iss":"DEF123GHIJ","iat":"-1"}"#), error: .illTypedIssuedAt),
        Malformed(description: "iat a fractional string", token: token(header, #"{"iss":"DEF123GHIJ","iat":"1700000000.5"}"#), error: .illTypedIssuedAt),
        Malformed(description: "iat an empty string", token: token(header, #"{"iss":"DEF123GHIJ","iat":""}"#), error: .illTypedIssuedAt),
        Malformed(description: "iat 19 digits", token: token(header, #"{"iss":"DEF123GHIJ","iat":"1234567890123456789"}"#), error: .illTypedIssuedAt),
        Malformed(description: "iat true", token: token(header, #"{"iss":"DEF123GHIJ","iat":true}"#), error: .illTypedIssuedAt),
        Malformed(description: "iat overflows Int64", token: token(header, #"{"iss":"DEF123GHIJ","iat":99999999999999999999}"#), error: .illTypedIssuedAt),
        Malformed(description: "iat 1e300", token: token(header, #"{"iss":"DEF123GHIJ","iat":1e300}"#), error: .illTypedIssuedAt),
        Malformed(description: "duplicate iat",
                  token: token(header, #"{"iss":"DEF123GHIJ","iat":1700000000,"iat":1}"#), error: .duplicateMember),
        Malformed(description: "empty signature", token: token(header, claims, signature: []), error: .signatureNotSixtyFourBytes),
        Malformed(description: "63-byte signature", token: token(header, claims, signature: Array(goodSignature.dropLast())),
                  error: .signatureNotSixtyFourBytes),
        Malformed(description: "DER signature",
                  token: token(header, claims, signature: ProviderKeyEncodingTests.opensslSignatureDER), error: .signatureNotSixtyFourBytes),
    ]

    @Test(arguments: malformed)
    func malformedTokenIsRejected(_ example: Malformed) {
        switch ProviderToken.decode(example.token) {
        case .success(let decoded):
            Issue.record("decoded \(decoded)")
        case .failure(let error):
            #expect(error == example.error, "\(error)")
            #expect(!error.description.isEmpty)
        }
    }

    /// `iat` as senders send it to APNs: `time.time()` (apns2-up, pyapns-client), a digit
    /// string (kalyke), an exponent.
    @Test(arguments: [
        (#"1700000000"#, Int64(1_700_000_000), nil),
        (#"1700000000.432378"#, 1_700_000_000, "iat 1700000000.432378 read as 1700000000"),
        (#"1.7e9"#, 1_700_000_000, "iat 1.7e9 read as 1700000000"),
        (#""1700000000""#, 1_700_000_000, #"iat "1700000000" read as 1700000000"#),
        (#"-0.5"#, 0, "iat -0.5 read as 0"),
    ] as [(String, Int64, String?)])
    func issuedAtIsReadAsAPNsReadsIt(_ literal: String, _ seconds: Int64, _ reading: String?) throws {
        let token = Self.token(Self.header, #"{"iss":"DEF123GHIJ","iat":"# + literal + "}")
        let decoded = try ProviderToken.decode(token).get()
        #expect(decoded.issuedAt == seconds)
        #expect(decoded.issuedAtReading == reading)
    }

    @Test func extraHeaderParametersAndClaimsAreAllowed() throws {
        let token = Self.token(#"{"typ":"JWT","alg":"ES256","kid":"ABC123DEFG"}"#,
                               #"{"iss":"DEF123GHIJ","iat":1700000000,"exp":1700003600}"#)
        let decoded = try ProviderToken.decode(token).get()
        #expect(decoded.keyID == "ABC123DEFG")
        #expect(decoded.issuedAt == 1_700_000_000)
    }

    // MARK: base64url

    @Test func base64URLRoundTripsEveryLength() {
        for length in 0..<20 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 250) }
            let text = Base64URL.encode(bytes)
            #expect(!text.contains("=") && !text.contains("+") && !text.contains("/"))
            #expect(Base64URL.decode(text) == bytes, "length \(length)")
        }
        #expect(Base64URL.encode([0xfb, 0xff]) == "-_8")
    }

    @Test(arguments: ["A", "AAAAA", "QR", "QUF", "AA==", "A A", "ab+/", "é"])
    func base64URLRejects(_ text: String) {
        // "QR" and "QUF" carry non-zero leftover bits: not the canonical encoding of any bytes.
        #expect(Base64URL.decode(text) == nil)
    }
}
