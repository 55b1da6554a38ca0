import Contracts
import Foundation

/// A notification as a simulated device received it.
public struct DeliveredNotification: Sendable, Hashable {
    /// The device token, lowercase hex.
    public var deviceToken: String
    /// The `apns-id` the fake answered with (echoed or generated).
    public var apnsID: String
    /// The push's `apns-topic`.
    public var topic: String
    /// The push's `apns-push-type`.
    public var pushType: APNsPushType
    /// The push's priority: 10, 5 or 1.
    public var priority: Int
    /// The push's `apns-collapse-id`, if any.
    public var collapseID: String?
    /// `apns-expiration` as sent, if any.
    public var expiration: Int64?
    /// The payload exactly as sent.
    public var payload: [UInt8]
    /// When the device received it (ms since 1970, on the fake's clock).
    public var deliveredAt: Int64
    /// When the fake accepted it (ms since 1970): equal to `deliveredAt` when the device
    /// was online, earlier when it was stored while the device was offline.
    public var acceptedAt: Int64
    /// True for the second copy of an injected duplicate delivery.
    public var isDuplicate: Bool

    /// The payload read as the app's `PushPayload` model, or nil when it does not decode
    /// (decoded on each call; the fake stores bytes only).
    public var pushPayload: PushPayload? {
        try? JSONDecoder().decode(PushPayload.self, from: Data(payload))
    }

    /// The payload as UTF-8 text (lossy for invalid bytes), for messages and asserts.
    public var payloadText: String { String(decoding: payload, as: UTF8.self) }
}

/// What became of an accepted push on its way to the device.
public enum DeliveryOutcome: Sendable, Hashable, CaseIterable {
    /// The device was online and received it.
    case delivered
    /// Received twice (an injected duplicate delivery).
    case deliveredTwice
    /// The device is offline; the push is stored (replacing any earlier stored one).
    case storedWhileOffline
    /// The device is offline and `apns-expiration` is 0 or past: dropped.
    case droppedOffline
    /// A background push beyond the device's hourly budget: accepted, not delivered.
    case backgroundBudgetExceeded

    // MARK: Live Activities (the journal's `detail` says more)

    /// A `start` push to a push-to-start token started an activity.
    case activityStarted
    /// An `update` push changed the activity's content state.
    case activityUpdated
    /// An `end` push ended the activity.
    case activityEnded
    /// Not applied: its `aps.timestamp` is not newer than the last applied one.
    case ignoredOlderTimestamp
    /// Not applied: the activity has ended (or was dismissed).
    case ignoredAfterEnd
    /// Not applied: a `start` to an activity's token, or an `update`/`end` to a
    /// push-to-start token.
    case ignoredWrongToken
    /// Dropped: `content-state` does not decode into the app's `ContentState` (or is
    /// missing where the event needs it).
    case droppedUndecodableContentState
    /// Dropped: a start whose `attributes-type` or `attributes` the app cannot decode.
    case droppedUndecodableAttributes
    /// Dropped: no `aps`, no integer `timestamp` or no known `event`.
    case droppedUnreadable
    /// Dropped: a priority-10 update beyond the activity's hourly budget.
    case droppedOverBudget
    /// Dropped: a start while the device shows as many activities as it keeps.
    case droppedTooManyActivities

    /// True when a Live Activity push changed the activity (started, updated or ended it).
    public var isAppliedToActivity: Bool {
        self == .activityStarted || self == .activityUpdated || self == .activityEnded
    }
}
