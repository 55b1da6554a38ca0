import Contracts
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import FakeAPNs

/// The Live Activity simulation over a socket: URLSession (HTTP/1.1) starts an activity with a
/// push to the push-to-start token, then updates and ends it at the token the fake gave it;
/// the test follows the states with no sleep.
@Suite struct LiveActivitySocketTests {
    typealias L = LiveActivityTests

    @Test func aStartThenUpdatesOverTheWireEndOnTheDevice() async throws {
        let bed = try await APNsTestbed.started()
        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        let pushToStart = bed.fake.registerPushToStartToken(device: APNsTestbed.token)

        #expect(try await HTTP1ReasonTableTests.send(L.push(pushToStart, L.start), to: bed.fake.baseURL, with: session).status == 200)
        let started = try await bed.fake.waitForRequests { $0.delivery == .activityStarted }
        #expect(started.count == 1)
        let activity = try #require(bed.fake.liveActivities(onDevice: APNsTestbed.token).first)
        let states = bed.fake.liveActivityStates(pushToken: activity.pushToken)

        for request in [L.update(activity.pushToken, timestamp: L.now + 1, stage: "onTheWay"),
                        L.update(activity.pushToken, timestamp: L.now + 1, stage: "arriving"),   // same timestamp: ignored
                        L.end(activity.pushToken, timestamp: L.now + 2, extra: #","dismissal-date":\#(L.now)"#)] {
            #expect(try await HTTP1ReasonTableTests.send(request, to: bed.fake.baseURL, with: session).status == 200)
        }
        await bed.fake.stop()
        var seen: [LiveActivity] = []
        for await snapshot in states { seen.append(snapshot) }
        #expect(seen.map(\.state) == [.active, .active, .ended, .dismissed])
        #expect(seen.map(\.contentState.stage) == [.confirmed, .onTheWay, .delivered, .delivered])
        #expect(bed.fake.journal.compactMap(\.delivery) == [.activityStarted, .activityUpdated, .ignoredOlderTimestamp, .activityEnded])
        #expect(bed.fake.journal.allSatisfy { $0.violations.isEmpty && $0.httpVersion == "HTTP/1.1" })
    }
}
