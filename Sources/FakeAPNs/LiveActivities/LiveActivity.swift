import Contracts

/// A Live Activity as a simulated device shows it: one snapshot, taken when it changed.
///
/// ``FakeAPNs/liveActivity(pushToken:)`` reads the current one;
/// ``FakeAPNs/liveActivityStates(pushToken:)`` streams every change. Times are milliseconds
/// since 1970 on the fake's ``PushClock``; `aps` dates (Unix seconds) are converted.
public struct LiveActivity: Sendable, Hashable {
    /// Where the activity is in its life, as ActivityKit's `ActivityState` says it.
    public enum State: String, Sendable, Hashable, Codable, CaseIterable {
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

    /// The activity's own push token (lowercase hex): `update` and `end` pushes go here.
    public var pushToken: String
    /// The device the activity runs on (lowercase hex).
    public var deviceToken: String
    /// What is fixed for the activity's life.
    public var attributes: OrderTrackerAttributes
    /// What the lock screen shows now: the last applied `content-state`.
    public var contentState: OrderTrackerAttributes.ContentState
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
}
