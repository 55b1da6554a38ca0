import Contracts
import LoopbackHTTP
import Foundation
import Testing
@testable import FakeAPNs

@Suite struct DeviceSimulationTests {
    typealias T = APNsTestbed

    static func alert(_ id: String, collapse: String? = nil, expiration: String? = nil) -> HTTPRequest {
        T.push(headers: [("apns-collapse-id", collapse), ("apns-expiration", expiration)],
               body: Array(#"{"aps":{"alert":"\#(id)"},"notificationId":"\#(id)"}"#.utf8))
    }

    static func background() -> HTTPRequest {
        T.push(headers: [("apns-push-type", "background"), ("apns-priority", "5")],
               body: Array(#"{"aps":{"content-available":1}}"#.utf8))
    }

    @Test func acceptedPushesAreDeliveredWithTheirHeaders() throws {
        let bed = T()
        let response = bed.fake.handle(Self.alert("1", collapse: "order-8F3K"))
        let delivered = try #require(bed.fake.deliveredNotifications(for: T.token).first)
        #expect(delivered.apnsID == response.headers["apns-id"])
        #expect(delivered.collapseID == "order-8F3K")
        #expect(delivered.pushType == .alert)
        #expect(delivered.priority == 10)
        #expect(delivered.payloadText.contains(#""notificationId":"1""#))
        #expect(delivered.deliveredAt == T.start)
        #expect(bed.fake.journal.last?.delivery == .delivered)
    }

    @Test func rejectedPushesAreNotDelivered() {
        let bed = T()
        _ = bed.fake.handle(T.push(headers: [("apns-priority", "2")]))
        #expect(bed.fake.deliveredNotifications(for: T.token).isEmpty)
    }

    @Test func offlineKeepsOnlyTheLatestAndDeliversItWhenOnline() {
        let bed = T()
        bed.fake.setOnline(false, token: T.token)
        _ = bed.fake.handle(Self.alert("1"))
        _ = bed.fake.handle(Self.alert("2"))
        #expect(bed.fake.journal.last?.delivery == .storedWhileOffline)
        #expect(bed.fake.deliveredNotifications(for: T.token).isEmpty)
        bed.clock.advance(seconds: 30)
        bed.fake.setOnline(true, token: T.token)
        let delivered = bed.fake.deliveredNotifications(for: T.token)
        #expect(delivered.map(\.payloadText).map { $0.contains(#""2""#) } == [true])
        #expect(delivered.first?.deliveredAt == T.start + 30_000)
        #expect(delivered.first?.acceptedAt == T.start)
    }

    @Test func expirationZeroIsNowOrNever() {
        let bed = T()
        bed.fake.setOnline(false, token: T.token)
        _ = bed.fake.handle(Self.alert("1", expiration: "0"))
        #expect(bed.fake.journal.last?.delivery == .droppedOffline)
        bed.fake.setOnline(true, token: T.token)
        #expect(bed.fake.deliveredNotifications(for: T.token).isEmpty)
        _ = bed.fake.handle(Self.alert("2", expiration: "0"))
        #expect(bed.fake.deliveredNotifications(for: T.token).count == 1)
    }

    @Test func aStoredPushPastItsExpirationIsDropped() {
        let bed = T()
        bed.fake.setOnline(false, token: T.token)
        _ = bed.fake.handle(Self.alert("1", expiration: String(T.start / 1000 + 60)))
        #expect(bed.fake.storedNotification(for: T.token) != nil)
        bed.clock.advance(seconds: 61)
        bed.fake.setOnline(true, token: T.token)
        #expect(bed.fake.deliveredNotifications(for: T.token).isEmpty)
    }

    @Test func collapseIDReplacesWhatTheDeviceShows() {
        let bed = T()
        _ = bed.fake.handle(Self.alert("1", collapse: "order-1"))
        _ = bed.fake.handle(Self.alert("2", collapse: "order-2"))
        _ = bed.fake.handle(Self.alert("3", collapse: "order-1"))
        #expect(bed.fake.deliveredNotifications(for: T.token).count == 3)
        let shown = bed.fake.visibleNotifications(for: T.token)
        #expect(shown.map(\.collapseID) == ["order-2", "order-1"])
        #expect(shown.last?.payloadText.contains(#""3""#) == true)
    }

    @Test func backgroundPushesBeyondTheHourlyBudgetAreAcceptedNotDelivered() {
        let bed = T { $0.backgroundBudgetPerHour = 2; $0.providerTokens = .ignore }
        for _ in 0..<3 { #expect(bed.fake.handle(Self.background()).status.code == 200) }
        #expect(bed.fake.deliveredNotifications(for: T.token).count == 2)
        #expect(bed.fake.journal.last?.delivery == .backgroundBudgetExceeded)
        #expect(bed.fake.visibleNotifications(for: T.token).isEmpty)
        bed.clock.advance(seconds: 3601)
        _ = bed.fake.handle(Self.background())
        #expect(bed.fake.deliveredNotifications(for: T.token).count == 3)
    }

    @Test func injectedDuplicatesDeliverTwice() {
        let bed = T()
        bed.fake.injectDuplicateDeliveries(next: 1)
        _ = bed.fake.handle(Self.alert("1"))
        _ = bed.fake.handle(Self.alert("2"))
        let delivered = bed.fake.deliveredNotifications(for: T.token)
        #expect(delivered.map(\.isDuplicate) == [false, true, false])
        #expect(delivered[0].apnsID == delivered[1].apnsID)
        #expect(bed.fake.journal.map(\.delivery) == [.deliveredTwice, .delivered])
    }

    @Test func seededDuplicatesRepeat() {
        func run() -> [Bool] {
            let bed = T()
            bed.fake.injectDuplicateDeliveries(probability: 0.5, seed: 42)
            for i in 0..<20 { _ = bed.fake.handle(Self.alert(String(i))) }
            return bed.fake.deliveredNotifications(for: T.token).map(\.isDuplicate)
        }
        let first = run()
        #expect(first == run())
        #expect(first.contains(true) && first.filter { !$0 }.count == 20)
    }

    @Test func throttledPushesAreNotDeliveredAndTheWindowSlides() {
        let bed = T { $0.throttle = ThrottlePolicy(limit: 2, windowSeconds: 10) }
        let codes = (0..<3).map { _ in bed.fake.handle(Self.alert("x")).status.code }
        #expect(codes == [200, 200, 429])
        #expect(bed.fake.deliveredNotifications(for: T.token).count == 2)
        bed.clock.advance(seconds: 10.001)
        #expect(bed.fake.handle(Self.alert("y")).status.code == 200)
        #expect(bed.fake.deliveredNotifications(for: T.token).count == 3)
    }

    @Test func deliveriesStreamReplaysThenFollows() async throws {
        let bed = T()
        _ = bed.fake.handle(Self.alert("1"))
        let stream = bed.fake.deliveries(for: T.token)
        _ = bed.fake.handle(Self.alert("2"))
        var seen: [String] = []
        for await delivered in stream {
            seen.append(delivered.payloadText)
            if seen.count == 2 { break }
        }
        #expect(seen.count == 2)
        #expect(seen[1].contains(#""2""#))
    }
}

@Suite struct DeliveryBoundTests {
    @Test func onlyTheNewestDeliveriesAreKeptButAllAreCounted() async throws {
        let bed = APNsTestbed { $0.deliveriesKeptPerDevice = 3 }
        for i in 0..<10 { _ = bed.fake.handle(DeviceSimulationTests.alert(String(i))) }
        let kept = bed.fake.deliveredNotifications(for: APNsTestbed.token)
        #expect(kept.count == 3)
        #expect(kept.last?.payloadText.contains(#""9""#) == true)
        let waited = try await bed.fake.waitForDeliveries(to: APNsTestbed.token, count: 10, timeout: .seconds(1))
        #expect(waited.count == 3)
    }
}

@Suite struct RegistryTests {
    typealias T = APNsTestbed

    @Test func watchingOrUnregisteringAnUnknownTokenDoesNotRegisterIt() {
        let bed = T()
        let other = APNsReasonTable.otherToken
        _ = bed.fake.deliveries(for: other)
        bed.fake.setOnline(false, token: other)
        #expect(reason(of: bed.fake.handle(T.push(token: other))) == "BadDeviceToken")
    }

    @Test func aTokenRegisteredWithoutTopicAcceptsAnyTopic() {
        let bed = T()
        let other = APNsReasonTable.otherToken
        bed.fake.register(token: other, topic: nil)
        #expect(bed.fake.handle(T.push(token: other)).status.code == 200)
        bed.fake.register(token: other, topic: nil, environment: .production)
        #expect(reason(of: bed.fake.handle(T.push(token: other))) == "BadDeviceToken")
    }

    /// `serve`'s `learn`: a device registered so already is left alone (no change noted), but
    /// an unregistered one, or one the app moved to another environment, is registered again.
    @Test func learningAKnownDeviceChangesNothingButAStaleOneIsRegisteredAgain() {
        let bed = T()
        let other = APNsReasonTable.otherToken
        #expect(reason(of: bed.fake.handle(T.push(token: other))) == "BadDeviceToken")
        let start = bed.fake.changes.revision
        bed.fake.learn(lowercaseToken: other, topics: [], environment: nil)
        #expect(bed.fake.handle(T.push(token: other)).status.code == 200)
        #expect(bed.fake.changes.revision == start + 1)
        bed.fake.learn(lowercaseToken: other, topics: [], environment: nil)
        #expect(bed.fake.changes.revision == start + 1)  // the same registration: nothing changed

        bed.fake.unregister(token: other, at: Date(timeIntervalSince1970: 1_700_000_000))
        #expect(bed.fake.handle(T.push(token: other)).status.code == 410)
        bed.fake.learn(lowercaseToken: other, topics: [], environment: nil)
        #expect(bed.fake.handle(T.push(token: other)).status.code == 200)

        bed.fake.learn(lowercaseToken: other, topics: [], environment: .production)
        #expect(reason(of: bed.fake.handle(T.push(token: other))) == "BadDeviceToken")

        // What is not a device token is not learnt (serve passes every token the backend took).
        let revision = bed.fake.changes.revision
        bed.fake.learn(lowercaseToken: "not-a-token", topics: [], environment: nil)
        bed.fake.learn(lowercaseToken: "abc", topics: [], environment: nil)
        #expect(bed.fake.changes.revision == revision)

        // A topic the device does not accept yet is added.
        let token = String(repeating: "ef", count: 32)
        bed.fake.learn(lowercaseToken: token, topics: ["com.other.app"], environment: nil)
        let refused = bed.fake.handle(T.push(token: token))
        #expect(reason(of: refused) == "DeviceTokenNotForTopic", "\(refused.status.code) \(String(decoding: refused.body, as: UTF8.self))")
        bed.fake.learn(lowercaseToken: token, topics: [T.topic], environment: nil)
        #expect(bed.fake.handle(T.push(token: token)).status.code == 200)
    }

    @Test func unregisteredBeatsUnknown() {
        let bed = T()
        let other = APNsReasonTable.otherToken
        bed.fake.unregister(token: other, at: Date(timeIntervalSince1970: 1_700_000_000))
        #expect(bed.fake.handle(T.push(token: other)).status.code == 410)
    }
}
