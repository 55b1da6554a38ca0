import Contracts
import LoopbackHTTP
import Testing
import FakeBackend

/// `Idempotency-Key` on "opened": a repeat of a key from the same account is kept as a
/// report but not counted as a new open.
@Suite struct IdempotencyKeyTests {
    static func opened(_ id: String, key: String?, bearer: String = "s1") -> HTTPRequest {
        var request = Requests.opened(id, bearer: bearer)
        if let key { request.headers.append(name: "Idempotency-Key", value: key) }
        return request
    }

    @Test func aRepeatedKeyIsKeptButNotCounted() {
        let backend = FakeBackend(configuration: .init(sessions: Requests.sessions))
        #expect(backend.handle(Self.opened("91", key: "k1")).status.code == 204)
        #expect(backend.handle(Self.opened("91", key: "k1")).status.code == 204)
        #expect(backend.opens(for: "91").map(\.isRepeat) == [false, true])
        #expect(backend.countedOpens(for: "91").count == 1)
        #expect(backend.state.countedOpens(for: "91").map(\.idempotencyKey) == ["k1"])
    }

    @Test func differentKeysOrNoKeyAreDifferentOpens() {
        let backend = FakeBackend(configuration: .init(sessions: Requests.sessions))
        _ = backend.handle(Self.opened("91", key: "k1"))
        _ = backend.handle(Self.opened("91", key: "k2"))
        _ = backend.handle(Self.opened("91", key: nil))
        _ = backend.handle(Self.opened("91", key: nil))
        #expect(backend.countedOpens(for: "91").count == 4)
    }

    @Test func theSameKeyFromAnotherAccountCounts() {
        let backend = FakeBackend(configuration: .init(sessions: Requests.sessions))
        _ = backend.handle(Self.opened("91", key: "k1", bearer: "s1"))
        _ = backend.handle(Self.opened("91", key: "k1", bearer: "s2"))
        #expect(backend.countedOpens(for: "91").map(\.account) == ["a1", "a2"])
    }

    @Test func opensAreBoundedAndRepeatsOfKeptKeysAreStillFound() {
        let backend = FakeBackend(configuration: .init(sessions: Requests.sessions, opensCapacity: 16))
        for index in 0..<100 {
            #expect(backend.handle(Self.opened("n\(index)", key: "k\(index)")).status.code == 204)
        }
        let kept = backend.opens
        #expect(kept.count <= 17, "at most the capacity plus one batch of slack is kept")
        #expect(kept.count + backend.opensDropped == 100, "every open is kept or counted as dropped")
        #expect(kept.last?.notificationID == "n99", "the newest are kept")
        // A repeat of a kept key is a repeat; the key of a dropped open is forgotten with it.
        _ = backend.handle(Self.opened("n99", key: "k99"))
        #expect(backend.opens.last?.isRepeat == true)
        _ = backend.handle(Self.opened("n0", key: "k0"))
        #expect(backend.opens.last?.isRepeat == false)
        backend.reset()
        #expect(backend.opens.isEmpty && backend.opensDropped == 0)
    }
}
