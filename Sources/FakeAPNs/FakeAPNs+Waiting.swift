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
    /// - Throws: ``FakeAPNsError/timedOut`` after `timeout`.
    @discardableResult
    public func waitForRequests(count: Int = 1, timeout: Duration = .seconds(5),
                                where predicate: @escaping @Sendable (APNsJournalEntry) -> Bool = { _ in true })
        async throws -> [APNsJournalEntry] {
        let id = state.withLock { $0.makeID() }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                if Task.isCancelled { continuation.resume(throwing: FakeAPNsError.cancelled); return }
                let ready = state.withLock { s -> [APNsJournalEntry]? in
                    let matched = s.journal.elements.filter(predicate)
                    if matched.count >= count { return Array(matched.prefix(count)) }
                    s.requestWaiters[id] = .init(count: count, matching: predicate, matched: matched, continuation: continuation)
                    return nil
                }
                if let ready { continuation.resume(returning: ready); return }
                scheduleTimeout(id: id, after: timeout, what: "\(count) request(s)")
                if Task.isCancelled { failWaiter(id: id, with: .cancelled) }   // cancelled while registering
            }
        } onCancel: {
            failWaiter(id: id, with: .cancelled)
        }
    }

    /// Waits until `token`'s device has received at least `count` notifications in all
    /// (duplicates count) and returns the kept deliveries.
    /// - Throws: ``FakeAPNsError/timedOut`` after `timeout`.
    @discardableResult
    public func waitForDeliveries(to token: String, count: Int = 1, timeout: Duration = .seconds(5))
        async throws -> [DeliveredNotification] {
        let key = token.lowercased()
        let id = state.withLock { $0.makeID() }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                if Task.isCancelled { continuation.resume(throwing: FakeAPNsError.cancelled); return }
                let ready = state.withLock { s -> [DeliveredNotification]? in
                    if let device = s.devices[key], device.deliveredCount >= count { return device.keptDeliveries(s.configuration.deliveriesKeptPerDevice) }
                    s.deliveryWaiters[id] = .init(deviceToken: key, count: count, continuation: continuation)
                    return nil
                }
                if let ready { continuation.resume(returning: ready); return }
                scheduleTimeout(id: id, after: timeout, what: "\(count) delivery(ies) to \(key)")
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
