/// A broadcast channel's configuration, the `apns-channel` contract: the body a provider sends
/// to create a channel and the one APNs answers a read with.
public struct APNsChannelConfiguration: Sendable, Hashable, Codable {
    /// 0: no storage; 1: the newest message is stored for an offline device.
    public var messageStoragePolicy: Int
    /// `LiveActivity`.
    public var pushType: String

    /// A configuration; the defaults are a channel without storage for Live Activities.
    public init(messageStoragePolicy: Int = 0, pushType: String = "LiveActivity") {
        self.messageStoragePolicy = messageStoragePolicy
        self.pushType = pushType
    }

    enum CodingKeys: String, CodingKey {
        case messageStoragePolicy = "message-storage-policy"
        case pushType = "push-type"
    }
}
