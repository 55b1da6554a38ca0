import Foundation
import Testing
import PushScenarios

/// The toolkit's four bad days, run against the app and a small APNs sender.
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
}
