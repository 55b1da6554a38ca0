import Contracts

/// The app side of a scenario: an adapter over your client code that a scenario drives
/// the way iOS and the user would.
///
/// Implement it with your real device repository, inbox and opens reporter pointed at
/// ``ScenarioEnvironment/backendURL``; the scenario plays iOS (it hands you the pushes
/// FakeAPNs delivered) and the user (sign-in, sign-out, taps).
///
/// ```swift
/// struct MyAppAdapter: ScenarioClient {
///     let app: MyApp
///     func register(token: String, account: String) async {
///         await app.signIn(bearer: environment.bearer(for: account))
///         await app.didRegister(deviceToken: token)
///     }
///     func signOut() async { await app.signOut() }
///     func receive(_ payload: PushPayload) async -> Bool { await app.willPresent(payload) }
///     func tap(_ payload: PushPayload, action: NotificationOpened.Action) async -> Route? {
///         await app.didReceiveTap(payload, action: action)
///     }
/// }
/// ```
public protocol ScenarioClient: Sendable {
    /// The user is signed in as `account` (its bearer is
    /// ``ScenarioEnvironment/bearer(for:)``) and iOS handed the app device token `token`
    /// (lowercase hex). The app registers the token with the backend as it would; return
    /// when it has done so or given up.
    func register(token: String, account: String) async

    /// The user signs out. The app removes its token from the backend before it drops
    /// the credentials, as it would.
    func signOut() async

    /// iOS delivered `payload` while the app runs. Return true when the app shows it to
    /// the user, false when it drops it (a repeat, for instance).
    func receive(_ payload: PushPayload) async -> Bool

    /// The user tapped the notification (or one of its buttons). Return the route the app
    /// opens, or nil when it ignores the tap (a repeat, another account's push).
    func tap(_ payload: PushPayload, action: NotificationOpened.Action) async -> Route?

    /// The app comes back to the foreground, or the network is back: send what is pending.
    /// The default does nothing (for an app that retries on its own).
    func resume() async

    /// Returns once the work started by earlier calls (reports, retries) has landed or been
    /// given up; the scenario calls it before it checks the backend. The default returns at
    /// once.
    func settle() async
}

extension ScenarioClient {
    /// Does nothing: the app retries on its own.
    public func resume() async {}
    /// Returns at once: the app has no background work.
    public func settle() async {}
}
