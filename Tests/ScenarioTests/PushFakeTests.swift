import Foundation
import Testing
import FakeAPNs
import FakeBackend
import PushTestSupport

/// Both fakes through the one protocol they conform to: the same calls, the same answers.
/// A test written against `PushFake` runs on either fake unchanged.
@Suite struct PushFakeTests {
    static let device = String(repeating: "ab", count: 32)

    /// One HTTP/1.1 request per connection; the status, or nil when the connection is refused.
    static func status(port: UInt16, _ head: String, body: String) -> Int? {
        guard let client = RawClient.connecting(to: port) else { return nil }
        client.write(head + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n" + body)
        return client.readStatus()
    }

    /// The shared operations, in the order a test uses them: a fault for one request, the
    /// journal and a wait, offline and back, reset, stop.
    static func exercise<Fake: PushFake>(_ fake: Fake, fault: Fake.Plan, faultStatus: Int,
                                         okStatus: Int, send: @escaping @Sendable (UInt16) -> Int?) async throws {
        fake.addFault(fault)
        #expect(fake.faults == [fault])
        #expect(send(fake.port) == faultStatus, "the fault answers the next request")
        #expect(fake.faults.isEmpty, "a next(count: 1) plan is spent")
        #expect(send(fake.port) == okStatus)
        let seen = try await fake.waitForRequests(count: 2, timeout: .seconds(5), where: { _ in true })
        #expect(seen.count == 2 && fake.journal.count == 2 && fake.droppedJournalEntries == 0)

        #expect(await fake.setOffline(true) == nil)
        #expect(fake.isOffline)
        #expect(send(fake.port) == nil, "offline refuses the connection")
        #expect(await fake.setOffline(false) == nil)
        #expect(!fake.isOffline && send(fake.port) == okStatus)

        fake.addFault(fault)
        #expect(await fake.clearFaults() == nil)
        #expect(fake.faults.isEmpty)
        #expect(await fake.reset() == nil)
        #expect(fake.journal.isEmpty)
        await #expect(throws: PushFakeError.timedOut) {
            try await fake.waitForRequests(count: 1, timeout: .milliseconds(50), where: { _ in true })
        }
        let port = fake.port
        await fake.stop()
        #expect(port != 0 && fake.port == 0)
    }

    @Test func theBackendThroughTheProtocol() async throws {
        let backend = try await FakeBackend.start(configuration: .init(sessions: ["s1": "a1"]))
        let body = #"{"platform":"ios","environment":"production","appVersion":"4.2.0","publicKey":"BHz6Zs7Pancw8wAhX5FIyDIE1sgm40WRl2ybk5tt41lNUyWzX/mOHnSQMMR2p3XiCV2BEcdEbBO2VTsf1d3ie/Y="}"#
        try await Self.exercise(backend, fault: BackendFaultPlan.next(1, .status(code: 503), on: .putDevice), faultStatus: 503, okStatus: 204) { port in
            Self.status(port: port, "PUT /v1/devices/\(Self.device) HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer s1\r\n"
                        + "Content-Type: application/json\r\n", body: body)
        }
    }

    @Test func fakeAPNsThroughTheProtocol() async throws {
        var configuration = FakeAPNs.Configuration()
        configuration.providerTokens = .ignore
        configuration.acceptAnyDeviceToken = true
        let apns = try await FakeAPNs.start(configuration: configuration)
        let body = #"{"aps":{"alert":{"title":"On the way","body":"Your order is on the way"}},"notificationId":"91"}"#
        try await Self.exercise(apns, fault: APNsFaultPlan.next(1, .reason(.serviceUnavailable), deviceToken: Self.device),
                                faultStatus: 503, okStatus: 200) { port in
            Self.status(port: port, "POST /3/device/\(Self.device) HTTP/1.1\r\nHost: api.sandbox.push.apple.com\r\n"
                        + "apns-topic: com.example.app\r\napns-push-type: alert\r\n", body: body)
        }
    }
}
