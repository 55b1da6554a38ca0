/// How FakeAPNs simulates Live Activities on its devices: the system's limits and the
/// priority-10 budget. The defaults follow what Apple documents; where Apple publishes no
/// figure (the budget, how many activities a device keeps) the choice is said here and in
/// `Docs/readme/live-activities.md`.
public struct LiveActivityPolicy: Sendable, Hashable {
    /// Priority-10 updates (and ends) applied per activity in any rolling hour. Apple says
    /// the system gives each activity a budget for priority-10 updates and publishes no
    /// number; 10 lets an order tracker send every stage change (five stages and a few ETA
    /// corrections) at priority 10, while a sender that sends every small change at 10 runs
    /// out within a test. Priority-5 updates never draw on it, as Apple documents.
    public var priority10UpdatesPerHour: Int = 10
    /// The app has the frequent-updates entitlement (`NSSupportsLiveActivitiesFrequentUpdates`):
    /// the budget is ``frequentPriority10UpdatesPerHour`` instead.
    public var frequentUpdates: Bool = false
    /// The hourly budget with the frequent-updates entitlement: 60, one a minute (Apple
    /// says only that it is higher).
    public var frequentPriority10UpdatesPerHour: Int = 60
    /// Activities kept per device, dismissed ones included; when full, the oldest dismissed
    /// one is forgotten, and a start with every kept activity still on screen is dropped
    /// (ActivityKit refuses too many activities; Apple publishes no number).
    public var activitiesPerDevice: Int = 8
    /// States kept per activity for ``FakeAPNs/liveActivityStates(pushToken:as:)`` to replay
    /// (the newest; older ones are forgotten).
    public var statesKeptPerActivity: Int = 100
    /// The system ends an activity this long after it started (Apple: eight hours).
    public var maximumActiveSeconds: Int64 = 8 * 3600
    /// An ended activity stays on the lock screen at most this long (Apple: four hours);
    /// a later `dismissal-date` is cut to it.
    public var dismissalAfterEndSeconds: Int64 = 4 * 3600

    /// The defaults above.
    public init() {}

    /// The priority-10 budget in force: ``frequentPriority10UpdatesPerHour`` with the
    /// entitlement, else ``priority10UpdatesPerHour``.
    public var priority10Budget: Int { frequentUpdates ? frequentPriority10UpdatesPerHour : priority10UpdatesPerHour }
}
