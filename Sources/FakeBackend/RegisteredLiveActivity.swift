import Foundation

/// The push token of an order's Live Activity, as the backend holds it after a successful
/// `PUT /v1/orders/{orderId}/live-activity` and until `DELETE` of the same path.
public struct RegisteredLiveActivity: Sendable, Hashable, Codable {
    /// The order id from the path, as sent (order ids are case-sensitive, e.g. `8F3K`).
    public var orderId: String
    /// The account that registered it (from the bearer).
    public var account: String
    /// The activity's push token, lowercase hex: where the backend sends update and end pushes.
    public var pushToken: String
    /// `production` or `sandbox`.
    public var environment: String
    /// When the token last changed; an identical PUT leaves it alone (PUT is idempotent).
    public var updatedAt: Date

    /// A registration from its parts.
    public init(orderId: String, account: String, pushToken: String, environment: String, updatedAt: Date) {
        self.orderId = orderId
        self.account = account
        self.pushToken = pushToken
        self.environment = environment
        self.updatedAt = updatedAt
    }
}

/// The app's push-to-start token for one device, as the backend holds it after a successful
/// `PUT /v1/devices/{token}/push-to-start`; forgotten with the device.
public struct RegisteredPushToStart: Sendable, Hashable, Codable {
    /// The device token from the path, lowercase hex.
    public var deviceToken: String
    /// The account the device is registered to.
    public var account: String
    /// The push-to-start token, lowercase hex: where the backend sends a `start` push.
    public var pushToStartToken: String
    /// When the token last changed; an identical PUT leaves it alone.
    public var updatedAt: Date

    /// A registration from its parts.
    public init(deviceToken: String, account: String, pushToStartToken: String, updatedAt: Date) {
        self.deviceToken = deviceToken
        self.account = account
        self.pushToStartToken = pushToStartToken
        self.updatedAt = updatedAt
    }
}
