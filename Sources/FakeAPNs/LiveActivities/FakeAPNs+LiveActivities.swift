import Contracts
import Foundation

extension FakeAPNs {
    // MARK: Live Activities: what a test sets up

    /// Gives `deviceToken`'s device a push-to-start token for the app's Live Activities (what
    /// `Activity<OrderTrackerAttributes>.pushToStartTokenUpdates` gives the app), replacing
    /// its earlier one. A `start` push to it starts an activity with a new push token.
    ///
    /// ```swift
    /// let pushToStart = apns.registerPushToStartToken(device: deviceToken)
    /// try await sender.startTracking(order, pushToStartToken: pushToStart)
    /// let activity = try #require(apns.liveActivities(onDevice: deviceToken).first)
    /// ```
    /// - Parameters:
    ///   - token: the hex token to use (any case); nil: a new random one.
    ///   - deviceToken: the device; register it with ``register(token:topic:environment:)`` for
    ///     its environment and topics to be checked.
    /// - Returns: the push-to-start token, lowercase.
    @discardableResult
    public func registerPushToStartToken(_ token: String? = nil, device deviceToken: String) -> String {
        state.withLock { s in
            let key = token.map { $0.lowercased() } ?? Self.makeActivityToken(using: &s.identifiers)
            s.liveActivities.setPushToStartToken(key, device: deviceToken.lowercased())
            return key
        }
    }

    /// The push-to-start token of `deviceToken`'s device, if one was registered.
    public func pushToStartToken(device deviceToken: String) -> String? {
        state.withLock { $0.liveActivities.devices[deviceToken.lowercased()]?.pushToStartToken }
    }

    /// Starts an activity on `deviceToken`'s device as the app itself does (`Activity.request`
    /// with `pushType: .token`), so a test can push updates to its token.
    /// - Parameters:
    ///   - deviceToken: the device that shows it (hex, any case).
    ///   - attributes: the order it follows.
    ///   - contentState: what it shows first.
    ///   - pushToken: its push token (hex, any case); nil: a new random one.
    ///   - staleDate: when it turns stale unless updated; nil: never.
    ///   - timestamp: the `aps.timestamp` later pushes must be newer than (Unix seconds);
    ///     nil: the fake's clock's now.
    /// - Returns: the activity, or nil when the device keeps
    ///   ``LiveActivityPolicy/activitiesPerDevice`` activities still shown, or the token is
    ///   already in use.
    @discardableResult
    public func startLiveActivity(device deviceToken: String, attributes: OrderTrackerAttributes,
                                  contentState: OrderTrackerAttributes.ContentState, pushToken: String? = nil,
                                  staleDate: Date? = nil, timestamp: Int64? = nil) -> LiveActivity? {
        let now = clock.nowMilliseconds()
        return state.withLock { s -> LiveActivity? in
            let token = pushToken.map { $0.lowercased() } ?? Self.makeActivityToken(using: &s.identifiers)
            let stale = staleDate.map { date -> Int64 in
                let ms = (date.timeIntervalSince1970 * 1000).rounded(.down)
                return Int64(exactly: ms) ?? (ms > 0 ? .max / 2 : .min / 2)
            }
            let activity = LiveActivity(
                pushToken: token, deviceToken: deviceToken.lowercased(), attributes: attributes, contentState: contentState,
                state: .active, changedAt: now, startedAt: now, endedAt: nil, staleAt: stale, dismissalAt: nil,
                timestamp: timestamp ?? now / 1000, relevanceScore: nil, pushesApplied: 0)
            guard s.liveActivities.insert(activity, now: now, policy: s.configuration.liveActivities) else { return nil }
            s.liveActivities.settle(token, now: now, policy: s.configuration.liveActivities)
            return s.liveActivities.activities[token]?.current
        }
    }

    // MARK: Live Activities: what a test reads

    /// The activity with this push token as the device shows it now (time-driven changes up
    /// to the fake's clock's now applied first), or nil for an unknown token.
    public func liveActivity(pushToken: String) -> LiveActivity? {
        let key = pushToken.lowercased()
        let now = clock.nowMilliseconds()
        return state.withLock { s in
            s.liveActivities.settle(key, now: now, policy: s.configuration.liveActivities)
            return s.liveActivities.activities[key]?.current
        }
    }

    /// Every activity kept for `deviceToken`'s device, oldest first, as of now.
    public func liveActivities(onDevice deviceToken: String) -> [LiveActivity] {
        let key = deviceToken.lowercased()
        let now = clock.nowMilliseconds()
        return state.withLock { s in
            let tokens = s.liveActivities.devices[key]?.activityTokens ?? []
            return tokens.compactMap { token in
                s.liveActivities.settle(token, now: now, policy: s.configuration.liveActivities)
                return s.liveActivities.activities[token]?.current
            }
        }
    }

    /// The activity's states so far, oldest first: each change (start, update, stale, end,
    /// dismissal) as a snapshot, the newest ``LiveActivityPolicy/statesKeptPerActivity``.
    public func liveActivityHistory(pushToken: String) -> [LiveActivity] {
        let key = pushToken.lowercased()
        let now = clock.nowMilliseconds()
        return state.withLock { s in
            s.liveActivities.settle(key, now: now, policy: s.configuration.liveActivities)
            let keep = max(1, s.configuration.liveActivities.statesKeptPerActivity)
            return Array((s.liveActivities.activities[key]?.history ?? []).suffix(keep))
        }
    }

    /// The activity's states as they change: first those kept so far, then each new one. The
    /// stream finishes after the activity is dismissed (or forgotten, or the fake reset); an
    /// unknown token gives an empty stream.
    ///
    /// Pushes change it at once. Time-driven changes (stale, ended after eight hours,
    /// dismissed) are applied when the fake next looks at the activity — a push to it, or a
    /// read such as ``liveActivity(pushToken:)`` — stamped with the time they happened:
    ///
    /// ```swift
    /// clock.advance(by: .seconds(3600))
    /// _ = apns.liveActivity(pushToken: token)          // the fake looks: stale, ended, dismissed…
    /// for await snapshot in apns.liveActivityStates(pushToken: token) { states.append(snapshot.state) }
    /// ```
    public func liveActivityStates(pushToken: String) -> AsyncStream<LiveActivity> {
        let key = pushToken.lowercased()
        let now = clock.nowMilliseconds()
        let (stream, continuation) = AsyncStream.makeStream(of: LiveActivity.self, bufferingPolicy: .bufferingNewest(10_000))
        let id = state.withLock { s -> UInt64? in
            let policy = s.configuration.liveActivities
            s.liveActivities.settle(key, now: now, policy: policy)
            guard var record = s.liveActivities.activities[key] else { return nil }
            for snapshot in record.history.suffix(max(1, policy.statesKeptPerActivity)) { continuation.yield(snapshot) }
            if record.current.state == .dismissed { return nil }
            let id = s.makeID()
            record.streams[id] = continuation
            s.liveActivities.activities[key] = record
            return id
        }
        guard let id else {
            continuation.finish()
            return stream
        }
        // Finished streams were removed by whoever finished them, under the lock (taking it
        // again here would deadlock); only a consumer that stops early is removed here.
        continuation.onTermination = { [weak self] termination in
            guard case .cancelled = termination else { return }
            self?.state.withLock { _ = $0.liveActivities.activities[key]?.streams.removeValue(forKey: id) }
        }
        return stream
    }
}
