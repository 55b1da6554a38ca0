
/// A push request that passed the request-local checks, with its headers read.
public struct APNsPushRequest: Sendable, Hashable {
    /// The device token from the path, lowercased.
    public var deviceToken: String
    /// `apns-id` as sent, or nil (the fake then generates one).
    public var apnsID: String?
    /// `apns-topic`: the bundle id, with the push type's suffix where it needs one.
    public var topic: String
    /// `apns-push-type` (`alert` when omitted).
    public var pushType: APNsPushType
    /// 10, 5 or 1; 10 when omitted (5 for background pushes, see `APNsRequestValidator`).
    public var priority: Int
    /// `apns-expiration` in seconds since 1970; nil when omitted; 0 means "now or never".
    public var expiration: Int64?
    /// `apns-collapse-id`: a later notification with the same id replaces this one.
    public var collapseID: String?
    /// The JSON payload as sent.
    public var payload: [UInt8]
}
