// This file fails to compile if the toolkit leaks a name: it imports the app next to the
// fakes and the scenarios (not Contracts, which an app's test imports only where it needs
// the payload model) and uses each of the app's common names unqualified. A public type of
// that name in FakeBackend, FakeAPNs or PushScenarios, or one they re-export, makes a line
// ambiguous.
import Foundation
import Testing
import App
import FakeAPNs
import FakeBackend
import PushScenarios

@Suite struct NameProbeTests {
    @Test func theAppsNamesStayUnambiguousNextToTheToolkit() async throws {
        let _: Route = .home
        _ = HTTPRequest(method: "GET", path: "v1/ping")
        _ = HTTPResponse(status: .noContent)
        _ = HTTPStatus.tooManyRequests
        _ = HTTPFields()
        _ = Schema()
        _ = Contract()
        _ = Member()
        _ = Violation()
        _ = FakeClock()
        let _: Fault = .damaged
        _ = FaultPlan()
        _ = Device()
        _ = Journal(entries: [JournalEntry()])
        _ = Scenario()
        _ = ProblemDetails()

        // And the toolkit is usable in the same file.
        let clock = PushClock(stoppedAt: Date(timeIntervalSince1970: 1_700_000_000))
        try await withFakeBackend(configuration: .init(clock: clock)) { backend in
            #expect(backend.devices.isEmpty)
        }
        var configuration = FakeAPNs.Configuration()
        configuration.clock = clock
        try await withFakeAPNs(configuration: configuration) { apns in
            #expect(apns.deliveredNotifications(for: PushScenario.deviceToken).isEmpty)
        }
    }
}
