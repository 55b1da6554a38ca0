import Contracts
import FakeSupport

extension APNsAdmin {
    /// `GET /apns/live-activities`: every device with a push-to-start token or activities.
    struct LiveActivityDevices: Encodable {
        var devices: [LiveActivityDevice]
    }

    struct LiveActivityDevice: Encodable {
        var deviceToken: String
        var pushToStartToken: String?
        var activities: [LiveActivityItem]
    }

    /// One activity as JSON: times in millisecond ISO 8601 (UTC), as journal times are; the
    /// content state as the app's `ContentState` encodes it, `eta` in ISO 8601 too.
    struct LiveActivityItem: Encodable {
        struct ContentState: Encodable {
            var stage: String
            var eta: String?
            var itemsPicked: Int?
            var itemsTotal: Int?
        }

        var pushToken: String
        var state: String
        var orderId: String
        var contentState: ContentState
        var changedAt: String
        var startedAt: String
        var endedAt: String?
        var staleAt: String?
        var dismissalAt: String?
        var timestamp: Int64
        var relevanceScore: Double?
        var pushesApplied: Int

        init(_ activity: LiveActivity) {
            func time(_ ms: Int64?) -> String? { ms.map { AdminJSON.timestamp(milliseconds: $0) } }
            pushToken = activity.pushToken
            state = activity.state.rawValue
            orderId = activity.attributes.orderId
            let content = activity.contentState
            contentState = ContentState(
                stage: content.stage.rawValue,
                eta: content.eta.map(AdminJSON.timestamp),
                itemsPicked: content.itemsPicked, itemsTotal: content.itemsTotal)
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
            let policy = s.configuration.liveActivities
            let devices = s.liveActivities.devices.keys.sorted().map { key -> APNsAdmin.LiveActivityDevice in
                let entry = s.liveActivities.devices[key]
                let activities = (entry?.activityTokens ?? []).compactMap { token -> APNsAdmin.LiveActivityItem? in
                    s.liveActivities.settle(token, now: now, policy: policy)
                    return s.liveActivities.activities[token].map { APNsAdmin.LiveActivityItem($0.current) }
                }
                return APNsAdmin.LiveActivityDevice(deviceToken: key, pushToStartToken: entry?.pushToStartToken, activities: activities)
            }
            return APNsAdmin.LiveActivityDevices(devices: devices)
        }
    }
}
