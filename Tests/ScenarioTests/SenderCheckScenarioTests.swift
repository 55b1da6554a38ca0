import Foundation
import PushScenarios
import Testing

/// sender-check's cases from PushScenarios, run against Swift senders (issue 38, item 5): the
/// reference senders pass what they handle, and a flawed one fails with the case's sentence.
@Suite struct SenderCheckScenarioTests {
    static func outcomes(_ run: SenderCheckRun) -> [SenderCheckCase: SenderCheckResult] {
        Dictionary(run.results.map { ($0.testCase, $0) }, uniquingKeysWith: { first, _ in first })
    }

    @Test func theReferenceSenderPassesTheCasesItHandles() async {
        let run = await SenderCheck.run(sender: { ReferenceSender($0) })
        let results = Self.outcomes(run)
        #expect(run.misbehaviour == nil)
        for testCase in [SenderCheckCase.connectionReuse, .providerTokenReuse, .goaway, .throttling, .serverErrors, .unregistered,
                         .badDeviceToken, .payloadTooLarge] {
            #expect(results[testCase]?.outcome == .passed, "\(testCase): \(results[testCase]?.sentences ?? [])")
        }
        // URLSession on Linux speaks HTTP/1.1 to a cleartext port: basic says so.
        #expect(results[.basic]?.sentences.contains { $0.hasPrefix("sent 3 push(es) over HTTP/1.1; APNs speaks only HTTP/2") } == true,
                "\(results[.basic]?.sentences ?? [])")
        // It gives up on a 403: expired-provider-token says what to do instead.
        #expect(results[.expiredProviderToken]?.sentences.first?.hasPrefix("gave up on push 2 after 403 ExpiredProviderToken") == true)
        #expect(results[.orderTracker]?.outcome == .skipped)
        #expect(results[.certificate]?.outcome == .skipped)
    }

    @Test func aSenderThatDoesNotBackOffFailsThrottling() async {
        // A stopped clock moves only when someone sleeps on it: a retry without backoff comes 0 ms
        // after its 429 however loaded the machine is.
        let run = await SenderCheck.run([.throttling], clock: PushClock(stoppedAt: Date()),
                                        sender: { ReferenceSender($0, flaws: [.noBackoff]) })
        let throttling = Self.outcomes(run)[.throttling]
        #expect(throttling?.outcome == .failed)
        #expect(throttling?.sentences.contains { $0.hasPrefix("retried 0 ms after 429 TooManyRequests (2 refusal(s)); back off before retrying") } == true,
                "\(throttling?.sentences ?? [])")
    }

    @Test func theOrderTrackerCaseReusesTheScenarioChecks() async {
        let good = await SenderCheck.run([.orderTracker], sender: { ReferenceTrackerSender($0) })
        #expect(Self.outcomes(good)[.orderTracker]?.outcome == .passed, "\(good.results)")
        let flawed = await SenderCheck.run([.orderTracker], sender: { ReferenceTrackerSender($0, flaw: .reusedTimestamp) })
        let result = Self.outcomes(flawed)[.orderTracker]
        #expect(result?.outcome == .failed)
        #expect(result?.sentences.contains { $0.contains("whose aps.timestamp was not newer than the last one it applied") } == true,
                "\(result?.sentences ?? [])")
    }
}
