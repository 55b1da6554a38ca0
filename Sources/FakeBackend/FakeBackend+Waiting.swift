import Foundation
import FakeSupport

extension FakeBackend {
    /// Waits until `condition` holds for the backend's state, and returns that state.
    ///
    /// The condition is checked at once and again after every change (a request, a reset,
    /// going offline); there is no polling. It runs on the thread that made the change, so
    /// keep it quick and side-effect free.
    ///
    /// ```swift
    /// try await backend.waitFor("two opens of 91") { $0.opens(for: "91").count == 2 }
    /// ```
    /// - Parameters:
    ///   - what: Names what is awaited in the timeout error.
    ///   - timeout: How long to wait before failing.
    ///   - condition: Checked against the state after each request; true ends the wait.
    /// - Throws: `PushFakeError.timedOut` naming `what` and summarising the state;
    ///   `FakeBackendError.cancelled` when the task is cancelled or the backend stops.
    @discardableResult
    public func waitFor(
        _ what: String = "a condition",
        timeout: Duration = .seconds(5),
        _ condition: @escaping @Sendable (FakeBackendState) -> Bool
    ) async throws -> FakeBackendState {
        try await waiters.wait(what, timeout: timeout) { id in
            // Kept before the first check, so a change made meanwhile checks it too.
            store.withLock { $0.waiters[id] = condition }
            let state = self.state
            guard condition(state) else { return nil }
            store.withLock { _ = $0.waiters.removeValue(forKey: id) }
            return state
        }
    }

    /// Waits until `count` requests matching `predicate` have arrived (those in the journal
    /// count, whatever their outcome) and returns the first `count` of them — the same wait
    /// as FakeAPNs' `FakeAPNs.waitForRequests(count:timeout:where:)`.
    /// - Throws: `PushFakeError.timedOut` after `timeout`; `PushFakeError.cancelled` when
    ///   the task is cancelled or the backend stops.
    @discardableResult
    public func waitForRequests(count: Int = 1, timeout: Duration = .seconds(5),
                                where predicate: @escaping @Sendable (BackendJournalEntry) -> Bool = { _ in true })
        async throws -> [BackendJournalEntry] {
        let state = try await waitFor("\(count) request(s)", timeout: timeout) { state in
            state.journalBuffer.elements.lazy.filter(predicate).prefix(count).count >= count
        }
        return Array(state.journal.lazy.filter(predicate).prefix(count))
    }

    /// Waits until `endpoint` has received at least `count` requests (whatever their outcome).
    @discardableResult
    public func waitForRequest(endpoint: Endpoint, count: Int = 1, timeout: Duration = .seconds(5)) async throws -> FakeBackendState {
        try await waitFor("\(count) \(endpoint) request(s)", timeout: timeout) { $0.requestCount(endpoint) >= count }
    }

    /// Waits until `token` is registered (to `account`, when given) and returns its record.
    @discardableResult
    public func waitForDevice(token: String, account: String? = nil, timeout: Duration = .seconds(5)) async throws -> RegisteredDevice {
        let key = token.lowercased()
        let what = account.map { "device \(key) registered to \($0)" } ?? "device \(key) registered"
        let state = try await waitFor(what, timeout: timeout) { state in
            guard let device = state.devices[key] else { return false }
            return account == nil || device.account == account
        }
        guard let device = state.devices[key] else { throw PushFakeError.cancelled("FakeBackend", waitingFor: what) }
        return device
    }

    /// Waits until `token` is no longer registered.
    @discardableResult
    public func waitForDeviceRemoval(token: String, timeout: Duration = .seconds(5)) async throws -> FakeBackendState {
        let key = token.lowercased()
        return try await waitFor("device \(key) removed", timeout: timeout) { $0.devices[key] == nil }
    }

    /// Waits until notification `id` has been reported opened at least `count` times.
    @discardableResult
    public func waitForOpens(notificationID id: String, count: Int = 1, timeout: Duration = .seconds(5)) async throws -> [RecordedOpen] {
        let state = try await waitFor("\(count) open(s) of notification \(id)", timeout: timeout) {
            $0.opens(for: id).count >= count
        }
        return state.opens(for: id)
    }

    // MARK: Machinery

    /// Re-checks every pending wait against a fresh snapshot; called after each change.
    func notifyWaiters() {
        let pending = store.withLock { store -> (FakeBackendState, [(UInt64, @Sendable (FakeBackendState) -> Bool)])? in
            guard !store.waiters.isEmpty else { return nil }
            return (store.snapshot, Array(store.waiters))
        }
        guard let (state, conditions) = pending else { return }
        for (id, condition) in conditions where condition(state) {
            store.withLock { _ = $0.waiters.removeValue(forKey: id) }
            waiters.resume(id, returning: state)
        }
    }

    /// Fails every pending wait (the backend stopped).
    func failAllWaiters() { waiters.failAll() }
}
