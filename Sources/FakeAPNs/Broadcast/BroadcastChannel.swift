/// A broadcast channel as FakeAPNs keeps it: what `POST /1/apps/{bundle}/channels` created
/// on the channel management listener (Docs/readme/broadcast.md).
public struct BroadcastChannel: Sendable, Hashable {
    /// The channel id APNs issued: base64 of 16 random bytes, as sent in `apns-channel-id`.
    public var id: String
    /// The bundle id in the path it was created under.
    public var bundleID: String
    /// The environment it lives in (channels are per environment, as device tokens are).
    public var environment: APNsEnvironment
    /// `message-storage-policy` 1: the newest broadcast waits for an offline device (at most
    /// eight hours); 0: an offline device misses it, and a broadcast with a non-zero
    /// `apns-expiration` is refused.
    public var storesMessages: Bool
    /// When it was created (ms since 1970, on the fake's clock).
    public var createdAt: Int64
    /// The push tokens of the activities subscribed to it, in the order they subscribed.
    public var subscribers: [String]
}

/// The channels of both environments and their subscribers. Part of ``FakeAPNsState``
/// (behind the fake's one lock); it reads no clock.
struct BroadcastChannelStore {
    struct Record {
        var channel: BroadcastChannel
        /// `subscribers` as a set, for the membership check.
        var members: Set<String> = []
    }

    /// A broadcast kept for an offline device by a channel with storage.
    struct Stored {
        var channelID: String
        var push: LiveActivityPush
        var priority: Int
        var receivedAt: Int64
    }

    /// Apple: "up to 10,000 channels for your app in the development and production
    /// environment, respectively".
    static let maximumChannelsPerEnvironment = 10_000
    /// A stored broadcast is kept at most this long (ms).
    static let storageMilliseconds: Int64 = 8 * 3_600_000

    var channels: [String: Record] = [:]
    /// Channel ids per environment and bundle id, oldest first.
    var order: [APNsEnvironment: [String: [String]]] = [:]
    /// Activity push token → the channel it is subscribed to (an activity has one push type).
    var subscriptions: [String: String] = [:]
    /// Device token → the newest stored broadcast of each storage channel, for when it is online.
    var stored: [String: [String: Stored]] = [:]

    /// The channels of `bundleID` in `environment` (nil: every bundle id), oldest first.
    func channelIDs(bundleID: String?, environment: APNsEnvironment) -> [String] {
        guard let bundles = order[environment] else { return [] }
        if let bundleID { return bundles[bundleID] ?? [] }
        return bundles.keys.sorted().flatMap { bundles[$0] ?? [] }
    }

    /// Channels in `environment`, every bundle id counted (the limit is the app's; one fake
    /// usually serves one app, so the fake counts them all).
    func count(in environment: APNsEnvironment) -> Int {
        order[environment]?.values.reduce(0) { $0 + $1.count } ?? 0
    }

    /// The channel `id` of `bundleID` in `environment`, or nil (another bundle's or
    /// environment's channel is not registered here either).
    func channel(_ id: String, bundleID: String, environment: APNsEnvironment) -> BroadcastChannel? {
        guard let channel = channels[id]?.channel, channel.bundleID == bundleID, channel.environment == environment else { return nil }
        return channel
    }

    mutating func insert(_ channel: BroadcastChannel) {
        channels[channel.id] = Record(channel: channel)
        order[channel.environment, default: [:]][channel.bundleID, default: []].append(channel.id)
    }

    /// Deletes the channel: its subscribers stop receiving anything sent to it and its
    /// stored broadcasts are dropped.
    mutating func remove(_ id: String) {
        guard let record = channels.removeValue(forKey: id) else { return }
        let channel = record.channel
        order[channel.environment]?[channel.bundleID]?.removeAll { $0 == id }
        for token in channel.subscribers where subscriptions[token] == id { subscriptions[token] = nil }
        for device in Array(stored.keys) {
            stored[device]?[id] = nil
            if stored[device]?.isEmpty == true { stored[device] = nil }
        }
    }

    /// Subscribes an activity to a channel (an earlier subscription of it ends). False when
    /// the channel does not exist.
    @discardableResult
    mutating func subscribe(_ pushToken: String, to id: String) -> Bool {
        guard channels[id] != nil else { return false }
        if let earlier = subscriptions[pushToken], earlier != id { unsubscribe(pushToken) }
        guard channels[id]?.members.insert(pushToken).inserted == true else { return true }
        channels[id]?.channel.subscribers.append(pushToken)
        subscriptions[pushToken] = id
        return true
    }

    mutating func unsubscribe(_ pushToken: String) {
        guard let id = subscriptions.removeValue(forKey: pushToken) else { return }
        channels[id]?.members.remove(pushToken)
        channels[id]?.channel.subscribers.removeAll { $0 == pushToken }
    }

    /// Keeps `broadcast` for `device`, replacing the channel's older one.
    mutating func store(_ broadcast: Stored, for device: String) {
        stored[device, default: [:]][broadcast.channelID] = broadcast
    }

    /// Takes the broadcasts kept for `device` that are not older than eight hours at `now`,
    /// oldest first.
    mutating func takeStored(for device: String, now: Int64) -> [Stored] {
        guard let kept = stored.removeValue(forKey: device) else { return [] }
        return kept.values.filter { now &- $0.receivedAt <= Self.storageMilliseconds }.sorted { $0.receivedAt < $1.receivedAt }
    }

    mutating func removeAll() {
        self = BroadcastChannelStore()
    }
}
