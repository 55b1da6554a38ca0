import Contracts

/// Card 7's taps: drops repeats by notificationId and taps for another account than the
/// signed-in one, and turns a tap into a route (unknown → Home).
actor Inbox {
    private let dedupes: Bool
    private var shown: Set<NotificationID> = []
    private var tapped: Set<NotificationID> = []

    init(flaws: Flaws) {
        dedupes = !flaws.contains(.noDedupe)
    }

    /// A push arrived while the app runs: true when it is new, so the app shows it.
    func receive(_ payload: PushPayload) -> Bool {
        guard dedupes else { return true }
        return shown.insert(payload.notificationID).inserted
    }

    /// The route a tap opens, or nil when the tap is a repeat or meant for another account
    /// (a signed-out user's old pushes included).
    func route(for payload: PushPayload, signedIn account: String?) -> Route? {
        if dedupes, !tapped.insert(payload.notificationID).inserted { return nil }
        if let owner = payload.accountID, owner != account { return nil }
        return payload.destination ?? .home
    }
}
