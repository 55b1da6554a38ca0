import Contracts
import LoopbackHTTP
import Foundation
import Testing
@testable import FakeBackend

/// `waitFor` resumes on the change that satisfies it, and fails clearly on timeout.
@Suite struct WaitingTests {
    let backend = FakeBackend(configuration: .init(sessions: Requests.sessions))

    @Test func returnsAtOnceWhenTheConditionAlreadyHolds() async throws {
        _ = backend.handle(Requests.put(Requests.token))
        let device = try await backend.waitForDevice(token: Requests.token.uppercased(), timeout: .seconds(1))
        #expect(device.account == "a1")
    }

    @Test func resumesWhenARequestArrivesLater() async throws {
        let backend = self.backend
        async let waited = backend.waitForOpens(notificationID: "91", count: 2, timeout: .seconds(30))
        async let sent: Void = {
            try await backend.waitFor("the waiter to register", timeout: .seconds(30)) { _ in true }
            _ = backend.handle(Requests.opened("91"))
            _ = backend.handle(Requests.opened("91"))
        }()
        try await sent
        let opens = try await waited
        #expect(opens.count == 2)
    }

    @Test func waitForRequestCountsEveryOutcome() async throws {
        let backend = self.backend
        let task = Task { try await backend.waitForRequest(endpoint: .putDevice, count: 2, timeout: .seconds(30)) }
        _ = backend.handle(Requests.put(Requests.token, bearer: nil)) // 401 still counts
        _ = backend.handle(Requests.put("zz"))                       // 400 still counts
        let state = try await task.value
        #expect(state.requestCount(.putDevice) == 2)
    }

    @Test func timesOutWithAMessageNamingWhatAndTheState() async {
        _ = backend.handle(Requests.opened("7"))
        do {
            try await backend.waitForDevice(token: "abcd", timeout: .milliseconds(50))
            Issue.record("expected a timeout")
        } catch let error as FakeBackendError {
            #expect(error == .waitTimedOut)
            #expect(error.message.contains("device abcd registered"))
            #expect(error.message.contains("1 open(s)"))
            #expect(error.message.contains("/v1/notifications/7/opened"))
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func cancellingTheWaitingTaskEndsTheWait() async {
        let backend = self.backend
        let task = Task { try await backend.waitForDevice(token: "abcd", timeout: .seconds(60)) }
        task.cancel()
        let result = await task.result
        #expect(throws: FakeBackendError.cancelled) { try result.get() }
    }

    @Test func manyWaitersEachResumeOnce() async throws {
        let backend = self.backend
        try await withThrowingTaskGroup(of: Int.self) { group in
            for n in 1...20 {
                group.addTask { try await backend.waitFor("\(n) opens", timeout: .seconds(30)) { $0.opens.count >= n }.opens.count }
            }
            group.addTask {
                for n in 1...20 { _ = backend.handle(Requests.opened("n\(n)")) }
                return 20
            }
            var seen = 0
            for try await count in group {
                #expect(count >= 1)
                seen += 1
            }
            #expect(seen == 21)
        }
    }
}
