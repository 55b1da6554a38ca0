@testable import PushCrypto
import Contracts
import Foundation
import Testing
@testable import FakeAPNs

/// Provider tokens signed with real P-256 keys (the crypto helper's), verified by the fake.
@Suite struct ES256ProviderTokenTests {
    typealias T = APNsTestbed

    static func token(_ key: APNsSigningKey, issuedAt: Int64 = T.start / 1000) -> String {
        ProviderToken.mint(keyID: T.keyID, teamID: T.teamID,
                           issuedAt: Date(timeIntervalSince1970: Double(issuedAt)), signingKey: key)
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
        let later = Base64URL.encode(Array(#"{"iss":"\#(T.teamID)","iat":\#(T.start / 1000 + 60)}"#.utf8))
        let forged = [good[0], later, good[2]].joined(separator: ".")
        #expect(reason(of: bed.fake.handle(T.push(headers: [("authorization", "bearer " + forged)]))) == "InvalidProviderToken")
        #expect(bed.fake.journal.last?.detail?.contains("signature") == true)
    }

    @Test func aPEMPublicKeyCanBeRegistered() throws {
        let bed = T()
        let key = APNsSigningKey.generate()
        bed.fake.registerSigningKey(try APNsPublicKey(pemRepresentation: key.publicKey.pemRepresentation),
                                    keyID: T.keyID, teamID: T.teamID)
        #expect(bed.fake.handle(T.push(headers: [("authorization", "bearer " + Self.token(key))])).status.code == 200)
    }
}
