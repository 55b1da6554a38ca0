@testable import FakeSupport
import Contracts
import LoopbackHTTP
import Foundation
import Testing
@testable import FakeBackend

/// The app → backend registration of Live Activity tokens (DESIGN "Live Activities",
/// Backend): the per-order activity token, the push-to-start token, and what the fake
/// decides for orders and devices the account does not hold.
@Suite struct LiveActivityRegistrationTests {
    let clock = PushClock(stoppedAt: Date(timeIntervalSince1970: 1_800_000_000))
    let backend: FakeBackend

    init() {
        backend = FakeBackend(configuration: .init(sessions: Requests.sessions, clock: clock))
    }

    static let tokenA = "a1c7e0" + String(repeating: "5e", count: 20)
    static let tokenB = "b2d8f1" + String(repeating: "6f", count: 20)

    static func putActivity(_ order: String, token: String = tokenA, environment: String = "production",
                            bearer: String? = "s1", body: String? = nil) -> HTTPRequest {
        HTTPRequest(method: "PUT", path: "/v1/orders/\(order)/live-activity", headers: Requests.headers(bearer, json: true),
                    body: Array((body ?? #"{"pushToken":"\#(token)","environment":"\#(environment)"}"#).utf8))
    }

    static func deleteActivity(_ order: String, bearer: String? = "s1") -> HTTPRequest {
        HTTPRequest(method: "DELETE", path: "/v1/orders/\(order)/live-activity", headers: Requests.headers(bearer, json: false))
    }

    static func putPushToStart(_ device: String, token: String = tokenB, bearer: String? = "s1", body: String? = nil) -> HTTPRequest {
        HTTPRequest(method: "PUT", path: "/v1/devices/\(device)/push-to-start", headers: Requests.headers(bearer, json: true),
                    body: Array((body ?? #"{"pushToStartToken":"\#(token)"}"#).utf8))
    }

    @Test func anActivityStartsAndEnds() {
        let put = backend.handle(Self.putActivity("8F3K", token: Self.tokenA.uppercased(), environment: "sandbox"))
        #expect(put.status == .noContent)
        #expect(backend.liveActivityToken(forOrder: "8F3K") == Self.tokenA)
        let activity = backend.liveActivities["8F3K"]
        #expect(activity?.account == "a1")
        #expect(activity?.environment == "sandbox")
        #expect(activity?.updatedAt == clock.now)
        #expect(backend.liveActivityToken(forOrder: "8f3k") == nil, "order ids are case-sensitive")

        #expect(backend.handle(Self.deleteActivity("8F3K")).status == .noContent)
        #expect(backend.liveActivityToken(forOrder: "8F3K") == nil)
        // Ending it again: nothing to end.
        let again = backend.handle(Self.deleteActivity("8F3K"))
        #expect(again.status == .notFound)
        #expect(again.headers["Content-Type"] == "application/problem+json")
        #expect((Requests.json(again)["detail"] as? String)?.contains("No Live Activity is registered for order 8F3K on this account") == true)
        #expect(backend.journal.map(\.endpoint) == [.putLiveActivity, .deleteLiveActivity, .deleteLiveActivity])
        #expect(backend.journal.map(\.status) == [204, 204, 404])
        #expect(backend.journal.map(\.detail) == ["started", "ended", "no Live Activity for this order"])
    }

    @Test func theSamePutTwiceChangesNothingAndANewTokenReplacesTheOld() {
        _ = backend.handle(Self.putActivity("8F3K"))
        let first = backend.liveActivities
        clock.advance(by: .seconds(30))
        #expect(backend.handle(Self.putActivity("8F3K", token: Self.tokenA.uppercased())).status == .noContent)
        #expect(backend.liveActivities == first)

        #expect(backend.handle(Self.putActivity("8F3K", token: Self.tokenB)).status == .noContent)
        #expect(backend.liveActivityToken(forOrder: "8F3K") == Self.tokenB)
        #expect(backend.liveActivities["8F3K"]?.updatedAt == clock.now)
        #expect(backend.liveActivities.count == 1)
        #expect(backend.journal.map(\.detail) == ["started", "unchanged", "token changed"])
    }

    @Test func aTokenMovesToTheOrderThatRegistersItLast() {
        _ = backend.handle(Self.putActivity("8F3K", token: Self.tokenA))
        _ = backend.handle(Self.putActivity("9QX2", token: Self.tokenA))
        #expect(backend.liveActivityToken(forOrder: "8F3K") == nil)
        #expect(backend.liveActivityToken(forOrder: "9QX2") == Self.tokenA)
        #expect(backend.journal.last?.detail == "started; token moved from order 8F3K")
        // The moved token's old order is free: a new token for it does not touch 9QX2.
        _ = backend.handle(Self.putActivity("8F3K", token: Self.tokenB))
        #expect(backend.liveActivityToken(forOrder: "8F3K") == Self.tokenB)
        #expect(backend.liveActivityToken(forOrder: "9QX2") == Self.tokenA)
        // A replaced token no longer points at its order: registering it elsewhere moves nothing.
        _ = backend.handle(Self.putActivity("9QX2", token: Self.tokenB.replacingOccurrences(of: "b2", with: "c3")))
        _ = backend.handle(Self.putActivity("7ZZ1", token: Self.tokenA))
        #expect(backend.journal.last?.detail == "started")
        #expect(backend.liveActivities.count == 3)
    }

    @Test func anotherAccountsOrderIsNotFoundAndStaysAsItWas() {
        _ = backend.handle(Self.putActivity("8F3K", bearer: "s1"))
        let put = backend.handle(Self.putActivity("8F3K", token: Self.tokenB, bearer: "s2"))
        #expect(put.status == .notFound)
        #expect((Requests.json(put)["detail"] as? String)?.contains("not this account's") == true)
        #expect(backend.handle(Self.deleteActivity("8F3K", bearer: "s2")).status == .notFound)
        #expect(backend.liveActivities["8F3K"]?.account == "a1")
        #expect(backend.liveActivityToken(forOrder: "8F3K") == Self.tokenA)
    }

    @Test func pushToStartNeedsADeviceOfTheAccount() {
        let unknown = backend.handle(Self.putPushToStart(Requests.token))
        #expect(unknown.status == .notFound)
        #expect((Requests.json(unknown)["detail"] as? String)?.contains("is not registered to this account") == true)
        _ = backend.handle(Requests.put(Requests.token, bearer: "s1"))
        #expect(backend.handle(Self.putPushToStart(Requests.token, bearer: "s2")).status == .notFound)
        #expect(backend.pushToStartToken(device: Requests.token) == nil)

        #expect(backend.handle(Self.putPushToStart(Requests.token.uppercased(), token: Self.tokenB.uppercased())).status == .noContent)
        #expect(backend.pushToStartToken(device: Requests.token.uppercased()) == Self.tokenB)
        #expect(backend.state.pushToStart(device: Requests.token)?.account == "a1")
        #expect(backend.handle(Self.putPushToStart(Requests.token)).status == .noContent)
        #expect(backend.journal.filter { $0.endpoint == .putPushToStart }.map(\.detail)
                == ["device not registered to this account", "device not registered to this account", "registered", "unchanged"])
        // Signing out forgets the device and its push-to-start token.
        #expect(backend.handle(Requests.delete(Requests.token)).status == .noContent)
        #expect(backend.pushToStartToken(device: Requests.token) == nil)
    }

    @Test func contractBreaksAreA400ListingEachOne() {
        let badOrder = backend.handle(Self.putActivity("8F3K.1", body: #"{"pushToken":"<a1c7>","environment":"production","orderId":"8F3K"}"#))
        #expect(badOrder.status == .badRequest)
        let found = Requests.violations(badOrder).map { "\($0["rule"] as? String ?? "") \($0["pointer"] as? String ?? "")" }
        #expect(found == ["order-id.format /path/orderId", "live-activity-registration.push-token /pushToken",
                          "live-activity-registration.unknown-member /orderId"])
        let badDelete = backend.handle(Self.deleteActivity(String(repeating: "A", count: 65)))
        #expect(Requests.violations(badDelete).map { $0["rule"] as? String } == ["order-id.length"])
        let badStart = backend.handle(Self.putPushToStart("zz", body: #"{"pushToStartToken":"abc"}"#))
        #expect(Requests.violations(badStart).map { $0["rule"] as? String }
                == ["device-token.format", "push-to-start-registration.push-to-start-token"])
        #expect(backend.liveActivities.isEmpty)
        #expect(backend.journal.map(\.status) == [400, 400, 400])
        #expect(backend.journal.allSatisfy { !$0.violations.isEmpty })
    }

    /// A contract set without the registration contracts checks nothing in the body, but a
    /// body without its token is still refused, never stored as an empty token.
    @Test func withoutTheContractsABodyWithoutItsTokenIsStillRefused() {
        let loose = FakeBackend(configuration: .init(sessions: Requests.sessions, contracts: ContractSet(contracts: [])))
        let activity = loose.handle(Self.putActivity("8F3K", body: #"{"environment":"sandbox"}"#))
        #expect(Requests.violations(activity).map { $0["rule"] as? String } == ["live-activity-registration.required"])
        _ = loose.handle(Requests.put(Requests.token))
        let start = loose.handle(Self.putPushToStart(Requests.token, body: "{}"))
        #expect(Requests.violations(start).map { $0["rule"] as? String } == ["push-to-start-registration.required"])
        #expect(loose.liveActivities.isEmpty)
        #expect(loose.handle(Self.putActivity("8F3K")).status == .noContent)
        #expect(loose.liveActivityToken(forOrder: "8F3K") == Self.tokenA)
    }

    @Test func theBearerAndTheMediaTypeAreCheckedAsForDevices() {
        #expect(backend.handle(Self.putActivity("8F3K", bearer: nil)).status == .unauthorized)
        #expect(backend.handle(Self.deleteActivity("8F3K", bearer: "nobody")).status == .unauthorized)
        #expect(backend.handle(Self.putPushToStart(Requests.token, bearer: nil)).status == .unauthorized)
        var plain = Self.putActivity("8F3K")
        plain.headers = Requests.headers("s1", json: false)
        plain.headers.append(name: "Content-Type", value: "text/plain")
        #expect(backend.handle(plain).status.code == 415)
        #expect(backend.liveActivities.isEmpty)
    }

    @Test func faultsNameTheNewEndpoints() {
        backend.addFault(.status(code: 503), on: .putLiveActivity)
        #expect(backend.handle(Self.putActivity("8F3K")).status.code == 503)
        #expect(backend.liveActivities.isEmpty)
        #expect(backend.handle(Self.putActivity("8F3K")).status == .noContent)
        backend.addFault(.loseResponse, on: .deleteLiveActivity)
        #expect(backend.handle(Self.deleteActivity("8F3K")).disposition == .loseResponse)
        #expect(backend.liveActivities.isEmpty, "a lost response was applied")
        #expect(backend.journal.map(\.fault) == [.status(code: 503, retryAfter: nil), nil, .loseResponse])
        #expect(backend.state.requestCount(.putLiveActivity) == 2)
        #expect(backend.state.requestCount(.deleteLiveActivity) == 1)
    }

    @Test func waitsResumeOnTheRegistration() async throws {
        async let activity = backend.waitForLiveActivityToken(order: "8F3K", token: Self.tokenB.uppercased(), timeout: .seconds(10))
        async let pushToStart = backend.waitForPushToStartToken(device: Requests.token, timeout: .seconds(10))
        _ = backend.handle(Self.putActivity("8F3K", token: Self.tokenA))
        _ = backend.handle(Self.putActivity("8F3K", token: Self.tokenB))
        _ = backend.handle(Requests.put(Requests.token))
        _ = backend.handle(Self.putPushToStart(Requests.token))
        #expect(try await activity.pushToken == Self.tokenB)
        #expect(try await pushToStart.pushToStartToken == Self.tokenB)
        async let ended = backend.waitForLiveActivityEnd(order: "8F3K", timeout: .seconds(10))
        _ = backend.handle(Self.deleteActivity("8F3K"))
        #expect(try await ended.liveActivities.isEmpty)
        await #expect(throws: FakeBackendError.self) {
            try await backend.waitForLiveActivityToken(order: "NONE", timeout: .milliseconds(50))
        }
    }

    @Test func theAdminViewListsThemAndResetForgetsThem() throws {
        _ = backend.handle(Requests.put(Requests.token))
        _ = backend.handle(Self.putPushToStart(Requests.token))
        _ = backend.handle(Self.putActivity("9QX2", token: Self.tokenB))
        _ = backend.handle(Self.putActivity("8F3K"))
        let admin = AdminAPI(backend: backend)
        let body = Requests.json(admin.handle(HTTPRequest(method: "GET", path: "/live-activities")))
        let activities = try #require(body["liveActivities"] as? [[String: Any]])
        #expect(activities.map { $0["orderId"] as? String } == ["8F3K", "9QX2"])
        #expect(activities.first?["pushToken"] as? String == Self.tokenA)
        #expect(activities.first?["account"] as? String == "a1")
        let pushToStart = try #require(body["pushToStart"] as? [[String: Any]])
        #expect(pushToStart.map { $0["deviceToken"] as? String } == [Requests.token])
        #expect(pushToStart.first?["pushToStartToken"] as? String == Self.tokenB)

        backend.reset()
        #expect(backend.liveActivities.isEmpty)
        #expect(backend.pushToStartToken(device: Requests.token) == nil)
        // The token index went too: the token starts afresh, moving nothing.
        _ = backend.handle(Self.putActivity("7ZZ1"))
        #expect(backend.journal.last?.detail == "started")
    }
}
