import Foundation

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
    /// - Throws: ``FakeBackendError/waitTimedOut`` naming `what` and summarising the state;
    ///   ``FakeBackendError/cancelled`` when the task is cancelled or the backend stops.
    @discardableResult
    public func waitFor(
        _ what: String = "a condition",
        timeout: Duration = .seconds(5),
        _ condition: @escaping @Sendable (FakeBackendState) -> Bool
    ) async throws -> FakeBackendState {
        let id = store.withLock { store -> UInt64 in
            store.nextWaiterID &+= 1
            return store.nextWaiterID
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<FakeBackendState, any Error>) in
                let accepted = store.withLock { store -> Bool in
                    // A wait that starts after stop() would otherwise sit out its whole timeout.
                    guard !lifecycle.isStopped else { return false }
                    store.waiters[id] = BackendStore.Waiter(what: what, condition: condition,
                                                            continuation: continuation, timeoutTask: nil)
                    return true
                }
                guard accepted else {
                    continuation.resume(throwing: FakeBackendError.cancelled(what: "\(what) (the backend stopped)"))
                    return
                }
                let timer = Task { [weak self] in
                    do { try await Task.sleep(for: timeout) } catch { return }
                    self?.finishWaiter(id) { state, what in .failure(FakeBackendError.waitTimedOut(what: what, timeout: timeout, state: state)) }
                }
                let registered = store.withLock { store -> Bool in
                    guard store.waiters[id] != nil else { return false }
                    store.waiters[id]?.timeoutTask = timer
                    return true
                }
                if !registered { timer.cancel() }
                if Task.isCancelled {
                    finishWaiter(id) { _, what in .failure(FakeBackendError.cancelled(what: what)) }
                } else {
                    check(id, condition)
                }
            }
        } onCancel: {
            finishWaiter(id) { _, what in .failure(FakeBackendError.cancelled(what: what)) }
        }
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
        guard let device = state.devices[key] else { throw FakeBackendError.cancelled(what: what) }
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

    /// Re-checks every waiter against a fresh snapshot; called after each change.
    func notifyWaiters() {
        let pending = store.withLock { store -> (FakeBackendState, [(UInt64, @Sendable (FakeBackendState) -> Bool)])? in
            guard !store.waiters.isEmpty else { return nil }
            return (store.snapshot, store.waiters.map { ($0.key, $0.value.condition) })
        }
        guard let (state, waiters) = pending else { return }
        for (id, condition) in waiters where condition(state) {
            finishWaiter(id) { _, _ in .success(state) }
        }
    }

    /// Checks one waiter now (conditions run outside the lock).
    private func check(_ id: UInt64, _ condition: @Sendable (FakeBackendState) -> Bool) {
        let state = self.state
        if condition(state) { finishWaiter(id) { _, _ in .success(state) } }
    }

    /// Removes a waiter and resumes it with `result`; a no-op when it already finished.
    private func finishWaiter(_ id: UInt64, _ result: (FakeBackendState, String) -> Result<FakeBackendState, any Error>) {
        let found = store.withLock { store -> (BackendStore.Waiter, FakeBackendState)? in
            guard let waiter = store.waiters.removeValue(forKey: id) else { return nil }
            return (waiter, store.snapshot)
        }
        guard let (waiter, state) = found else { return }
        waiter.timeoutTask?.cancel()
        waiter.continuation.resume(with: result(state, waiter.what))
    }

    /// Fails every pending wait (the backend stopped).
    func failAllWaiters() {
        let waiters = store.withLock { store -> [BackendStore.Waiter] in
            defer { store.waiters.removeAll() }
            return Array(store.waiters.values)
        }
        for waiter in waiters {
            waiter.timeoutTask?.cancel()
            waiter.continuation.resume(throwing: FakeBackendError.cancelled(what: "\(waiter.what) (the backend stopped)"))
        }
    }
}
