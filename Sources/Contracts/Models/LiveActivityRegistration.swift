/// The body of `PUT /v1/orders/{orderId}/live-activity`: the push token of the order's Live
/// Activity, sent when the activity starts and whenever its token changes.
public struct LiveActivityRegistration: Sendable, Hashable, Codable {
    /// The activity's own push token (not the device token): validated hex, stored lowercase.
    public var pushToken: DeviceToken
    /// The APNs environment the token belongs to.
    public var environment: DeviceRegistration.Environment

    /// A registration of `pushToken` in `environment`.
    public init(pushToken: DeviceToken, environment: DeviceRegistration.Environment) {
        self.pushToken = pushToken
        self.environment = environment
    }
}

/// The body of `PUT /v1/devices/{token}/push-to-start`: the app's push-to-start token on a
/// device the account registered.
public struct PushToStartRegistration: Sendable, Hashable, Codable {
    /// The push-to-start token: validated hex, stored lowercase.
    public var pushToStartToken: DeviceToken

    /// A registration of `pushToStartToken`.
    public init(pushToStartToken: DeviceToken) {
        self.pushToStartToken = pushToStartToken
    }
}

/// An order's id, the `{orderId}` of `/v1/orders/{orderId}/live-activity`: 1–64 of
/// `[A-Za-z0-9_-]`, as in the route `orders/<id>` and the tracker's attributes. Encoded as
/// its string; decoding anything else fails.
public struct OrderID: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
    /// The id as sent (case-sensitive).
    public let rawValue: String

    /// Validates `rawValue` as the `order-id` contract does; nil otherwise.
    public init?(rawValue: String) {
        guard !rawValue.isEmpty, rawValue.utf8.count <= 64, StringFormat.identifier.matches(rawValue) else { return nil }
        self.rawValue = rawValue
    }

    /// ``init(rawValue:)``.
    public init?(_ string: String) {
        self.init(rawValue: string)
    }

    public var description: String { rawValue }
}
