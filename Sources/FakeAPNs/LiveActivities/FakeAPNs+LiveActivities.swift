import Contracts
import Foundation

extension FakeAPNs {
    // MARK: Live Activities: what a test sets up

    /// Declares an activity type of the app: the device then decodes a start push whose
    /// `attributes-type` is `LiveActivityAttributes/attributesType` into it. The
    /// generic calls below declare their type themselves; declare one a test only starts by
    /// push. Declarations outlive `reset()`.
    public func declareLiveActivity<Attributes: LiveActivityAttributes>(_ type: Attributes.Type) {
        state.withLock { $0.liveActivities.declare(type) }
    }

    /// Gives `deviceToken`'s device a push-to-start token for the app's activities of `type`
    /// (what `Activity<Attributes>.pushToStartTokenUpdates` gives the app), replacing its
    /// earlier one for that type, and declares the type. A `start` push to it starts an
    /// activity of that type with a new push token.
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
    ///   - type: the activity type; the seed's order tracker when left out (its spelling
    ///     before activity types were declared).
    /// - Returns: the push-to-start token, lowercase.
    @discardableResult
    public func registerPushToStartToken<Attributes: LiveActivityAttributes>(
        _ token: String? = nil, device deviceToken: String, for type: Attributes.Type = OrderTrackerAttributes.self
    ) -> String {
        state.withLock { s in
            s.liveActivities.declare(type)
            let key = token.map { $0.lowercased() } ?? Self.makeActivityToken(using: &s.identifiers)
            s.liveActivities.setPushToStartToken(key, device: deviceToken.lowercased(), attributesType: Attributes.attributesType)
            return key
        }
    }

    /// ``registerPushToStartToken(_:device:for:)`` for a type declared earlier, by its
    /// `attributes-type` (the admin API's way); an undeclared name fails naming the declared ones.
    func registerPushToStartToken(_ token: String?, device deviceToken: String,
                                  attributesTypeNamed name: String) -> Result<String, LiveActivityStore.Unapplied> {
        state.withLock { s in
            guard s.liveActivities.types[name] != nil else { return .failure(.init(message: s.liveActivities.unknownType(name))) }
            let key = token.map { $0.lowercased() } ?? Self.makeActivityToken(using: &s.identifiers)
            s.liveActivities.setPushToStartToken(key, device: deviceToken.lowercased(), attributesType: name)
            return .success(key)
        }
    }

    /// The push-to-start token of `deviceToken`'s device for `type` (the order tracker when
    /// left out), if one was registered.
    public func pushToStartToken<Attributes: LiveActivityAttributes>(
        device deviceToken: String, for type: Attributes.Type = OrderTrackerAttributes.self
    ) -> String? {
        state.withLock { $0.liveActivities.devices[deviceToken.lowercased()]?.pushToStartTokens[Attributes.attributesType] }
    }

    /// Starts an activity on `deviceToken`'s device as the app itself does (`Activity.request`
    /// with `pushType: .token`), so a test can push updates to its token; declares its type.
    /// - Parameters:
    ///   - deviceToken: the device that shows it (hex, any case).
    ///   - attributes: what is fixed for its life, of the app's declared type.
    ///   - contentState: what it shows first.
    ///   - pushToken: its push token (hex, any case); nil: a new random one.
    ///   - staleDate: when it turns stale unless updated; nil: never.
    ///   - timestamp: the `aps.timestamp` later pushes must be newer than (Unix seconds);
    ///     nil: the fake's clock's now.
    /// - Returns: the activity, or nil when the device keeps
    ///   ``LiveActivityPolicy/activitiesPerDevice`` activities still shown, or the token is
    ///   already in use.
    @discardableResult
    public func startLiveActivity<Attributes: LiveActivityAttributes>(
        device deviceToken: String, attributes: Attributes, contentState: Attributes.ContentState, pushToken: String? = nil,
        staleDate: Date? = nil, timestamp: Int64? = nil
    ) -> LiveActivityOf<Attributes>? {
        let now = clock.nowMilliseconds()
        return state.withLock { s -> LiveActivityOf<Attributes>? in
            s.liveActivities.declare(Attributes.self)
            let token = pushToken.map { $0.lowercased() } ?? Self.makeActivityToken(using: &s.identifiers)
            let stale = staleDate.map { date -> Int64 in
                let ms = (date.timeIntervalSince1970 * 1000).rounded(.down)
                return Int64(exactly: ms) ?? (ms > 0 ? .max / 2 : .min / 2)
            }
            let activity = LiveActivityOf<Attributes>(
                pushToken: token, deviceToken: deviceToken.lowercased(), attributes: attributes, contentState: contentState,
                state: .active, changedAt: now, startedAt: now, endedAt: nil, staleAt: stale, dismissalAt: nil,
                timestamp: timestamp ?? now / 1000, relevanceScore: nil, pushesApplied: 0)
            guard s.liveActivities.insert(StoredLiveActivity(activity), now: now, policy: settings.liveActivities) else { return nil }
            s.liveActivities.settle(token, now: now, policy: settings.liveActivities)
            return s.liveActivities.activities[token].flatMap { LiveActivityOf($0.current) }
        }
    }

