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

    /// One activity of any declared type as JSON, for both admin routes that answer one
    /// (`GET` and `POST /apns/live-activities`): the stored activity's members under their own
    /// names, its times in millisecond ISO 8601 (UTC) as journal times are, and the attributes'
    /// `orderId` when they have one (the order tracker's readers use it); the attributes and
    /// content state as the app's types encode them, their `Date`s in ISO 8601 too. Nil
    /// members are left out.
    struct LiveActivityItem: Encodable {
        var activity: StoredLiveActivity

        init(_ activity: StoredLiveActivity) { self.activity = activity }

        enum CodingKeys: String, CodingKey {
            case pushToken, state, attributesType, attributes, orderId, contentState
            case changedAt, startedAt, endedAt, staleAt, dismissalAt, timestamp, relevanceScore, pushesApplied
        }

        func encode(to encoder: any Encoder) throws {
            let a = activity
            var json = encoder.container(keyedBy: CodingKeys.self)
            try json.encode(a.pushToken, forKey: .pushToken)
            try json.encode(a.state.rawValue, forKey: .state)
            try json.encode(a.attributesType, forKey: .attributesType)
            try json.encode(a.attributes, forKey: .attributes)
            let orderID = (try? JSONEncoder().encode(a.attributes))
                .flatMap { PayloadInspectors.parseObject(Array($0)) }?.member("orderId")?.value.value.stringValue
            try json.encodeIfPresent(orderID, forKey: .orderId)
            try json.encode(a.contentState, forKey: .contentState)
            let times: [(CodingKeys, Int64?)] = [(.changedAt, a.changedAt), (.startedAt, a.startedAt), (.endedAt, a.endedAt),
                                                 (.staleAt, a.staleAt), (.dismissalAt, a.dismissalAt)]
            for (key, milliseconds) in times {
                try json.encodeIfPresent(milliseconds.map { AdminJSON.timestamp(milliseconds: $0) }, forKey: key)
            }
            try json.encode(a.timestamp, forKey: .timestamp)
            try json.encodeIfPresent(a.relevanceScore, forKey: .relevanceScore)
            try json.encode(a.pushesApplied, forKey: .pushesApplied)
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
