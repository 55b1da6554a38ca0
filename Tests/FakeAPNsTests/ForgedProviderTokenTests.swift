@testable import PushCore
import Contracts
import LoopbackHTTP
import Testing
@testable import FakeAPNs

/// Forged provider tokens (issue 13 vector 6): before, every request with a token that
/// failed verification was verified again (P-256, ~0.5 ms each) and errors never closed
/// the connection, so 20,000 forged requests of 26 bytes cost 11.6 s of the loop's CPU.
@Suite struct ForgedProviderTokenTests {
    typealias T = APNsTestbed

    /// A key that counts its verifications and accepts nothing.
    final class CountingKey: ProviderTokenVerificationKey, Sendable {
        let verifications = Locked(0)
        func isValidSignature(_ raw64: [UInt8], for message: [UInt8]) -> Bool {
            verifications.withLock { $0 += 1 }
            return false
        }
    }

    static func forged(_ token: String, connection: UInt64 = 7) -> HTTPRequest {
        T.push(headers: [("authorization", "bearer " + token)], connection: connection)
    }

    @Test func theSameForgedTokenIsVerifiedOncePerConnection() {
        let bed = T { $0.goAwayAfterProviderTokenFailures = nil }
        let key = CountingKey()
        bed.fake.registerSigningKey(key, keyID: "FORGED0001", teamID: T.teamID)
        let token = T.providerToken(keyID: "FORGED0001")
        for _ in 0..<50 {
            let answer = bed.fake.handle(Self.forged(token))
            #expect(answer.status.code == 403)
            #expect(reason(of: answer) == "InvalidProviderToken")
        }
        #expect(key.verifications.snapshot == 1)
        // The journal still says why, for the cached answers too.
        #expect(bed.fake.journal.last?.detail?.contains("does not verify") == true)
        // Another connection verifies for itself; a newly registered key clears the cache.
        _ = bed.fake.handle(Self.forged(token, connection: 8))
        #expect(key.verifications.snapshot == 2)
        bed.fake.registerSigningKey(key, keyID: "FORGED0001", teamID: T.teamID)
        _ = bed.fake.handle(Self.forged(token))
        #expect(key.verifications.snapshot == 3)
    }

    @Test func theCacheOfFailedTokensIsBounded() {
        let bed = T { $0.goAwayAfterProviderTokenFailures = nil }
        let key = CountingKey()
        bed.fake.registerSigningKey(key, keyID: "FORGED0001", teamID: T.teamID)
        for second in 0..<100 {
            _ = bed.fake.handle(Self.forged(T.providerToken(keyID: "FORGED0001", issuedAt: T.start / 1000 - Int64(second))))
        }
        #expect(key.verifications.snapshot == 100)
        let remembered = bed.fake.state.withLock { $0.authentication.connections[7]?.failedTokens.count }
        #expect(remembered == FakeAPNs.failedTokensRemembered)
    }

    @Test func refusedTokensEndTheConnectionWithGoAwayByDefault() {
        let bed = T()
        let limit = FakeAPNs.Configuration().goAwayAfterProviderTokenFailures
        #expect(limit == 100)
        let token = T.providerToken(signature: Array(repeating: 0x11, count: 64))
        var answers: [HTTPResponse] = []
        for _ in 0..<100 { answers.append(bed.fake.handle(Self.forged(token))) }
        #expect(answers.dropLast().allSatisfy { $0.disposition == .send && $0.status.code == 403 })
        #expect(answers.last?.disposition == .goAway(debugData: Array(#"{"reason":"InvalidProviderToken"}"#.utf8)))
        #expect(bed.fake.journal.last?.detail?.contains("100 provider tokens refused") == true)
        // A good token on the same connection is served as before.
        #expect(bed.fake.handle(T.push(connection: 7)).status.code == 200)
    }
}
