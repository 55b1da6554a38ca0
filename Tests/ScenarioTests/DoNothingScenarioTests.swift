import Testing
import Contracts
import PushScenarios

/// An app and a sender that do nothing: every scenario must fail, and say why, so a passing
/// report always means the code under test did the work.
/// Serialized, like the other suites that hold servers for seconds.
@Suite(.serialized) struct DoNothingScenarioTests {
    struct IdleApp: ScenarioClient {
        func register(token: String, account: String) async {}
        func signOut() async {}
        func receive(_ payload: PushPayload) async -> Bool { false }
        func tap(_ payload: PushPayload, action: NotificationOpened.Action) async -> Route? { nil }
    }

    struct IdleSender: ScenarioSender {
        func tokenRegistered(_ token: String) async {}
        func send(_ payload: PushPayload, to token: String) async {}
    }

    @Test(arguments: [
        (PushScenario.throttling, "the app never registered its token"),
        (.unregistered, "push 201 never reached the device"),
        (.offlineSignOut, "the app never registered"),
        (.duplicateDelivery, "push 401 reached the device 0 time(s)"),
        (.orderTracker, "the sender is not a LiveActivitySender"),
    ])
    func anIdleClientFailsEveryScenario(scenario: PushScenario, expected: String) async {
        let report = await scenario.run(client: { _ in IdleApp() }, sender: { _ in IdleSender() })
        #expect(!report.passed)
        #expect(report.failures.first?.contains(expected) == true, "\(report)")
    }
}
