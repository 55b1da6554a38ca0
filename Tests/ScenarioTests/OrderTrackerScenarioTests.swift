import Testing
import Foundation
import PushScenarios

/// The order tracker over real sockets with FakeAPNs' Live Activities: green with the reference
/// Live Activity sender, and each sender bug caught by its own sentence, not another's.
@Suite(.serialized) struct OrderTrackerScenarioTests {
    /// Each flaw's own sentence (a part no other failure contains).
    static let sentences: [TrackerFlaw: String] = [
        .reusedTimestamp: "whose aps.timestamp was not newer than the last one it applied",
        .unixTimeDate: "carried a content-state date as Unix time",
        .updateAfterEnd: "to the activity after its end push",
        .priority10Flood: "over the activity's priority-10 budget",
        .riderNameInState: "put personal data in the Live Activity",
        .deviceToken: "Live Activity push(es) to the device token",
    ]

    static func run(_ flaw: TrackerFlaw?) async -> ScenarioReport {
        await PushScenario.orderTracker.run(client: { _ in DoNothingScenarioTests.IdleApp() },
                                            sender: { ReferenceTrackerSender($0, flaw: flaw) })
    }

    /// Runs the sender with `flaw` and checks the report has the flaw's sentence, and none of
    /// the other flaws'; returns the failure with the sentence.
    @discardableResult
    static func expectOwnSentence(_ flaw: TrackerFlaw) async -> String? {
        let report = await run(flaw)
        let own = report.failures.first { $0.contains(sentences[flaw] ?? "?") }
        #expect(own != nil, "\(flaw): \(report)")
        for (other, sentence) in sentences where other != flaw {
            #expect(!report.failures.contains { $0.contains(sentence) }, "\(flaw) also read as \(other): \(report)")
        }
        return own
    }

    @Test func aCorrectSenderEndsDeliveredAndDismissed() async {
        let report = await Self.run(nil)
        #expect(report.failures == [], "\(report)\n\(report.steps.joined(separator: "\n"))")
        #expect(report.steps.contains { $0.hasSuffix("the lock screen showed 13 of them") }, "\(report.steps)")
        #expect(report.steps.contains { $0.hasPrefix("the order was delivered: the activity is ended, showing stage delivered") },
                "\(report.steps)")
        #expect(report.steps.contains { $0 == "four hours later the activity is dismissed" }, "\(report.steps)")
    }

    @Test func reusedTimestampsAreCaught() async {
        let own = await Self.expectOwnSentence(.reusedTimestamp)
        #expect(own?.contains("never reuse or go back") == true)
    }

    @Test func aUnixTimeDateIsCaught() async {
        let own = await Self.expectOwnSentence(.unixTimeDate)
        #expect(own?.contains("/aps/content-state/eta") == true, "\(own ?? "")")
    }

    @Test func anUpdateAfterEndIsCaught() async {
        let own = await Self.expectOwnSentence(.updateAfterEnd)
        #expect(own?.contains("ignoredAfterEnd") == true, "\(own ?? "")")
    }

    @Test func aPriority10FloodIsCaught() async {
        let own = await Self.expectOwnSentence(.priority10Flood)
        #expect(own?.contains("at priority 5") == true, "\(own ?? "")")
    }

    @Test func theRidersNameInContentStateIsCaught() async {
        let own = await Self.expectOwnSentence(.riderNameInState)
        #expect(own?.contains("/aps/content-state/riderName") == true, "\(own ?? "")")
    }

    @Test func pushingToTheDeviceTokenIsCaught() async {
        let own = await Self.expectOwnSentence(.deviceToken)
        #expect(own?.contains("DeviceTokenNotForTopic") == true, "\(own ?? "")")
    }
}
