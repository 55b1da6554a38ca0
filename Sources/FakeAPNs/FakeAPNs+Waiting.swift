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

/// FakeAPNs' pending waits: what each wait waits for, next to what satisfies it. Part of
/// ``FakeAPNsState``, behind the fake's one lock; the waits themselves (their continuations
/// and timeouts) are ``FakeAPNs/requestWaits`` and ``FakeAPNs/deliveryWaits``.
struct PendingWaits {
    struct RequestWaiter {
        var count: Int
        var matching: @Sendable (APNsJournalEntry) -> Bool
        var matched: [APNsJournalEntry]
    }

    struct DeliveryWaiter {
        var deviceToken: String
        var count: Int
    }

    private var requestWaiters: [UInt64: RequestWaiter] = [:]
    private var deliveryWaiters: [UInt64: DeliveryWaiter] = [:]

    mutating func add(_ waiter: RequestWaiter, id: UInt64) { requestWaiters[id] = waiter }
    mutating func add(_ waiter: DeliveryWaiter, id: UInt64) { deliveryWaiters[id] = waiter }
    mutating func removeRequestWaiter(_ id: UInt64) { _ = requestWaiters.removeValue(forKey: id) }
    mutating func removeDeliveryWaiter(_ id: UInt64) { _ = deliveryWaiters.removeValue(forKey: id) }

    /// No wait pending.
    var isEmpty: Bool { requestWaiters.isEmpty && deliveryWaiters.isEmpty }

    /// Whether a delivery wait waits on `token`'s device.
    func isAwaited(_ token: String) -> Bool {
        deliveryWaiters.values.contains(where: { $0.deviceToken == token })
    }

    /// The devices delivery waits wait on.
    var awaitedTokens: Set<String> { Set(deliveryWaiters.values.map(\.deviceToken)) }

    /// Collects the request waits `entry` satisfies, to resume through `waits`.
    mutating func collect(for entry: APNsJournalEntry, resuming waits: FakeWaiters<[APNsJournalEntry]>,
                          into wakeups: inout Wakeups) {
        guard !requestWaiters.isEmpty else { return }
        for (id, var waiter) in requestWaiters where waiter.matching(entry) {
            waiter.matched.append(entry)
            if waiter.matched.count >= waiter.count {
                requestWaiters.removeValue(forKey: id)
                wakeups.requests.append((waits, id, Array(waiter.matched.prefix(waiter.count))))
            } else {
                requestWaiters[id] = waiter
            }
        }
    }

    /// Collects the delivery waits `token`'s `device` satisfies (it keeps `keep` deliveries),
    /// to resume through `waits`.
    mutating func collect(for token: String, device: DeviceStore.Device, keep: Int,
                          resuming waits: FakeWaiters<[DeliveredNotification]>, into wakeups: inout Wakeups) {
        guard !deliveryWaiters.isEmpty else { return }
        for (id, waiter) in deliveryWaiters where waiter.deviceToken == token && device.deliveredCount >= waiter.count {
            deliveryWaiters.removeValue(forKey: id)
            wakeups.deliveries.append((waits, id, device.keptDeliveries(keep)))
        }
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
                let matched = s.journal.entries.elements.filter(predicate)
                if matched.count >= count { return Array(matched.prefix(count)) }
                s.waits.add(PendingWaits.RequestWaiter(count: count, matching: predicate, matched: matched), id: id)
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
                    return device.keptDeliveries(settings.deliveriesKeptPerDevice)
                }
                s.waits.add(PendingWaits.DeliveryWaiter(deviceToken: key, count: count), id: id)
                return nil
            }
        }
    }

    /// Fails every pending wait (the fake stopped).
    func failAllWaiters() {
        requestWaits.failAll()
        deliveryWaits.failAll()
    }

    /// The request waits `entry` satisfies, collected under the lock.
    func collectRequestWakeups(for entry: APNsJournalEntry, waits: inout PendingWaits, into wakeups: inout Wakeups) {
        waits.collect(for: entry, resuming: requestWaits, into: &wakeups)
    }

    /// The delivery waits `token`'s `device` satisfies, collected under the lock.
    func collectDeliveryWakeups(for token: String, device: DeviceStore.Device, waits: inout PendingWaits,
                                into wakeups: inout Wakeups) {
        waits.collect(for: token, device: device, keep: settings.deliveriesKeptPerDevice, resuming: deliveryWaits, into: &wakeups)
    }
}
