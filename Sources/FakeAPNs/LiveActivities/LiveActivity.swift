import Contracts

/// Where a Live Activity is in its life, as ActivityKit's `ActivityState` says it.
public enum LiveActivityState: String, Sendable, Hashable, Codable, CaseIterable {
    /// On the lock screen and updated by pushes.
    case active
    /// Active, but its `stale-date` has passed without a newer update.
    case stale
    /// Ended (an `end` push, or eight hours after start); still shown until dismissed.
    /// Updates are ignored from now on.
    case ended
    /// Gone from the lock screen.
    case dismissed
}

/// The seed's order tracker as a device shows it: ``LiveActivityOf`` for
/// `OrderTrackerAttributes`, the spelling the tracker's tests have always used.
public typealias LiveActivity = LiveActivityOf<OrderTrackerAttributes>

/// A Live Activity of a declared type (`LiveActivityAttributes`) as a simulated
/// device shows it: one snapshot, taken when it changed. Its attributes and content state are
/// what the device decoded with a default `JSONDecoder`, as ActivityKit does.
///
/// ``FakeAPNs/liveActivity(pushToken:as:)`` reads the current one;
/// ``FakeAPNs/liveActivityStates(pushToken:as:)`` streams every change. Times are milliseconds
/// since 1970 on the fake's ``PushClock``; `aps` dates (Unix seconds) are converted.
public struct LiveActivityOf<Attributes: LiveActivityAttributes>: Sendable, Hashable {
    /// Active, stale, ended or dismissed.
    public typealias State = LiveActivityState

    /// The activity's own push token (lowercase hex): `update` and `end` pushes go here.
    public var pushToken: String
    /// The device the activity runs on (lowercase hex).
    public var deviceToken: String
    /// What is fixed for the activity's life.
    public var attributes: Attributes
    /// What the lock screen shows now: the last applied `content-state`.
    public var contentState: Attributes.ContentState
    /// Active, stale, ended or dismissed.
    public var state: State
    /// When this snapshot's change happened (ms since 1970, on the fake's clock).
    public var changedAt: Int64
    /// When the activity started (ms since 1970).
    public var startedAt: Int64
    /// When it ended, by a push or by the system (ms since 1970).
    public var endedAt: Int64?
    /// When it turns stale: the last applied `stale-date` (ms since 1970), if any.
    public var staleAt: Int64?
    /// When it is (or was) dismissed (ms since 1970): the `end` push's `dismissal-date`, or
    /// four hours after the end. Nil while not ended.
    public var dismissalAt: Int64?
    /// The `aps.timestamp` of the last applied push (Unix seconds): a later push must be newer.
    public var timestamp: Int64
    /// The last applied `relevance-score`, if any.
    public var relevanceScore: Double?
    /// Pushes applied (the start included).
    public var pushesApplied: Int

    /// True while the lock screen shows it: active, stale or ended, not yet dismissed.
    public var isShown: Bool { state != .dismissed }

    /// The `attributes-type` the activity started with.
    public var attributesType: String { Attributes.attributesType }
}

extension LiveActivityOf {
    /// The typed view of a stored snapshot, nil when it is of another type.
    init?(_ stored: StoredLiveActivity) {
        guard let attributes = stored.attributes.value as? Attributes,
              let contentState = stored.contentState.value as? Attributes.ContentState else { return nil }
        self.init(pushToken: stored.pushToken, deviceToken: stored.deviceToken, attributes: attributes, contentState: contentState,
                  state: stored.state, changedAt: stored.changedAt, startedAt: stored.startedAt, endedAt: stored.endedAt,
                  staleAt: stored.staleAt, dismissalAt: stored.dismissalAt, timestamp: stored.timestamp,
                  relevanceScore: stored.relevanceScore, pushesApplied: stored.pushesApplied)
    }
}
