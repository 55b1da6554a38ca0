/// Which part of a notification the user tapped; the wire value of the opened report.
public enum TapAction: String, Hashable, Sendable, Codable, CaseIterable {
    /// The notification's body.
    case open
    /// The "Track order" button of ORDER_UPDATE.
    case trackOrder
    /// The "See offer" button of OFFER.
    case seeOffer
}

/// A tap, as the notification engine hands it over; the domain never sees `UNNotification`.
public struct NotificationTap: Hashable, Sendable {
    /// From the payload. Drops repeats, keys analytics.
    public var id: NotificationID
    /// Who the server sent it to.
    public var accountID: AccountID?
    /// nil when this app version can't read the route.
    public var route: Route?
    /// The body or one of the buttons.
    public var action: TapAction

    public init(id: NotificationID, accountID: AccountID?, route: Route?, action: TapAction) {
        self.id = id
        self.accountID = accountID
        self.route = route
        self.action = action
    }

    /// The tap on `payload`'s body or button.
    public init(payload: NotificationPayload, action: TapAction) {
        self.init(id: payload.notificationID, accountID: payload.accountID,
                  route: payload.route.flatMap(Route.init(path:)), action: action)
    }
}
