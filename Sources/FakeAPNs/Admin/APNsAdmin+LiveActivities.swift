import Foundation
import Contracts
import FakeSupport

extension APNsAdmin {
    /// `GET /apns/live-activities`: every device with a push-to-start token or activities,
    /// of every declared type.
    struct LiveActivityDevices: Encodable {
        var devices: [LiveActivityDevice]
    }

    struct LiveActivityDevice: Encodable {
        var deviceToken: String
        /// The push-to-start token registered last, of any type.
        var pushToStartToken: String?
        /// Each declared type's push-to-start token, by `attributes-type`.
        var pushToStartTokens: [String: String]
        var activities: [LiveActivityItem]
    }

    /// One activity of any declared type as JSON: times in millisecond ISO 8601 (UTC), as
    /// journal times are; the attributes and content state as the app's types encode them,
    /// their `Date`s in ISO 8601 too.
    struct LiveActivityItem: Encodable {
        var pushToken: String
        var state: String
        var attributesType: String
        var attributes: DeclaredValue
        /// The attributes' `orderId`, when they have one (the order tracker's readers use it).
        var orderId: String?
        var contentState: DeclaredValue
        var changedAt: String
        var startedAt: String
        var endedAt: String?
        var staleAt: String?
        var dismissalAt: String?
        var timestamp: Int64
        var relevanceScore: Double?
        var pushesApplied: Int

        init(_ activity: StoredLiveActivity) {
            func time(_ ms: Int64?) -> String? { ms.map { AdminJSON.timestamp(milliseconds: $0) } }
            pushToken = activity.pushToken
            state = activity.state.rawValue
            attributesType = activity.attributesType
            attributes = activity.attributes
            orderId = (try? JSONEncoder().encode(activity.attributes))
                .flatMap { PayloadInspectors.parseObject(Array($0)) }?.member("orderId")?.value.value.stringValue
            contentState = activity.contentState
            changedAt = AdminJSON.timestamp(milliseconds: activity.changedAt)
            startedAt = AdminJSON.timestamp(milliseconds: activity.startedAt)
            endedAt = time(activity.endedAt)
            staleAt = time(activity.staleAt)
            dismissalAt = time(activity.dismissalAt)
            timestamp = activity.timestamp
            relevanceScore = activity.relevanceScore
            pushesApplied = activity.pushesApplied
        }
    }
}

extension FakeAPNs {
    /// `GET /apns/live-activities`: each device's push-to-start token and activities as of
    /// now (time-driven changes applied), devices in token order.
    var liveActivityDevices: APNsAdmin.LiveActivityDevices {
        let now = clock.nowMilliseconds()
        return state.withLock { s in
            let policy = settings.liveActivities
            let devices = s.liveActivities.devices.keys.sorted().map { key -> APNsAdmin.LiveActivityDevice in
                let entry = s.liveActivities.devices[key]
                let activities = (entry?.activityTokens ?? []).compactMap { token -> APNsAdmin.LiveActivityItem? in
                    s.liveActivities.settle(token, now: now, policy: policy)
                    return s.liveActivities.activities[token].map { APNsAdmin.LiveActivityItem($0.current) }
                }
                return APNsAdmin.LiveActivityDevice(deviceToken: key, pushToStartToken: entry?.pushToStartToken,
                                                    pushToStartTokens: entry?.pushToStartTokens ?? [:], activities: activities)
            }
            return APNsAdmin.LiveActivityDevices(devices: devices)
        }
    }
}
