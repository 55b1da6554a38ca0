import Foundation

extension FakeAPNs {
    // MARK: Reading what devices received

    /// Every notification `token`'s device received, oldest first (the newest
    /// ``FakeAPNs/Configuration/deliveriesKeptPerDevice``).
    public func deliveredNotifications(for token: String) -> [DeliveredNotification] {
        state.withLock { s in
            s.devices[token.lowercased()]?.keptDeliveries(settings.deliveriesKeptPerDevice) ?? []
        }
    }

    /// What the device shows: user-visible notifications, where a later one with the same
    /// `apns-collapse-id` has replaced the earlier one.
    public func visibleNotifications(for token: String) -> [DeliveredNotification] {
        state.withLock { s in
            Array((s.devices[token.lowercased()]?.visible ?? []).suffix(max(1, settings.deliveriesKeptPerDevice)))
        }
    }

    /// The notification APNs holds for an offline device, if any.
    public func storedNotification(for token: String) -> DeliveredNotification? {
        state.withLock { $0.devices[token.lowercased()]?.stored }
    }

    /// Deliveries to `token` as they happen: first those already delivered (and still
    /// kept), then each new one. The stream ends when the consumer stops iterating.
    public func deliveries(for token: String) -> AsyncStream<DeliveredNotification> {
        let key = token.lowercased()
        let (stream, continuation) = AsyncStream.makeStream(of: DeliveredNotification.self,
                                                            bufferingPolicy: .bufferingNewest(10_000))
        let id = state.withLock { s -> UInt64 in
            let id = s.makeID()
            var device = s.devices.take(key, orNewIn: settings.environment)
            for delivered in device.keptDeliveries(settings.deliveriesKeptPerDevice) { continuation.yield(delivered) }
            device.streams[id] = continuation
            s.devices.put(device, for: key)
            return id
        }
        continuation.onTermination = { [weak self] _ in
            self?.state.withLock { $0.devices.endStream(id, of: key) }
        }
        return stream
    }

    // MARK: Device state

    /// Puts `token`'s device online (delivering what APNs stored for it, unless expired)
    /// or offline (later pushes are stored, one per device).
    public func setOnline(_ online: Bool, token: String) {
        changes.note()
        let now = clock.nowMilliseconds()
        var wakeups = Wakeups()
        state.withLock { s in
            let key = token.lowercased()
            var device = s.devices.take(key, orNewIn: settings.environment)
            let wasOnline = device.online
            device.online = online
            if online && !wasOnline, let stored = device.stored {
                device.stored = nil
                let expired = stored.expiration.map { $0 != 0 && $0 &* 1000 < now } ?? false
                if !expired {
                    var notification = stored
                    notification.deliveredAt = now
                    _ = deliverNow(notification, now: now, device: &device, faults: &s.faults)
                }
            }
            s.devices.put(device, for: key)
            if online && !wasOnline {
                deliverStoredBroadcasts(to: key, now: now, channels: &s.channels, liveActivities: &s.liveActivities)
            }
            collectDeliveryWakeups(for: key, device: device, waits: &s.waits, into: &wakeups)
        }
        wakeups.resume()
    }

    /// Whether `token`'s device is online (unknown devices are).
    public func isOnline(token: String) -> Bool {
        state.withLock { $0.devices[token.lowercased()]?.online ?? true }
    }

    // MARK: Accepting and delivering (called under the lock)

    /// An accepted push on its way to the device.
    func accept(_ push: APNsPushRequest, apnsID: String, now: Int64, device: inout DeviceStore.Device,
                faults: inout InjectedFaults, waits: inout PendingWaits, wakeups: inout Wakeups) -> DeliveryOutcome {
        let notification = DeliveredNotification(
            deviceToken: push.deviceToken, apnsID: apnsID, topic: push.topic, pushType: push.pushType,
            priority: push.priority, collapseID: push.collapseID, expiration: push.expiration,
            payload: push.payload, deliveredAt: now, acceptedAt: now, isDuplicate: false)
        let outcome: DeliveryOutcome
        if device.online {
            outcome = deliverNow(notification, now: now, device: &device, faults: &faults)
        } else if let expiration = push.expiration, expiration == 0 || expiration &* 1000 < now {
            outcome = .droppedOffline
        } else {
            device.stored = notification
            outcome = .storedWhileOffline
        }
        collectDeliveryWakeups(for: push.deviceToken, device: device, waits: &waits, into: &wakeups)
        return outcome
    }

    /// Hands a notification to an online device: the background budget, duplicates, the
    /// visible list and the streams (`faults`: a duplicate injection may apply).
    func deliverNow(_ notification: DeliveredNotification, now: Int64, device: inout DeviceStore.Device,
                    faults: inout InjectedFaults) -> DeliveryOutcome {
        if notification.pushType == .background {
            let hourAgo = now &- 3_600_000
            device.backgroundDeliveries.removeAll { $0 <= hourAgo }
            guard device.backgroundDeliveries.count < settings.backgroundBudgetPerHour else {
                return .backgroundBudgetExceeded
            }
            device.backgroundDeliveries.append(now)
        }
        let twice = faults.takeDuplicate(for: notification.deviceToken)
        record(notification, device: &device, keep: settings.deliveriesKeptPerDevice)
        if twice {
            var copy = notification
            copy.isDuplicate = true
            record(copy, device: &device, keep: settings.deliveriesKeptPerDevice)
        }
        return twice ? .deliveredTwice : .delivered
    }

    private func record(_ notification: DeliveredNotification, device: inout DeviceStore.Device, keep: Int) {
        let keep = max(1, keep)
        // Trimmed in batches (amortised O(1) per delivery); readers take the newest `keep`.
        device.delivered.append(notification)
        if device.delivered.count >= 2 &* keep { device.delivered.removeFirst(device.delivered.count - keep) }
        device.deliveredCount += 1
        if notification.pushType.isUserVisible {
            if let collapseID = notification.collapseID,
               let index = device.visible.firstIndex(where: { $0.collapseID == collapseID }) {
                device.visible.remove(at: index)
            }
            device.visible.append(notification)
            if device.visible.count >= 2 &* keep { device.visible.removeFirst(device.visible.count - keep) }
        }
        for continuation in device.streams.values { continuation.yield(notification) }
    }
}
