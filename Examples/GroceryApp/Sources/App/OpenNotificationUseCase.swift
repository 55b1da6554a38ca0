/// Card 5: turns a tap into a route that is safe to show, and counts it once.
///
/// The rule: a tap opens what it is about, after sign-in; it never opens another account's
/// order; anything unreadable opens Home.
public struct OpenNotificationUseCase: Sendable {
    private let opens: any NotificationOpens
    private let session: Session

    public init(opens: any NotificationOpens, session: Session) {
        self.opens = opens
        self.session = session
    }

    /// The route for `tap`; never throws, the worst case is ``Route/home``. The open is
    /// reported when the tap is the signed-in account's (or no account's), even if the
    /// caller stops waiting.
    public func route(for tap: NotificationTap) async -> Route {
        let destination = tap.route ?? .home
        guard let signedIn = await session.current else {
            // The route survives the sign-in screen; the account is checked again after it.
            return tap.accountID == nil ? destination : .signIn(then: destination)
        }
        if let owner = tap.accountID, owner != signedIn.account {
            return .home  // a family iPad: the previous account's push
        }
        await opens.markOpened(tap)
        return destination
    }
}
