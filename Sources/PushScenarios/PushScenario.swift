import Foundation
import Contracts
import FakeAPNs
import FakeBackend
import FakeSupport

/// The four bad days of DESIGN and the order tracker's Live Activity, each an end-to-end
/// run of your client and sender against FakeBackend and FakeAPNs on loopback, checked from
/// what the user would see.
///
/// ```swift
/// let report = await PushScenario.duplicateDelivery.run(
///     client: { environment in MyAppAdapter(environment) },
///     sender: { environment in MySenderAdapter(environment) })
/// #expect(report.failures == [], "\(report)")
/// ```
public enum PushScenario: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// FakeAPNs answers 429 to pushes sent too fast to one device (the sender backs off and
    /// delivers later); FakeBackend answers 429 with `Retry-After: 1` to the first device
    /// PUT (the app retries after it, not before).
    case throttling
    /// A token is unregistered at T: the next push gets 410 with T, and the sender stops
    /// pushing to it until it registers again.
    case unregistered = "410s"
    /// The backend is offline when the user signs out: the DELETE stays pending and is sent
    /// when the backend is back; meanwhile a push for the old account reaches the device and
    /// its tap must not open that account's order.
    case offlineSignOut = "offline-sign-out"
    /// A push delivered twice and an "opened" report whose response was lost: the app shows
    /// and routes it once, and the backend counts one open.
    case duplicateDelivery = "duplicate-delivery"
    /// An order moves through its stages on the lock screen (a Live Activity started by a
    /// push-to-start token): the team's ``LiveActivitySender`` stamps each push newer than the
    /// last, encodes dates as ActivityKit reads them, keeps personal data out, pushes to the
    /// activity's token within the priority-10 budget and nothing after `end`; the device
    /// ends on `delivered` and the activity is dismissed.
    case orderTracker = "order-tracker"

    /// The name `contract-check serve --scenario` takes.
    public var description: String { rawValue }

    /// The scenario named `name` (`throttling`, `410s`, `offline-sign-out`,
    /// `duplicate-delivery`, `order-tracker`), or nil.
    public init?(name: String) {
        self.init(rawValue: name)
    }

    /// The bundle id the scenarios use.
    public static let topic = "com.example.app"
    /// The device token iOS hands the app in the scenarios.
    public static let deviceToken = "0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9"
    /// The device's push-to-start token for the order tracker in the scenarios: 160 hex digits,
    /// as iOS issues Live Activity tokens (device tokens have 64).
    public static let pushToStartToken = "5f0a7c1e9b3d42a8c6e0f1b2d3a4c5e6f708192a3b4c5d6e7f8091a2b3c4d5e60a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9"

    /// Starts both fakes, runs the scenario against the client and sender the closures make,
    /// checks what the user would see, and stops the fakes.
    ///
    /// The fakes run on `clock`, which the adapters find in ``ScenarioEnvironment/clock``:
    /// a client and sender that wait (Retry-After, backoff) with its
    /// `PushClock.sleep(for:)` skip the wait, so the scenarios take well under a
    /// second each; one that sleeps for real still passes, only slower.
    /// - Parameters:
    ///   - clock: the time both fakes read and the adapters should sleep on; by default a
    ///     clock that follows the wall clock and skips sleeps.
    ///   - grace: how long a check waits, after the adapter's call returned, for what that
    ///     call should have caused (a registration, a delivery). The protocols ask adapters
    ///     to return when their work has landed (see ``ScenarioClient/settle()``), so this
    ///     is a margin, and a failing check costs no more than it.
    ///   - client: makes the app adapter for this run's environment.
    ///   - sender: makes the sender adapter for this run's environment; for `order-tracker`
    ///     a ``LiveActivitySender`` (the scenario fails with that sentence otherwise), and the
    ///     client is not driven (the app's side is ActivityKit, which the scenario plays).
    /// - Returns: the report; ``ScenarioReport/passed`` when nothing failed. A fake that
    ///   cannot start is a failure too.
    public func run(clock: PushClock = PushClock(skippingSleepsFrom: Date()),
                    grace: Duration = .milliseconds(250),
                    client: @Sendable (ScenarioEnvironment) async -> any ScenarioClient,
                    sender: @Sendable (ScenarioEnvironment) async -> any ScenarioSender) async -> ScenarioReport {
        let sessions = ["s1": "a1", "s2": "a2"]
        var apnsConfiguration = FakeAPNs.Configuration()
        apnsConfiguration.topics = [Self.topic]
        apnsConfiguration.payloadContract = .reject
        apnsConfiguration.clock = clock
        configure(&apnsConfiguration)
        do {
            return try await withFakeBackend(configuration: .init(sessions: sessions, clock: clock)) { backend in
                try await withFakeAPNs(configuration: apnsConfiguration) { apns in
                    let key = APNsSigningKey.generate()
                    let environment = ScenarioEnvironment(
                        backend: backend, apns: apns, clock: clock, grace: grace, topic: Self.topic,
                        deviceToken: Self.deviceToken, pushToStartToken: Self.pushToStartToken,
                        account: "a1", sessions: sessions,
                        keyID: "SCENARIO01", teamID: "TEAMSCEN01", signingKey: key)
                    apns.registerSigningKey(key.publicKey, keyID: environment.keyID, teamID: environment.teamID)
                    apns.register(token: Self.deviceToken, topic: Self.topic)
                    let app = await client(environment)
                    let backendSender = await sender(environment)
                    return await drive(app: app, sender: backendSender, environment: environment)
                }
            }
        } catch {
            return ScenarioReport(scenario: rawValue, failures: ["the fakes could not start: \(error)"])
        }
    }

    /// The FakeAPNs configuration the scenario needs (the throttle for `throttling`).
    public func configure(_ configuration: inout FakeAPNs.Configuration) {
        if self == .throttling {
            configuration.throttle = Self.throttle
        }
    }

    /// Loads the scenario's faults into running fakes, for `contract-check serve --scenario`:
    /// what the app and the backend meet when someone tries the scenario by hand.
    /// - Returns: one line per fault, for the log.
    @discardableResult
    public func preload(backend: FakeBackend, apns: FakeAPNs) -> [String] {
        switch self {
        case .throttling:
            backend.addFault(.tooManyRequests(retryAfter: 1), on: .putDevice)
            return ["FakeBackend: the next PUT /v1/devices/{token} gets 429 with Retry-After: 1",
                    "FakeAPNs: at most \(Self.throttle.limit) pushes per device per \(Self.throttle.windowSeconds) s, then 429 TooManyRequests"]
        case .unregistered:
            // Nothing to preload: serve unregisters each token after its first accepted push
            // (``unregistersAfterFirstPush``), so the 410 carries a real timestamp.
            return ["FakeAPNs: each device token is unregistered after its first accepted push; the next push gets 410 Unregistered with that time, until the token registers again"]
        case .offlineSignOut:
            backend.addFault(.next(1, .reset, on: .deleteDevice))
            return ["FakeBackend: the next DELETE /v1/devices/{token} has its connection reset (not applied)"]
        case .duplicateDelivery:
            apns.injectDuplicateDeliveries(next: 1)
            backend.addFault(.loseResponse, on: .opened)
            return ["FakeAPNs: the next accepted push is delivered twice",
                    "FakeBackend: the next POST /v1/notifications/{id}/opened is applied and its response lost"]
        case .orderTracker:
            apns.registerPushToStartToken(Self.pushToStartToken, device: Self.deviceToken)
            return ["FakeAPNs: device \(Self.short(Self.deviceToken)) has push-to-start token \(Self.pushToStartToken); "
                    + "a start push to it (topic <bundle>.push-type.liveactivity) starts the order tracker, "
                    + "GET /apns/live-activities shows it"]
        }
    }

    /// True for `410s`: a live run (`contract-check serve`) unregisters a device token right
    /// after its first accepted push, as if the app had been deleted then.
    public var unregistersAfterFirstPush: Bool { self == .unregistered }

    /// Throttling's limit: two pushes per device in any second.
    static let throttle = ThrottlePolicy(limit: 2, windowSeconds: 1)

    private func drive(app: any ScenarioClient, sender: any ScenarioSender,
                       environment: ScenarioEnvironment) async -> ScenarioReport {
        var report = ScenarioReport(scenario: rawValue)
        switch self {
        case .throttling: await Self.throttling(app: app, sender: sender, environment, &report)
        case .unregistered: await Self.unregistered(app: app, sender: sender, environment, &report)
        case .offlineSignOut: await Self.offlineSignOut(app: app, sender: sender, environment, &report)
        case .duplicateDelivery: await Self.duplicateDelivery(app: app, sender: sender, environment, &report)
        case .orderTracker: await Self.followOrder(sender: sender, environment, &report)
        }
        return report
    }

    /// An order update for `account`, as the backend sends it (valid against `payload`).
    public static func orderUpdate(id: NotificationID, account: String, order: String = "8F3K") -> PushPayload {
        PushPayload(
            aps: .init(alert: .init(title: "On the way", body: "Your order is on the way"),
                       category: .orderUpdate, threadID: "order-\(order)", mutableContent: true),
            notificationID: id, accountID: account, route: "orders/\(order)", orderVersion: 7)
    }

    /// The scenario's push `id` for `account`; nil only for an id the contract rejects.
    static func push(_ id: String, for account: String) -> PushPayload? {
        NotificationID(id).map { orderUpdate(id: $0, account: account) }
    }
}
