@testable import PushCore
import Contracts
import Foundation
import LoopbackHTTP
import Testing
@testable import FakeAPNs

/// Issue 37: a new provider token's signature is verified outside the state lock, and what
/// changed while it was verified (the key, the connection's token) decides the answer.
@Suite struct ProviderTokenOutsideLockTests {
    typealias T = APNsTestbed
    static let probeKeyID = "PROBE00001"

    /// A key that, while it verifies (the first time), has another thread do `during` with
    /// the fake and waits for it, at most 10 s. Under the state lock `during` could not
    /// finish before the verification returns: the wait would time out and note `false`.
    final class ProbingKey: ProviderTokenVerificationKey, Sendable {
        let verdict: Bool
        let during: Locked<(@Sendable () -> Void)?>
        /// Per verification: whether `during` finished while the verification waited.
        let finishedDuring = Locked<[Bool]>([])

        init(verdict: Bool, during: @escaping @Sendable () -> Void) {
            self.verdict = verdict
            self.during = Locked(during)
        }

        func isValidSignature(_ raw64: [UInt8], for message: [UInt8]) -> Bool {
            guard let work = during.withLock({ d -> (@Sendable () -> Void)? in defer { d = nil }; return d }) else {
                finishedDuring.withLock { $0.append(true) }
                return verdict
            }
            let done = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                work()
                done.signal()
            }
            let finished = done.wait(timeout: .now() + 10) == .success
            finishedDuring.withLock { $0.append(finished) }
            return verdict
        }
    }

    static func push(_ token: String, connection: UInt64 = 7) -> HTTPRequest {
        T.push(headers: [("authorization", "bearer " + token)], connection: connection)
    }

    @Test func anotherCallCompletesWhileATokenIsVerified() {
        let bed = T()
        let key = ProbingKey(verdict: true, during: { [fake = bed.fake] in
            fake.register(token: String(repeating: "cd", count: 32), topic: T.topic)
            _ = fake.journal.count
        })
        bed.fake.registerSigningKey(key, keyID: Self.probeKeyID, teamID: T.teamID)
        let token = T.providerToken(keyID: Self.probeKeyID)
        #expect(bed.fake.handle(Self.push(token)).status.code == 200)
        #expect(key.finishedDuring.snapshot == [true])
        // The connection remembers the verified token: the next request verifies nothing.
        #expect(bed.fake.handle(Self.push(token)).status.code == 200)
        #expect(key.finishedDuring.snapshot == [true])
        #expect(bed.fake.handle(Self.push(token, connection: 8)).status.code == 200)
        #expect(key.finishedDuring.snapshot == [true, true])
    }

    /// Only the token a connection knows is answered in one critical section (issue 41): a
    /// new token on a connection that verified another is verified outside the lock too, and
    /// the critical section that found it new changed nothing (no journal entry, no sequence
    /// number taken).
    @Test func aNewTokenOnAVerifiedConnectionIsVerifiedOutsideTheLock() {
        let bed = T()
        #expect(bed.fake.handle(Self.push(T.providerToken())).status.code == 200)
        let key = ProbingKey(verdict: true, during: { [fake = bed.fake] in _ = fake.journal.count })
        bed.fake.registerSigningKey(key, keyID: Self.probeKeyID, teamID: T.teamID)
        _ = bed.fake.handle(Self.push(T.providerToken(keyID: Self.probeKeyID)))
        #expect(key.finishedDuring.snapshot == [true])
        #expect(bed.fake.journal.map(\.sequence) == [1, 2])
    }

    /// Every journal entry names its provider token's last 16 characters, whether the token
    /// is new or the connection's own (whose fingerprint is kept with it, issue 41), and a
    /// connection's new token is named as itself.
    @Test func everyEntryFingerprintsItsOwnToken() {
        let bed = T()
        let key = ProbingKey(verdict: true, during: {})
        bed.fake.registerSigningKey(key, keyID: Self.probeKeyID, teamID: T.teamID)
        let first = T.providerToken(), second = T.providerToken(keyID: Self.probeKeyID, signature: [UInt8](repeating: 7, count: 64))
        let tokens = [(first, 7), (first, 7), (second, 8), (first, 7), (second, 8), (second, 7), (first, 8)]
        for (token, connection) in tokens { _ = bed.fake.handle(Self.push(token, connection: UInt64(connection))) }
        #expect(first.suffix(16) != second.suffix(16))
        #expect(bed.fake.journal.map(\.providerTokenFingerprint) == tokens.map { Optional(String($0.0.suffix(16))) })
    }

    /// The answer to a new token of the probing key while `change` runs on the fake.
    static func answer(while change: @escaping @Sendable (FakeAPNs) -> Void) -> (bed: T, key: ProbingKey, answer: HTTPResponse) {
        let bed = T { $0.goAwayAfterProviderTokenFailures = nil }
        let key = ProbingKey(verdict: true, during: { [fake = bed.fake] in change(fake) })
        bed.fake.registerSigningKey(key, keyID: probeKeyID, teamID: T.teamID)
        return (bed, key, bed.fake.handle(push(T.providerToken(keyID: probeKeyID))))
    }

    @Test func aKeyRemovedDuringTheVerificationRefusesTheToken() {
        let (bed, key, answer) = Self.answer { $0.removeSigningKey(keyID: Self.probeKeyID) }
        #expect(key.finishedDuring.snapshot == [true])
        #expect(answer.status.code == 403)
        #expect(reason(of: answer) == "InvalidProviderToken")
        #expect(bed.fake.journal.last?.detail?.contains("no signing key is registered with kid \(Self.probeKeyID)") == true)
    }

    @Test func aKeyReplacedDuringTheVerificationIsVerifiedAgain() {
        let replacement = ForgedProviderTokenTests.CountingKey()
        let (bed, key, answer) = Self.answer { $0.registerSigningKey(replacement, keyID: Self.probeKeyID, teamID: T.teamID) }
        #expect(key.finishedDuring.snapshot == [true])
        #expect(replacement.verifications.snapshot == 1)
        #expect(reason(of: answer) == "InvalidProviderToken")
        #expect(bed.fake.journal.last?.detail?.contains("does not verify under key \(Self.probeKeyID)") == true)
    }

    /// A request of the same connection installs another token while this one is verified:
    /// this one is then a too-early update, as if it had arrived after that request.
    @Test func aTokenInstalledMeanwhileOnTheConnectionCounts() {
        let bed = T()
        let key = ProbingKey(verdict: true, during: { [fake = bed.fake] in
            _ = fake.handle(Self.push(T.providerToken()))
        })
        bed.fake.registerSigningKey(key, keyID: Self.probeKeyID, teamID: T.teamID)
        let answer = bed.fake.handle(Self.push(T.providerToken(keyID: Self.probeKeyID)))
        #expect(key.finishedDuring.snapshot == [true])
        #expect(answer.status.code == 429)
        #expect(reason(of: answer) == "TooManyProviderTokenUpdates")
        #expect(bed.fake.journal.map(\.status) == [200, 429])
    }

    /// The same new token arrives on the connection while it is verified: the first request to
    /// apply its outcome installs it, the other answers from the connection.
    @Test func theSameTokenMeanwhileOnTheConnectionIsInstalledOnce() {
        let bed = T()
        let token = T.providerToken(keyID: Self.probeKeyID)
        let key = ProbingKey(verdict: true, during: { [fake = bed.fake] in _ = fake.handle(Self.push(token)) })
        bed.fake.registerSigningKey(key, keyID: Self.probeKeyID, teamID: T.teamID)
        #expect(bed.fake.handle(Self.push(token)).status.code == 200)
        #expect(key.finishedDuring.snapshot == [true, true])
        #expect(bed.fake.journal.map(\.status) == [200, 200])
        #expect(bed.fake.state.withLock { $0.authentication.connections[7]?.token } == token)
    }

    /// Broadcasts and channel management authenticate as pushes do: outside the lock too.
    @Test(arguments: ["channels", "broadcast"])
    func broadcastAPIsVerifyOutsideTheLock(_ api: String) {
        let bed = T()
        let key = ProbingKey(verdict: true, during: { [fake = bed.fake] in _ = fake.journal.count })
        bed.fake.registerSigningKey(key, keyID: Self.probeKeyID, teamID: T.teamID)
        let token = [("authorization", "bearer " + T.providerToken(keyID: Self.probeKeyID)) as (String, String?)]
        let answer = api == "channels"
            ? bed.fake.handleChannelManagement(BroadcastTests.manage("GET", "/1/apps/\(T.topic)/all-channels", headers: token))
            : bed.fake.handle(BroadcastTests.broadcast(BroadcastTests.unknownChannel, BroadcastTests.update(BroadcastTests.now + 1),
                                                       headers: token))
        #expect(answer.status.code == (api == "channels" ? 200 : 404))
        #expect(key.finishedDuring.snapshot == [true])
    }
}
