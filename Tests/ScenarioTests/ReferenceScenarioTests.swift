import Testing
import Foundation
import PushScenarios

/// The four bad days, over real sockets with both fakes, against the reference app and sender:
/// green as written, red with the right message when built with one flaw.
// Serialized: each run holds two servers for seconds (waiting out backoffs), and suites that
// count the process's server threads run in parallel with this one.
@Suite(.serialized) struct ReferenceScenarioTests {
    static func run(_ scenario: PushScenario, flaws: Flaws = [],
                    clock: PushClock = PushClock(skippingSleepsFrom: Date())) async -> ScenarioReport {
        await scenario.run(clock: clock, client: { ReferenceApp($0, flaws: flaws) },
                           sender: { ReferenceSender($0, flaws: flaws) })
    }

    @Test func throttlingIsRiddenOut() async {
        // A stopped clock, as below: on a loaded machine the five pushes could take longer
        // than the 1 s throttle window on a running clock, and the throttle was never met.
        let report = await Self.run(.throttling, clock: PushClock(stoppedAt: Date()))
        #expect(report.failures == [], "\(report)")
        // What the user would see: every push, and a registered device.
        #expect(report.steps.contains { $0.hasPrefix("the app sent its next PUT") })
        #expect(report.steps.contains { $0.hasPrefix("FakeAPNs answered 429") && !$0.contains("429 0 time") },
                "the sender never met the throttle, so the scenario proved nothing: \(report.steps)")
    }

    @Test func throttlingCatchesNoBackoff() async {
        // A stopped clock: immediate retries stay inside the 1 s throttle window however
        // slowly a loaded machine sends them (with the running clock, a busy machine let the
        // window pass between retries and the flaw went unseen).
        let report = await Self.run(.throttling, flaws: .noBackoff, clock: PushClock(stoppedAt: Date()))
        #expect(report.failures.contains { $0.contains("with Retry-After: 1; wait at least the Retry-After delay") },
                "\(report)")
        #expect(report.failures.contains { $0.contains("pushes never reached the device") && $0.contains("back off") },
                "\(report)")
    }

    @Test func unregisteredTokenIsDropped() async {
        let report = await Self.run(.unregistered)
        #expect(report.failures == [], "\(report)")
        #expect(report.steps.contains { $0.contains("410 Unregistered") && $0.hasSuffix("0 request(s) to the token followed") })
    }

    @Test func unregisteredCatchesRetryOn410() async {
        let report = await Self.run(.unregistered, flaws: .retryOn410)
        #expect(report.failures.contains {
            $0.contains("more request(s)") && $0.contains("after APNs answered 410 Unregistered")
                && $0.contains("remove the token and stop sending to it until it registers again")
        }, "\(report)")
    }

    @Test func offlineSignOutDeletesLater() async {
        let report = await Self.run(.offlineSignOut)
        #expect(report.failures == [], "\(report)")
        #expect(report.steps.contains { $0.contains("the app opens nothing") })
        #expect(report.steps.contains { $0.hasPrefix("the pending DELETE removed") })
    }

    @Test func offlineSignOutCatchesNoPendingDelete() async {
        let report = await Self.run(.offlineSignOut, flaws: .noPendingDelete)
        #expect(report.failures.count == 1, "\(report)")
        #expect(report.failures.first?.contains("is still registered to a1 after sign-out") == true, "\(report)")
        #expect(report.failures.first?.contains("keep it pending and send it when the backend is back") == true)
    }

    @Test func duplicateIsShownRoutedAndCountedOnce() async {
        let report = await Self.run(.duplicateDelivery)
        #expect(report.failures == [], "\(report)")
        #expect(report.steps.contains { $0.hasPrefix("delivered 2 times: the app showed it 1 time(s) and opened orders/8F3K") },
                "\(report.steps)")
        // The lost response was retried: two requests, one counted open.
        #expect(report.steps.contains { $0.contains("sent 2 \"opened\" request(s)") && $0.hasSuffix("counted 1") },
                "\(report.steps)")
    }

    @Test func duplicateCatchesNoDedupe() async {
        let report = await Self.run(.duplicateDelivery, flaws: .noDedupe)
        #expect(report.failures.contains { $0.contains("showed notification 401 2 times") && $0.contains("drop repeats by notificationId") },
                "\(report)")
        #expect(report.failures.contains { $0.contains("routed notification 401 2 times") }, "\(report)")
        #expect(report.failures.contains { $0.contains("the backend counted 2 opens of notification 401") }, "\(report)")
    }
}
