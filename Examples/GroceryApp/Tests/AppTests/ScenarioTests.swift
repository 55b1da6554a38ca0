import Foundation
import Testing
import PushScenarios

/// The toolkit's scenarios (the four bad days and the order tracker), run against the app and
/// a small APNs sender with its Live Activity side.
@Suite struct ScenarioTests {
    /// Breaks with any of the app's rules: see each failure's sentence in the report.
    @Test(arguments: PushScenario.allCases)
    func scenarioPasses(_ scenario: PushScenario) async {
        let clock = PushClock(skippingSleepsFrom: Date())
        let report = await scenario.run(clock: clock,
                                        client: { GroceryAppScenarioClient($0) },
                                        sender: { TestAPNsSender($0) })
        #expect(report.failures == [], "\(report)\n\(report.steps.joined(separator: "\n"))")
    }

    /// The tracker's pushes, as the lock screen shows them: every change shown, the order
    /// delivered, and the activity gone once its dismissal date passed.
    @Test func theOrderTrackerFollowsTheOrderToItsEnd() async {
        let report = await PushScenario.orderTracker.run(client: { GroceryAppScenarioClient($0) },
                                                         sender: { TestAPNsSender($0) })
        #expect(report.passed, "\(report)")
        #expect(report.steps.contains { $0.hasSuffix("the lock screen showed 13 of them") }, "\(report.steps)")
        #expect(report.steps.contains { $0.hasPrefix("the order was delivered: the activity is ended, showing stage delivered") },
                "\(report.steps)")
        #expect(report.steps.contains("four hours later the activity is dismissed"), "\(report.steps)")
    }
}
