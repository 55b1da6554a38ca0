import Foundation

/// Continuations to resume once the lock is released.
struct Wakeups {
    var requests: [(CheckedContinuation<[APNsJournalEntry], any Error>, [APNsJournalEntry])] = []
    var deliveries: [(CheckedContinuation<[DeliveredNotification], any Error>, [DeliveredNotification])] = []

    func resume() {
        for (continuation, value) in requests { continuation.resume(returning: value) }
        for (continuation, value) in deliveries { continuation.resume(returning: value) }
    }
}

extension FakeAPNs {
    /// Waits until `count` requests matching `predicate` have arrived (counting those
    /// already in the journal), and returns them. The handler resumes the wait; nothing polls.
    /// `predicate` runs under the fake's lock, on the server's thread: keep it pure and never
    /// call the fake from it (that would deadlock).
    /// - Throws: ``FakeAPNsError/timedOut`` after `timeout`; ``FakeAPNsError/cancelled`` when
    ///   the task is cancelled or the fake stops (see ``stop()``).
    @discardableResult
    public func waitForRequests(count: Int = 1, timeout: Duration = .seconds(5),
                                where predicate: @escaping @Sendable (APNsJournalEntry) -> Bool = { _ in true })
        async throws -> [APNsJournalEntry] {
        try await wait("\(count) request(s)", timeout: timeout) { s, id, continuation in
            let matched = s.journal.elements.filter(predicate)
            if matched.count >= count { return Array(matched.prefix(count)) }
            s.requestWaiters[id] = .init(count: count, matching: predicate, matched: matched, continuation: continuation)
            return nil
        }
    }

    /// Waits until `token`'s device has received at least `count` notifications in all
    /// (duplicates count) and returns the kept deliveries.
    /// - Throws: ``FakeAPNsError/timedOut`` after `timeout`; ``FakeAPNsError/cancelled`` when
    ///   the task is cancelled or the fake stops (see ``stop()``).
    @discardableResult
    public func waitForDeliveries(to token: String, count: Int = 1, timeout: Duration = .seconds(5))
        async throws -> [DeliveredNotification] {
        let key = token.lowercased()
        return try await wait("\(count) delivery(ies) to \(key)", timeout: timeout) { s, id, continuation in
            if let device = s.devices[key], device.deliveredCount >= count {
                return device.keptDeliveries(s.configuration.deliveriesKeptPerDevice)
            }
            s.deliveryWaiters[id] = .init(deviceToken: key, count: count, continuation: continuation)
            return nil
        }
    }

    /// What both waits do: `register` runs under the lock, unless the fake has stopped, and
    /// returns the answer when it is there already, or keeps the continuation (under the id it
    /// is given) and returns nil; then the timeout starts.
    private func wait<Value: Sendable>(
        _ what: String, timeout: Duration,
        register: (inout FakeAPNsState, UInt64, CheckedContinuation<Value, any Error>) -> Value?
    ) async throws -> Value {
        let id = state.withLock { $0.makeID() }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                if Task.isCancelled { continuation.resume(throwing: FakeAPNsError.cancelled); return }
                let ready = state.withLock { s -> Result<Value, FakeAPNsError>? in
                    // Read under this lock: stop() sets it before it fails the waits kept here.
                    guard !lifecycle.isStopped else { return .failure(.stopped(what)) }
                    return register(&s, id, continuation).map { .success($0) }
                }
                if let ready { continuation.resume(with: ready); return }
                scheduleTimeout(id: id, after: timeout, what: what)
                if Task.isCancelled { failWaiter(id: id, with: .cancelled) }   // cancelled while registering
            }
        } onCancel: {
            failWaiter(id: id, with: .cancelled)
        }
    }

    private func scheduleTimeout(id: UInt64, after timeout: Duration, what: String) {
        let task = Task { [weak self] in
            do {
                try await Task.sleep(for: timeout)
            } catch {
                return   // cancelled: the wait was satisfied first
            }
            self?.failWaiter(id: id, with: .timedOut(what))
        }
        state.withLock { s in
            if s.requestWaiters[id] != nil || s.deliveryWaiters[id] != nil {
                s.timeouts[id] = task
            } else {
                task.cancel()
            }
        }
    }

    private func failWaiter(id: UInt64, with error: FakeAPNsError) {
        let (request, delivery) = state.withLock { s in
            s.timeouts.removeValue(forKey: id)?.cancel()
            return (s.requestWaiters.removeValue(forKey: id), s.deliveryWaiters.removeValue(forKey: id))
        }
        request?.continuation.resume(throwing: error)
        delivery?.continuation.resume(throwing: error)
    }

    /// Fails every pending wait and cancels its timeout (the fake stopped).
    func failAllWaiters() {
        let (requests, deliveries, timeouts) = state.withLock { s in
            defer {
                s.requestWaiters.removeAll()
                s.deliveryWaiters.removeAll()
                s.timeouts.removeAll()
            }
            return (Array(s.requestWaiters.values), Array(s.deliveryWaiters.values), Array(s.timeouts.values))
        }
        for timeout in timeouts { timeout.cancel() }
        for waiter in requests { waiter.continuation.resume(throwing: FakeAPNsError.stopped("\(waiter.count) request(s)")) }
        for waiter in deliveries {
            waiter.continuation.resume(throwing: FakeAPNsError.stopped("\(waiter.count) delivery(ies) to \(waiter.deviceToken)"))
        }
    }

    func collectRequestWakeups(for entry: APNsJournalEntry, state s: inout FakeAPNsState, into wakeups: inout Wakeups) {
        guard !s.requestWaiters.isEmpty else { return }
        for (id, var waiter) in s.requestWaiters where waiter.matching(entry) {
            waiter.matched.append(entry)
            if waiter.matched.count >= waiter.count {
                s.requestWaiters.removeValue(forKey: id)
                s.timeouts.removeValue(forKey: id)?.cancel()
                wakeups.requests.append((waiter.continuation, Array(waiter.matched.prefix(waiter.count))))
            } else {
                s.requestWaiters[id] = waiter
            }
        }
    }

    func collectDeliveryWakeups(for token: String, device: FakeAPNsState.Device, state s: inout FakeAPNsState,
                                into wakeups: inout Wakeups) {
        guard !s.deliveryWaiters.isEmpty else { return }
        for (id, waiter) in s.deliveryWaiters where waiter.deviceToken == token && device.deliveredCount >= waiter.count {
            s.deliveryWaiters.removeValue(forKey: id)
            s.timeouts.removeValue(forKey: id)?.cancel()
            wakeups.deliveries.append((waiter.continuation, device.keptDeliveries(s.configuration.deliveriesKeptPerDevice)))
        }
    }
}

extension FakeAPNsError {
    /// A wait ended because the fake stopped (``FakeAPNsError/cancelled`` by `==`).
    static func stopped(_ what: String) -> FakeAPNsError {
        FakeAPNsError(code: .cancelled, message: "FakeAPNs stopped while waiting for \(what); stop it after the waits end")
    }
}
