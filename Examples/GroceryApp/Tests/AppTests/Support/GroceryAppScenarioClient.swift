import Foundation
import App
import Contracts
import PushScenarios

/// The scenarios' view of the app: plays iOS and the user over the app's real repositories
/// and use case. This file imports both the app and Contracts, so it spells `App.Route` and
/// `Contracts.Route` out; nothing else in the tests has to.
struct GroceryAppScenarioClient: ScenarioClient {
    private let environment: ScenarioEnvironment
    private let app: TestApp

    init(_ environment: ScenarioEnvironment) {
        self.environment = environment
        app = TestApp(backendURL: environment.backendURL, clock: environment.clock)
    }

    func register(token: String, account: String) async {
        let credentials = Credentials(account: AccountID(rawValue: account), bearer: environment.bearer(for: account))
        await app.session.signIn(credentials)
        guard let token = App.DeviceToken(hex: token) else { return }
        try? await app.devices.register(token: token, for: credentials)  // the engine retries at the next launch
    }

    func signOut() async {
        try? await app.devices.unregister()  // a failure stays pending, sent on resume
        await app.session.signOut()
    }

    func receive(_ payload: PushPayload) async -> Bool {
        guard let notification = Self.notification(payload) else { return false }
        return await app.inbox.willPresent(notification.notificationID)
    }

    func tap(_ payload: PushPayload, action: NotificationOpened.Action) async -> Contracts.Route? {
        guard let notification = Self.notification(payload) else { return nil }
        let tap = NotificationTap(payload: notification, action: TapAction(rawValue: action.rawValue) ?? .open)
        guard await app.inbox.deliver(tap) else { return nil }
        return Self.scenarioRoute(await app.openNotification.route(for: tap))
    }

    func resume() async {
        await app.devices.resume()
    }

    func settle() async {
        await app.inbox.reportsSettled()
    }

    /// The payload as the app gets it from iOS: the JSON as `userInfo`.
    private static func notification(_ payload: PushPayload) -> NotificationPayload? {
        guard let data = try? JSONEncoder().encode(payload),
              let userInfo = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return nil }
        return NotificationPayload(userInfo: userInfo)
    }

    /// The scenario's kinds of screen. The sign-in screen is none of them: no order opens.
    private static func scenarioRoute(_ route: App.Route) -> Contracts.Route? {
        switch route {
        case .home: return .home
        case .order(let id): return .order(id)
        case .offer(let id): return .offer(id)
        case .signIn: return nil
        }
    }
}
