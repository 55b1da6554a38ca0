import Contracts
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

    /// The opens are sent only after the waiter is registered and its first check found
    /// none, so only the wake-up after a request can satisfy it.
    @Test func resumesWhenARequestArrivesLater() async throws {
        let backend = self.backend
        let (checks, checked) = AsyncStream.makeStream(of: Int.self)
        let waiter = Task {
            try await backend.waitFor("two opens of 91", timeout: .seconds(10)) { state in
                let count = state.opens(for: "91").count
                checked.yield(count)
                return count >= 2
            }
        }
        var seen = checks.makeAsyncIterator()
        #expect(await seen.next() == 0, "the first check runs once the waiter is registered, before any open")
        _ = backend.handle(Requests.opened("91"))
        _ = backend.handle(Requests.opened("91"))
        let state = try await waiter.value
        #expect(state.opens(for: "91").count == 2)
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
            #expect(error == .timedOut)
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
