import Foundation
import XCTest
import App
import FakeBackend

/// Card 8 against a FakeBackend started and stopped synchronously in setUp/tearDown, the
/// XCTest way. The backend and the app share one clock that skips sleeps: the journal sees a
/// Retry-After's seconds pass, the test does not wait them.
final class DeviceRepositoryXCTests: XCTestCase {
    private var backend: FakeBackend!
    private var clock: PushClock!
    private var app: TestApp!

    override func setUpWithError() throws {
        clock = PushClock(skippingSleepsFrom: Date())
        backend = try FakeBackend.startListening(configuration: .init(sessions: TestApp.sessions, clock: clock))
        app = TestApp(backendURL: backend.baseURL, clock: clock)
    }

    override func tearDown() {
        backend.stopListening()
        backend = nil
    }

    private var token: String { TestApp.token.hex }

    private func entries(_ endpoint: FakeBackend.Endpoint) -> [BackendJournalEntry] {
        backend.journal.filter { $0.endpoint == endpoint }
    }

    /// Breaks if the PUT's path, bearer or body are wrong, or if an unchanged registration is
    /// sent again.
    func testSignInPutsTheTokenWithTheRegistrationBodyOnce() async throws {
        try await app.signIn(TestApp.alice)
        let device = try XCTUnwrap(backend.devices[token])
        XCTAssertEqual(device.account, "a1")
        XCTAssertEqual(device.platform, "ios")
        XCTAssertEqual(device.environment, "sandbox")
        XCTAssertEqual(device.appVersion, "10.0.13")
        XCTAssertEqual(device.publicKey, TestApp.registration.publicKey)

        try await app.devices.register(token: TestApp.token, for: TestApp.alice)  // the next launch
        XCTAssertEqual(entries(.putDevice).map(\.status), [204], "an unchanged registration is not sent again")

        try await app.signIn(TestApp.bob)  // the shared iPad, another account
        XCTAssertEqual(backend.devices[token]?.account, "a2")
        XCTAssertEqual(entries(.putDevice).count, 2)
    }

    /// Breaks if sign-out sends no DELETE, or sends it with anything but the signed-out
    /// account's bearer.
    func testSignOutDeletesTheTokenWithTheSignedOutAccountsBearer() async throws {
        try await app.signIn(TestApp.alice)
        try await app.signOut()
        XCTAssertNil(backend.devices[token])
        let deletes = entries(.deleteDevice)
        XCTAssertEqual(deletes.map(\.status), [204])
        XCTAssertEqual(deletes.first?.account, "a1")
        let signedIn = await app.session.current
        XCTAssertNil(signedIn)
    }

    /// Breaks if the DELETE that failed offline is forgotten instead of kept and sent on resume.
    func testSignOutWhileOfflineKeepsTheDeleteAndSendsItOnResume() async throws {
        try await app.signIn(TestApp.alice)
        await backend.setOffline(true)
        do {
            try await app.signOut()
            XCTFail("sign-out reported success while the backend was offline")
        } catch let error as BackendError {
            XCTAssertEqual(error, .unreachable)
        }
        let pending = await app.devices.hasPendingRemoval
        XCTAssertTrue(pending)
        XCTAssertEqual(backend.devices[token]?.account, "a1", "the backend never heard of the sign-out")

        await backend.setOffline(false)
        await app.devices.resume()
        _ = try await backend.waitForDeviceRemoval(token: token, timeout: .seconds(5))
        XCTAssertEqual(entries(.deleteDevice).last?.account, "a1", "the pending DELETE carries the old account's bearer")
        let stillPending = await app.devices.hasPendingRemoval
        XCTAssertFalse(stillPending)
    }

    /// Breaks if a 429's Retry-After is ignored: the retry must come 3 s later on the clock,
    /// and the test itself must not wait those seconds.
    func testThrottledPutIsRetriedAfterRetryAfterOnTheClock() async throws {
        backend.addFault(.tooManyRequests(retryAfter: 3), on: .putDevice)
        let started = ContinuousClock.now
        try await app.signIn(TestApp.alice)
        let elapsed = ContinuousClock.now - started

        let puts = entries(.putDevice)
        XCTAssertEqual(puts.map(\.status), [429, 204])
        if puts.count == 2 {
            XCTAssertGreaterThanOrEqual(puts[1].time.timeIntervalSince(puts[0].time), 3.0)
        }
        XCTAssertEqual(backend.devices[token]?.account, "a1")
        XCTAssertLessThan(elapsed, .seconds(3), "the wait went through the clock, not a real sleep")
    }
}
