import Testing
@testable import FakeAPNs

/// `stop()` ends every wait: one pending when it is called, and one started after it, both
/// fail with `cancelled` at once rather than sitting out their timeouts (as FakeBackend's do).
@Suite struct StopTests {
    enum Wait: String, CaseIterable, Sendable { case requests, deliveries }

    static func wait(_ kind: Wait, on fake: FakeAPNs) async throws {
        switch kind {
        case .requests: _ = try await fake.waitForRequests(count: 1, timeout: .seconds(20))
        case .deliveries: _ = try await fake.waitForDeliveries(to: APNsTestbed.token, timeout: .seconds(20))
        }
    }

    @Test(arguments: Wait.allCases)
    func aWaitPendingWhenStopIsCalledEndsWithAnError(_ kind: Wait) async throws {
        let fake = try await FakeAPNs.start()
        let port = fake.port
        let waiter = Task { try await Self.wait(kind, on: fake) }
        // The waiter is registered when the fake holds it: yield until then (no sleep).
        while fake.state.withLock({ $0.waits.isEmpty }) { await Task.yield() }
        await fake.stop()
        await #expect(throws: FakeAPNsError.cancelled) { try await waiter.value }
        #expect(fake.requestWaits.count == 0 && fake.deliveryWaits.count == 0, "the waits and their timeouts are gone")
        #expect(fake.state.withLock { $0.waits.isEmpty }, "their conditions are dropped")
        #expect(port != 0 && fake.port == 0)
        await fake.stop()
    }

    @Test(arguments: Wait.allCases)
    func aWaitStartedAfterStopFailsAtOnce(_ kind: Wait) async throws {
        let fake = try await FakeAPNs.start()
        fake.stopListening()
        await #expect(throws: FakeAPNsError.cancelled) { try await Self.wait(kind, on: fake) }
    }
}
