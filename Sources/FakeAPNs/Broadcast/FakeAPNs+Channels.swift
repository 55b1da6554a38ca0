import LoopbackHTTP
import FakeSupport
import PushCore

extension APNsAdmin {
    /// `GET /apns/channels`: every channel of both environments with its subscribers.
    struct ChannelList: Encodable {
        var channels: [ChannelItem]
    }

    /// A channel as JSON: its id, bundle id, environment, `message-storage-policy` and
    /// creation time (millisecond ISO 8601), with its subscribers.
    struct ChannelItem: Encodable {
        var channel: BroadcastChannel
        var subscribers: [Subscriber]

        enum CodingKeys: String, CodingKey { case channelId, bundleId, environment, messageStoragePolicy, createdAt, subscribers }

        func encode(to encoder: any Encoder) throws {
            var json = encoder.container(keyedBy: CodingKeys.self)
            let texts: [(CodingKeys, String)] = [
                (.channelId, channel.id), (.bundleId, channel.bundleID), (.environment, channel.environment.displayName),
                (.createdAt, AdminJSON.timestamp(milliseconds: channel.createdAt)),
            ]
            for (key, text) in texts { try json.encode(text, forKey: key) }
            try json.encode(channel.storesMessages ? 1 : 0, forKey: .messageStoragePolicy)
            try json.encode(subscribers, forKey: .subscribers)
        }
    }

    struct Subscriber: Encodable {
        var pushToken: String
        var deviceToken: String?
        var state: String?
    }

    /// `POST /apns/channels/subscriptions`: `{"channelId": BASE64, "pushToken": HEX}`.
    struct ChannelSubscription: Codable, FlatAdminRequestBody {
        enum CodingKeys: String, CodingKey, CaseIterable { case channelId, pushToken }
        var channelId: String
        var pushToken: String
    }
}

extension FakeAPNs {
    /// Every broadcast channel of both environments, oldest first per environment and bundle id
    /// (production first), with its subscribers.
    public var channels: [BroadcastChannel] {
        state.withLock { s in
            [APNsEnvironment.production, .sandbox].flatMap { environment in
                s.channels.channelIDs(bundleID: nil, environment: environment).compactMap { s.channels.channels[$0]?.channel }
            }
        }
    }

    /// Creates a channel as `POST /1/apps/{bundle}/channels` does, without the listener (for a
    /// test or a benchmark that sets the scene); returns its id. Past the 10,000 channels of
    /// the environment it still creates one: the limit is the API's.
    /// - Parameters:
    ///   - bundleID: the app's bundle id, as in the path.
    ///   - storesMessages: `message-storage-policy` 1.
    ///   - environment: default: the fake's.
    public func createChannel(bundleID: String, storesMessages: Bool, environment: APNsEnvironment? = nil) -> String {
        let now = clock.nowMilliseconds()
        return state.withLock { s in
            Self.insertChannel(bundleID: bundleID, storesMessages: storesMessages,
                               environment: environment ?? settings.environment, now: now,
                               channels: &s.channels, identifiers: &s.identifiers)
        }
    }

    /// A new channel with a fresh id, inserted; returns the id.
    static func insertChannel(bundleID: String, storesMessages: Bool, environment: APNsEnvironment, now: Int64,
                              channels: inout BroadcastChannelStore, identifiers: inout SplitMix64) -> String {
        var id = makeChannelID(using: &identifiers)
        while channels.channels[id] != nil { id = makeChannelID(using: &identifiers) }
        channels.insert(BroadcastChannel(id: id, bundleID: bundleID, environment: environment, storesMessages: storesMessages,
                                           createdAt: now, subscribers: []))
        return id
    }

    /// Subscribes the activity with push token `pushToken` to channel `channelID`, as an
    /// app's `Activity.request(…, pushType: .channel(id))` does (an activity started by a push
    /// subscribes with `input-push-channel`). An earlier subscription of the activity ends.
    /// - Returns: false when there is no such activity or channel.
    @discardableResult
    public func subscribe(pushToken: String, toChannel channelID: String) -> Bool {
        let token = pushToken.lowercased()
        return state.withLock { s in
            guard s.liveActivities.activities[token] != nil else { return false }
            return s.channels.subscribe(token, to: channelID)
        }
    }

    /// `GET /apns/channels` as JSON: each channel with its subscribers' devices and states.
    var channelList: APNsAdmin.ChannelList {
        state.withLock { s in
            let items = [APNsEnvironment.production, .sandbox].flatMap { environment in
                s.channels.channelIDs(bundleID: nil, environment: environment).compactMap { id -> APNsAdmin.ChannelItem? in
                    guard let channel = s.channels.channels[id]?.channel else { return nil }
                    let subscribers = channel.subscribers.map { token in
                        let activity = s.liveActivities.activities[token]?.current
                        return APNsAdmin.Subscriber(pushToken: token, deviceToken: activity?.deviceToken, state: activity?.state.rawValue)
                    }
                    return APNsAdmin.ChannelItem(channel: channel, subscribers: subscribers)
                }
            }
            return APNsAdmin.ChannelList(channels: items)
        }
    }

    /// `POST /apns/channels/subscriptions`: 204, or 404 naming what does not exist.
    func adminSubscribe(_ request: HTTPRequest) -> HTTPResponse {
        AdminAPI.withBody(APNsAdmin.ChannelSubscription.self, of: request) { body in
            guard APNsRequestValidator.isDeviceToken(body.pushToken) else { return AdminAPI.notADeviceToken("/pushToken") }
            guard storedLiveActivity(pushToken: body.pushToken) != nil else {
                return AdminAPI.problem(status: 404, detail: "/pushToken: no activity has this push token")
            }
            guard subscribe(pushToken: body.pushToken, toChannel: body.channelId) else {
                return AdminAPI.problem(status: 404, detail: "/channelId: no such channel; create it on the channel management listener")
            }
            return HTTPResponse(status: .noContent)
        }
    }
}