    // MARK: Live Activities: what a test reads

    /// The activity with this push token as the device shows it now (time-driven changes up
    /// to the fake's clock's now applied first), or nil for an unknown token or an activity
    /// of another type than `type` (the order tracker when left out).
    public func liveActivity<Attributes: LiveActivityAttributes>(
        pushToken: String, as type: Attributes.Type = OrderTrackerAttributes.self
    ) -> LiveActivityOf<Attributes>? {
        storedLiveActivity(pushToken: pushToken).flatMap { LiveActivityOf($0) }
    }

    /// The activity with this push token, of any type, as of now.
    func storedLiveActivity(pushToken: String) -> StoredLiveActivity? {
        let key = pushToken.lowercased()
        let now = clock.nowMilliseconds()
        return state.withLock { s in
            s.liveActivities.settle(key, now: now, policy: settings.liveActivities)
            return s.liveActivities.activities[key]?.current
        }
    }

    /// Every activity of `type` kept for `deviceToken`'s device, oldest first, as of now
    /// (activities of other types are left out); `type` is the order tracker when left out.
    public func liveActivities<Attributes: LiveActivityAttributes>(
        onDevice deviceToken: String, of type: Attributes.Type = OrderTrackerAttributes.self
    ) -> [LiveActivityOf<Attributes>] {
        let key = deviceToken.lowercased()
        let now = clock.nowMilliseconds()
        return state.withLock { s in
            let tokens = s.liveActivities.devices[key]?.activityTokens ?? []
            return tokens.compactMap { token in
                s.liveActivities.settle(token, now: now, policy: settings.liveActivities)
                return s.liveActivities.activities[token].flatMap { LiveActivityOf($0.current) }
            }
        }
    }

    /// The activity's states so far, oldest first: each change (start, update, stale, end,
    /// dismissal) as a snapshot, the newest ``LiveActivityPolicy/statesKeptPerActivity``;
    /// empty for an activity of another type than `type` (the order tracker when left out).
    public func liveActivityHistory<Attributes: LiveActivityAttributes>(
        pushToken: String, as type: Attributes.Type = OrderTrackerAttributes.self
    ) -> [LiveActivityOf<Attributes>] {
        let key = pushToken.lowercased()
        let now = clock.nowMilliseconds()
        return state.withLock { s in
            s.liveActivities.settle(key, now: now, policy: settings.liveActivities)
            let keep = max(1, settings.liveActivities.statesKeptPerActivity)
            return (s.liveActivities.activities[key]?.history ?? []).suffix(keep).compactMap { LiveActivityOf($0) }
        }
    }

    /// The activity's states as they change: first those kept so far, then each new one. The
    /// stream finishes after the activity is dismissed (or forgotten, or the fake reset); an
    /// unknown token, or an activity of another type than `type` (the order tracker when
    /// left out), gives an empty stream.
    ///
    /// Pushes change it at once. Time-driven changes (stale, ended after eight hours,
    /// dismissed) are applied when the fake next looks at the activity — a push to it, or a
    /// read such as ``liveActivity(pushToken:as:)`` — stamped with the time they happened:
    ///
    /// ```swift
    /// clock.advance(by: .seconds(3600))
    /// _ = apns.liveActivity(pushToken: token)          // the fake looks: stale, ended, dismissed…
    /// for await snapshot in apns.liveActivityStates(pushToken: token) { states.append(snapshot.state) }
    /// ```
    public func liveActivityStates<Attributes: LiveActivityAttributes>(
        pushToken: String, as type: Attributes.Type = OrderTrackerAttributes.self
    ) -> AsyncStream<LiveActivityOf<Attributes>> {
        let key = pushToken.lowercased()
        let now = clock.nowMilliseconds()
        let (stream, continuation) = AsyncStream.makeStream(of: LiveActivityOf<Attributes>.self, bufferingPolicy: .bufferingNewest(10_000))
        let id = state.withLock { s -> UInt64? in
            let policy = settings.liveActivities
            s.liveActivities.settle(key, now: now, policy: policy)
            guard var record = s.liveActivities.activities[key], LiveActivityOf<Attributes>(record.current) != nil else { return nil }
            for snapshot in record.history.suffix(max(1, policy.statesKeptPerActivity)) {
                if let typed = LiveActivityOf<Attributes>(snapshot) { continuation.yield(typed) }
            }
            if record.current.state == .dismissed { return nil }
            let id = s.makeID()
            record.streams[id] = LiveActivitySink(
                yield: { snapshot in
                    if let typed = LiveActivityOf<Attributes>(snapshot) { continuation.yield(typed) }
                },
                finish: { continuation.finish() })
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
