import Foundation
import FakeSupport

/// Waits a change satisfied, to resume once the lock is released.
struct Wakeups {
    var requests: [(FakeWaiters<[APNsJournalEntry]>, UInt64, [APNsJournalEntry])] = []
    var deliveries: [(FakeWaiters<[DeliveredNotification]>, UInt64, [DeliveredNotification])] = []

    func resume() {
        for (waits, id, value) in requests { waits.resume(id, returning: value) }
        for (waits, id, value) in deliveries { waits.resume(id, returning: value) }
    }
}

extension FakeAPNs {
    /// Waits until `count` requests matching `predicate` have arrived (counting those
    /// already in the journal), and returns them. The handler resumes the wait; nothing polls.
    /// `predicate` runs under the fake's lock, on the server's thread: keep it pure and never
    /// call the fake from it (that would deadlock).
    /// - Throws: `PushFakeError.timedOut` after `timeout`; `PushFakeError.cancelled` when
    ///   the task is cancelled or the fake stops (see ``stop()``).
    @discardableResult
    public func waitForRequests(count: Int = 1, timeout: Duration = .seconds(5),
                                where predicate: @escaping @Sendable (APNsJournalEntry) -> Bool = { _ in true })
        async throws -> [APNsJournalEntry] {
        try await requestWaits.wait("\(count) request(s)", timeout: timeout) { id in
            state.withLock { s in
                let matched = s.journal.elements.filter(predicate)
                if matched.count >= count { return Array(matched.prefix(count)) }
                s.requestWaiters[id] = .init(count: count, matching: predicate, matched: matched)
                return nil
            }
        }
    }

    /// Waits until `token`'s device has received at least `count` notifications in all
    /// (duplicates count) and returns the kept deliveries.
    /// - Throws: `PushFakeError.timedOut` after `timeout`; `PushFakeError.cancelled` when
    ///   the task is cancelled or the fake stops (see ``stop()``).
    @discardableResult
    public func waitForDeliveries(to token: String, count: Int = 1, timeout: Duration = .seconds(5))
        async throws -> [DeliveredNotification] {
        let key = token.lowercased()
        return try await deliveryWaits.wait("\(count) delivery(ies) to \(key)", timeout: timeout) { id in
            state.withLock { s in
                if let device = s.devices[key], device.deliveredCount >= count {
                    return device.keptDeliveries(s.configuration.deliveriesKeptPerDevice)
                }
                s.deliveryWaiters[id] = .init(deviceToken: key, count: count)
                return nil
            }
        }
    }

    /// Fails every pending wait (the fake stopped).
    func failAllWaiters() {
        requestWaits.failAll()
        deliveryWaits.failAll()
    }

    func collectRequestWakeups(for entry: APNsJournalEntry, state s: inout FakeAPNsState, into wakeups: inout Wakeups) {
        guard !s.requestWaiters.isEmpty else { return }
        for (id, var waiter) in s.requestWaiters where waiter.matching(entry) {
            waiter.matched.append(entry)
            if waiter.matched.count >= waiter.count {
                s.requestWaiters.removeValue(forKey: id)
                wakeups.requests.append((requestWaits, id, Array(waiter.matched.prefix(waiter.count))))
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
            wakeups.deliveries.append((deliveryWaits, id, device.keptDeliveries(s.configuration.deliveriesKeptPerDevice)))
        }
    }
}
