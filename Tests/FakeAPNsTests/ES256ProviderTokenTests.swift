import Foundation
import Testing
@testable import FakeAPNs

/// Provider tokens signed with real P-256 keys (the crypto helper's), verified by the fake.
@Suite struct ES256ProviderTokenTests {
    typealias T = APNsTestbed

    static func token(_ key: APNsSigningKey, keyID: String = T.keyID, teamID: String = T.teamID,
                      issuedAt: Int64 = T.start / 1000) -> String {
        let header = ProviderTokenShape.base64URLEncode(Array(#"{"alg":"ES256","kid":"\#(keyID)"}"#.utf8))
        let claims = ProviderTokenShape.base64URLEncode(Array(#"{"iss":"\#(teamID)","iat":\#(issuedAt)}"#.utf8))
        let input = header + "." + claims
        return input + "." + ProviderTokenShape.base64URLEncode(key.signature(for: Array(input.utf8)))
    }

    @Test func aTokenSignedWithTheRegisteredKeyIsAccepted() {
        let bed = T()
        let key = APNsSigningKey.generate()
        bed.fake.registerSigningKey(key.publicKey, keyID: T.keyID, teamID: T.teamID)
        let response = bed.fake.handle(T.push(headers: [("authorization", "bearer " + Self.token(key))]))
        #expect(response.status.code == 200)
    }

    @Test func aTokenSignedWithAnotherKeyIsInvalid() {
        let bed = T()
        bed.fake.registerSigningKey(APNsSigningKey.generate().publicKey, keyID: T.keyID, teamID: T.teamID)
        let response = bed.fake.handle(T.push(headers: [("authorization", "bearer " + Self.token(APNsSigningKey.generate()))]))
        #expect(reason(of: response) == "InvalidProviderToken")
    }

    @Test func aTamperedClaimIsInvalid() {
        let bed = T()
        let key = APNsSigningKey.generate()
        bed.fake.registerSigningKey(key.publicKey, keyID: T.keyID, teamID: T.teamID)
        let good = Self.token(key).split(separator: ".").map(String.init)
        let later = ProviderTokenShape.base64URLEncode(Array(#"{"iss":"\#(T.teamID)","iat":\#(T.start / 1000 + 60)}"#.utf8))
        let forged = [good[0], later, good[2]].joined(separator: ".")
        #expect(reason(of: bed.fake.handle(T.push(headers: [("authorization", "bearer " + forged)]))) == "InvalidProviderToken")
    }
}
