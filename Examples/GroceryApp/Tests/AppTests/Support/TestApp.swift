import Foundation
import App
import FakeBackend

/// The app's push logic wired the way the app would wire it, against a FakeBackend, with
/// every wait going through `clock` (so a `Retry-After: 3` costs no wall time).
struct TestApp: Sendable {
    let session = Session()
    let devices: RemoteDeviceRepository
    let inbox: RemoteNotificationInboxRepository
    let openNotification: OpenNotificationUseCase

    init(backendURL: URL, clock: PushClock, idempotencyKeys: @escaping @Sendable () -> String = { UUID().uuidString }) {
        // Loopback answers at once. The short timeout is for `.loseResponse`: on Linux,
        // URLSession reports a connection closed without an answer only when the request
        // times out (curl sees it at once), so the retry waits this long.
        let http = URLSessionHTTPClient(baseURL: backendURL, timeout: 1)
        let retry = RetryPolicy(maxAttempts: 4, initialDelay: .milliseconds(250), maximumDelay: .seconds(2),
                                sleep: { await clock.sleep(for: $0) })
        devices = RemoteDeviceRepository(http: http, registration: Self.registration, retry: retry)
        inbox = RemoteNotificationInboxRepository(http: http, session: session, retry: retry,
                                                  makeIdempotencyKey: idempotencyKeys)
        openNotification = OpenNotificationUseCase(opens: inbox, session: session)
    }

    /// `Fixtures/valid/devices/sandbox.json` of the toolkit.
    static let registration = DeviceRegistrationBody(
        environment: .sandbox, appVersion: "10.0.13",
        publicKey: "BPhVRjEcONmeSRz8X2ugVwdMr7BxVOrc/d454co1VWFd43zfdtEnBusGPMoQR/dSNJdNhvBy6dT3g2ZhN+qoJNE=")

    /// The bytes iOS hands `application(_:didRegisterForRemoteNotificationsWithDeviceToken:)`.
    static let tokenBytes = Data((0..<32).map { UInt8(truncatingIfNeeded: $0 * 37 + 11) })
    static let token = DeviceToken(tokenBytes)

    /// Sessions FakeBackend knows: bearer → account.
    static let sessions = ["s1": "a1", "s2": "a2"]
    static let alice = Credentials(account: "a1", bearer: "s1")
    static let bob = Credentials(account: "a2", bearer: "s2")

    /// Signs in and registers this phone's token, as the engine does after sign-in.
    func signIn(_ credentials: Credentials) async throws {
        await session.signIn(credentials)
        try await devices.register(token: Self.token, for: credentials)
    }

    /// Signs out: the DELETE first, while the credentials are still here.
    func signOut() async throws {
        do {
            try await devices.unregister()
        } catch {
            await session.signOut()
            throw error
        }
        await session.signOut()
    }

    /// The tap iOS hands the engine for a payload: its JSON as `userInfo`, read by the app.
    static func tap(_ json: String, action: TapAction = .open) throws -> NotificationTap {
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8))
        guard let userInfo = object as? [String: Any], let payload = NotificationPayload(userInfo: userInfo) else {
            throw CocoaError(.coderReadCorrupt)
        }
        return NotificationTap(payload: payload, action: action)
    }

    /// An ORDER_UPDATE payload as the backend sends it (seed 000).
    static func orderUpdate(id: String, account: String = "a1", route: String = "orders/8F3K") -> String {
        """
        {"aps":{"alert":{"title":"On the way","body":"Your order is on the way"},"mutable-content":1,\
        "category":"ORDER_UPDATE","thread-id":"order-8F3K"},\
        "notificationId":"\(id)","accountId":"\(account)","route":"\(route)","orderVersion":7}
        """
    }
}
