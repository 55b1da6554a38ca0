/// The APNs payload the backend sends (seed 000, "APNs payload"), with keys as on the wire.
///
/// ```swift
/// let payload = PushPayload(
///     aps: .init(alert: .init(title: "On the way", body: "Your order is on the way"),
///                category: .orderUpdate, threadID: "order-8F3K", mutableContent: true),
///     notificationID: NotificationID("91")!, accountID: "a1", route: "orders/8F3K", orderVersion: 7)
/// ```
public struct PushPayload: Sendable, Hashable, Codable {
    /// The `aps` dictionary APNs and iOS read.
    public var aps: APS
    /// Dedupes taps and keys analytics.
    public var notificationID: NotificationID
    /// The account the push was sent to; a tap never opens another account's order.
    public var accountID: String?
    /// The route string as sent; see ``destination`` for the parsed form.
    public var route: String?
    /// The order's version, from 1; the app drops stale updates.
    public var orderVersion: Int?
    /// Personal text encrypted to the device key, base64; only the service extension reads it.
    public var secret: String?
    /// The https URL of the image the service extension attaches.
    public var imageURL: String?

    /// A payload from its members; the optional ones are omitted when nil.
    public init(aps: APS, notificationID: NotificationID, accountID: String? = nil, route: String? = nil,
                orderVersion: Int? = nil, secret: String? = nil, imageURL: String? = nil) {
        self.aps = aps
        self.notificationID = notificationID
        self.accountID = accountID
        self.route = route
        self.orderVersion = orderVersion
        self.secret = secret
        self.imageURL = imageURL
    }

    /// The route as this app version reads it; nil (the app opens Home) when it cannot.
    public var destination: Route? { route.flatMap(Route.init) }

    enum CodingKeys: String, CodingKey {
        case aps, notificationID = "notificationId", accountID = "accountId", route, orderVersion, secret, imageURL = "imageUrl"
    }

    /// The notification categories the app declares.
    public enum Category: String, Sendable, Hashable, Codable, CaseIterable {
        /// Order updates, with the "Track order" action.
        case orderUpdate = "ORDER_UPDATE"
        /// Offers, with the "See offer" action.
        case offer = "OFFER"
    }

    /// How much a notification may interrupt (`interruption-level`).
    public enum InterruptionLevel: String, Sendable, Hashable, Codable, CaseIterable {
        /// `passive` adds to the list quietly; `active` lights the screen and plays a sound (the default).
        case passive, active
        /// Breaks through Focus, if the app has the entitlement.
        case timeSensitive = "time-sensitive"
        /// Plays a sound even muted; needs Apple's entitlement.
        case critical
    }
}
