/// A Live Activity as the store keeps it, of any declared type: ``LiveActivityOf`` with its
/// attributes and content state type-erased (one device shows several types side by side).
struct StoredLiveActivity: Sendable {
    var pushToken: String
    var deviceToken: String
    var attributesType: String
    var attributes: DeclaredValue
    var contentState: DeclaredValue
    var state: LiveActivityState
    var changedAt: Int64
    var startedAt: Int64
    var endedAt: Int64?
    var staleAt: Int64?
    var dismissalAt: Int64?
    var timestamp: Int64
    var relevanceScore: Double?
    var pushesApplied: Int
}

extension StoredLiveActivity {
    /// A typed snapshot kept type-erased.
    init<Attributes>(_ activity: LiveActivityOf<Attributes>) {
        self.init(pushToken: activity.pushToken, deviceToken: activity.deviceToken, attributesType: Attributes.attributesType,
                  attributes: DeclaredValue(value: activity.attributes), contentState: DeclaredValue(value: activity.contentState),
                  state: activity.state, changedAt: activity.changedAt, startedAt: activity.startedAt, endedAt: activity.endedAt,
                  staleAt: activity.staleAt, dismissalAt: activity.dismissalAt, timestamp: activity.timestamp,
                  relevanceScore: activity.relevanceScore, pushesApplied: activity.pushesApplied)
    }
}

/// Where a stored activity's snapshots go as they change: one ``FakeAPNs/liveActivityStates(pushToken:as:)`` stream.
struct LiveActivitySink: Sendable {
    var yield: @Sendable (StoredLiveActivity) -> Void
    var finish: @Sendable () -> Void
}
