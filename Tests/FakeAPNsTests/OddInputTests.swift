import Contracts
import Foundation
import Testing
@testable import FakeAPNs

/// Odd paths and headers a client may send: each gets an APNs answer, none traps.
@Suite struct OddInputTests {
    typealias T = APNsTestbed

    @Test(arguments: [
        ("/3/device/\u{301}ab", 400), ("/3/device/ab\u{301}", 400), ("/3/deviceé", 404), ("/3/device/é?x", 400),
        ("/3/device/?", 400), ("/3/device?", 400), ("/3/device//", 404), ("/3/device", 400), ("", 404), ("?", 404),
    ])
    func oddPathsGetAnAnswer(_ path: String, _ status: Int) {
        let bed = T()
        var request = T.push()
        request.path = path
        #expect(bed.fake.handle(request).status.code == status)
    }

    @Test(arguments: ["bearer", "bearer ", "bearer \u{301}", "\u{301}bearer x", "Bearer\tx.y.z", "bearer ..", "bearer a.b.c.d",
                      "bearer " + String(repeating: "A", count: 5000) + ".e30.", "bearer e30.e30.", "bearer eyJhbGciOiJFUzI1NiIsImtpZCI6WzFdfQ.e30."])
    func oddAuthorizationsAreRefused(_ value: String) {
        let bed = T()
        let status = bed.fake.handle(T.push(headers: [("authorization", value)])).status.code
        #expect(status == 403)
    }
}

/// An unregistration at an extreme time gets an answer, not a trap; implicit devices stay bounded.
@Suite struct ExtremeTimeAndImplicitDeviceTests {
    typealias T = APNsTestbed

    @Test(arguments: ["9223372036854775807", "-9223372036854775808", "9223372036854775000"])
    func unregisterAtAnExtremeTimeDoesNotTrap(_ at: String) {
        let bed = T()
        let answer = AdminRoutesTests.call(bed.fake, "POST", "/apns/tokens/unregister", #"{"token":"\#(T.token)","at":\#(at)}"#)
        #expect(answer.status.code == 204)
        #expect(bed.fake.handle(T.push()).status.code == 410)
    }

    /// In accept-any mode each new token makes an implicit device record; at most
    /// `maxImplicitDevices` are kept besides a device being streamed, the newest among them.
    @Test func acceptAnyKeepsABoundedNumberOfImplicitDevices() {
        let bed = T { $0.acceptAnyDeviceToken = true; $0.maxImplicitDevices = 3 }
        let tokens = (0..<10).map { String(format: "%064x", 0xC0DE00 + $0) }
        let watched = tokens[1]
        _ = bed.fake.deliveries(for: watched)   // a streamed device is kept
        for token in tokens { #expect(bed.fake.handle(T.push(token: token)).status.code == 200) }
        let kept = tokens.filter { !bed.fake.deliveredNotifications(for: $0).isEmpty }
        #expect(kept.count <= 4)
        #expect(kept.contains(watched))
        #expect(kept.contains(tokens[9]))
        #expect(bed.fake.deliveredNotifications(for: tokens[0]).isEmpty)
        #expect(bed.fake.deliveredNotifications(for: T.token).isEmpty)   // registered, untouched
        #expect(bed.fake.handle(T.push()).status.code == 200)
        #expect(bed.fake.deliveredNotifications(for: T.token).count == 1)
    }

    /// A device someone awaits deliveries of is kept too (``DeviceStore/rememberImplicitDevice(_:cap:isAwaited:)``
    /// asks the pending waits), and the wait sees its deliveries.
    @Test func acceptAnyKeepsAnAwaitedImplicitDevice() async throws {
        let bed = T { $0.acceptAnyDeviceToken = true; $0.maxImplicitDevices = 3 }
        let tokens = (0..<10).map { String(format: "%064x", 0xA7A100 + $0) }
        let awaited = tokens[1]
        let fake = bed.fake
        let wait = Task { try await fake.waitForDeliveries(to: awaited, count: 2, timeout: .seconds(5)) }
        // The wait is registered when the fake holds it: yield until then (no sleep).
        while fake.state.withLock({ $0.waits.isEmpty }) { await Task.yield() }
        for token in tokens { #expect(fake.handle(T.push(token: token)).status.code == 200) }
        #expect(fake.deliveredNotifications(for: awaited).count == 1, "the awaited device was kept")
        #expect(fake.deliveredNotifications(for: tokens[0]).isEmpty)
        #expect(fake.handle(T.push(token: awaited)).status.code == 200)
        #expect(try await wait.value.count == 2)
    }
}

/// Per-connection records stay bounded however many connections ever erred.
@Suite struct ConnectionRecordBoundTests {
    @Test func errorCountsPerConnectionStayBounded() {
        let bed = APNsTestbed { $0.goAwayAfterErrors = 1_000; $0.providerTokens = .ignore }
        for connection in UInt64(1)...10_050 {
            let answer = bed.fake.handle(APNsTestbed.push(headers: [("apns-priority", "7")], connection: connection))
            #expect(answer.status.code == 400, "connection \(connection)")
            if answer.status.code != 400 { return }
        }
        #expect(bed.fake.state.withLock { $0.authentication.connections.count } <= 10_000)
    }
}

/// A scripted fault's status must be a final one: a 1xx answer leaves a client waiting.
@Suite struct FaultStatusTests {
    @Test(arguments: [100, 101, 199])
    func informationalStatusesAreRefused(_ status: Int) {
        let bed = APNsTestbed()
        let answer = AdminRoutesTests.call(bed.fake, "POST", "/apns/faults", #"{"fault":{"status":\#(status),"reason":"ServiceUnavailable"},"count":1}"#)
        #expect(answer.status.code == 400)
        #expect(bed.fake.handle(APNsTestbed.push()).status.code == 200)
    }

    @Test func aFinalStatusIsAccepted() {
        let bed = APNsTestbed()
        #expect(AdminRoutesTests.call(bed.fake, "POST", "/apns/faults", #"{"fault":{"status":200,"reason":"ServiceUnavailable"},"count":1}"#).status.code == 201)
    }
}
