/// The body of `POST /v1/notifications/{id}/opened`: what the user tapped.
public struct NotificationOpened: Sendable, Hashable, Codable {
    /// The part of the notification that was tapped.
    public enum Action: String, Sendable, Hashable, Codable, CaseIterable {
        /// The notification itself.
        case open
        /// The "Track order" button of ORDER_UPDATE.
        case trackOrder
        /// The "See offer" button of OFFER.
        case seeOffer
    }

    /// What the user tapped.
    public var action: Action

    /// A report that the user tapped `action`.
    public init(action: Action) {
        self.action = action
    }
}
