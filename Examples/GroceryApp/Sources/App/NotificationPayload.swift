import Foundation

/// What the app reads from a push's payload (seed 000, "APNs payload"): the keys outside
/// `aps` it needs to dedupe, check the account and route. Everything else is iOS's or the
/// service extension's.
public struct NotificationPayload: Hashable, Sendable, Decodable {
    public var notificationID: NotificationID
    public var accountID: AccountID?
    /// The route string as sent; ``NotificationTap`` parses it.
    public var route: String?
    /// `aps.category`: `ORDER_UPDATE` or `OFFER`.
    public var category: String?
    /// Later versions of one order replace earlier ones.
    public var orderVersion: Int?

    public init(notificationID: NotificationID, accountID: AccountID? = nil, route: String? = nil,
                category: String? = nil, orderVersion: Int? = nil) {
        self.notificationID = notificationID
        self.accountID = accountID
        self.route = route
        self.category = category
        self.orderVersion = orderVersion
    }

    /// Reads the payload's JSON bytes.
    /// - Throws: `DecodingError` when `notificationId` is missing or a key has the wrong type.
    public init(json: Data) throws {
        self = try JSONDecoder().decode(NotificationPayload.self, from: json)
    }

    /// Reads `UNNotificationContent.userInfo`; nil when it is not a payload of ours.
    public init?(userInfo: [AnyHashable: Any]) {
        var object: [String: Any] = [:]
        for (key, value) in userInfo {
            if let key = key as? String { object[key] = value }
        }
        guard JSONSerialization.isValidJSONObject(object),
              let data = try? JSONSerialization.data(withJSONObject: object),
              let payload = try? NotificationPayload(json: data) else { return nil }
        self = payload
    }

    private enum CodingKeys: String, CodingKey {
        case aps, notificationID = "notificationId", accountID = "accountId", route, orderVersion
    }

    private struct APS: Decodable {
        var category: String?
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        notificationID = try container.decode(NotificationID.self, forKey: .notificationID)
        accountID = try container.decodeIfPresent(AccountID.self, forKey: .accountID)
        route = try container.decodeIfPresent(String.self, forKey: .route)
        orderVersion = try container.decodeIfPresent(Int.self, forKey: .orderVersion)
        category = try container.decodeIfPresent(APS.self, forKey: .aps)?.category
    }
}
