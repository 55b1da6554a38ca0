import LoopbackHTTP
import Contracts
import Foundation
import FakeSupport
import PushCore

/// Apple's push provider API (`POST /3/device/<token>`) as a loopback fake, with provider
/// tokens, a device-token registry, throttling, faults and a simulated device per token.
///
/// The logic is a handler (`handle(_:)`) callable without a socket; the server
/// is a thin shell around it.
///
/// ```swift
/// let apns = FakeAPNs(configuration: config)
/// apns.registerSigningKey(publicKey, keyID: "ABC123DEFG", teamID: "DEF123GHIJ")
/// apns.register(token: token, topic: "com.example.app")
/// let response = apns.handle(request)            // or over HTTP, see `start`
/// let shown = apns.deliveredNotifications(for: token)
/// ```
///
/// The checks and their order are documented on `APNsRequestValidator`.
public final class FakeAPNs: Sendable {
    let state: Locked<FakeAPNsState>
    /// The configuration, fixed at init: read without the lock.
    let settings: FakeAPNs.Configuration
    let validator: APNsRequestValidator
    let clock: PushClock
    let inspectPayload: PayloadInspector
    /// Identical payloads (a fan-out) are inspected once.
    let inspectionCache = PayloadInspectionCache()
    let decodeToken: ProviderTokenDecoder
    let onRequest: (@Sendable (APNsJournalEntry) -> Void)?
    /// The server while it listens, and whether it has stopped (which ends every wait).
    let lifecycle = FakeLifecycle()
    /// The pending waits for requests and for deliveries; their conditions are in the state
    /// (`requestWaiters`, `deliveryWaiters`), next to what satisfies them.
    let requestWaits: FakeWaiters<[APNsJournalEntry]>
    let deliveryWaits: FakeWaiters<[DeliveredNotification]>
    /// Noted on state changes that journal nothing; read by the admin API's `GET /events`.
    package let changes = ChangeFeed()
    /// The channel management listener's server, when ``FakeAPNs/Configuration/channelManagement`` is on.
    let channelLifecycle = FakeLifecycle()

    /// Creates the fake's logic, not yet listening.
    /// - Parameters:
    ///   - configuration: environment, modes and limits.
    ///   - payloadInspector: reads payloads (JSON check and contract); the default,
    ///     ``PayloadInspectors/default``, checks the JSON object against the v1 `payload`
    ///     contract.
    public convenience init(configuration: FakeAPNs.Configuration = FakeAPNs.Configuration(),
                            payloadInspector: @escaping PayloadInspector = PayloadInspectors.default) {
        self.init(configuration: configuration, payloadInspector: payloadInspector,
                  tokenDecoder: { ProviderToken.decode($0) })
    }

    package init(configuration: FakeAPNs.Configuration, payloadInspector: @escaping PayloadInspector,
                 tokenDecoder: @escaping ProviderTokenDecoder) {
        let state = Locked(FakeAPNsState(configuration: configuration))
        self.state = state
        settings = configuration
        let hint = "check the journal (`fake.journal`) for what arrived"
        requestWaits = FakeWaiters(fake: "FakeAPNs", hint: { hint },
                                   forget: { id in state.withLock { $0.waits.removeRequestWaiter(id) } })
        deliveryWaits = FakeWaiters(fake: "FakeAPNs", hint: { hint },
                                    forget: { id in state.withLock { $0.waits.removeDeliveryWaiter(id) } })
        validator = APNsRequestValidator(topics: configuration.topics)
        clock = configuration.clock
        inspectPayload = payloadInspector
        decodeToken = tokenDecoder
        onRequest = configuration.onRequest
    }

    /// The configuration the fake runs with.
    public var configuration: FakeAPNs.Configuration { settings }

    // MARK: Signing keys

    /// Registers the public half of a provider-token signing key (a `.p8` key's public key).
    /// - Parameters:
    ///   - key: verifies ES256 signatures.
    ///   - keyID: the `kid` of tokens signed with it (Apple's 10-character key id).
    ///   - teamID: the `iss` those tokens must carry.
    ///   - environment: restricts the key to one environment (a token signed with it in
    ///     the other gets `BadEnvironmentKeyInToken`); nil: both.
    public func registerSigningKey(_ key: some ProviderTokenVerificationKey, keyID: String, teamID: String,
                                   environment: APNsEnvironment? = nil) {
        let signingKey = ProviderAuthenticationState.SigningKey(key: key, teamID: teamID, environment: environment)
        state.withLock { $0.authentication.register(signingKey, keyID: keyID) }
    }

    /// Forgets a signing key: later new tokens with this `kid` are `InvalidProviderToken`.
    public func removeSigningKey(keyID: String) {
        state.withLock { $0.authentication.removeKey(keyID: keyID) }
    }

    // MARK: Device tokens

    /// Makes `token` a known device for `topic` in `environment` (default: the fake's),
    /// online; ends any earlier unregistration.
    /// - Parameters:
    ///   - token: hex device token (any case).
    ///   - topic: the exact `apns-topic` it accepts pushes for, e.g. `com.example.app`, or
    ///     `com.example.app.voip` for a PushKit token. Call again to add topics. nil: any
    ///     topic (for a token learnt without its app, e.g. from FakeBackend).
    ///   - environment: the token's environment; nil: the fake's.
    public func register(token: String, topic: String?, environment: APNsEnvironment? = nil) {
        changes.note()
        // `serve` calls this for every device PUT: the key is built only when the token is not
        // lowercase already.
        let key = ASCII.lowercased(token)
        let environment = environment ?? settings.environment
        state.withLock { $0.devices.register(key, topic: topic, environment: environment) }
    }

    /// ``register(token:topic:environment:)`` for `topics` (empty: any topic) in one critical
    /// section, for a `token` already lowercase hex: what `serve` calls for every device an
    /// app registers with FakeBackend. A device already registered so (same environment,
    /// those topics, not unregistered) is left as it is and notes no change: a repeated
    /// registration costs one lookup. A `token` that is not a device token
    /// (``APNsRequestValidator/isDeviceToken(bytes:)``) is ignored.
    package func learn(lowercaseToken token: String, topics: [String], environment: APNsEnvironment?) {
        let environment = environment ?? settings.environment
        if state.withLock({ $0.devices.learn(token, topics: topics, environment: environment) }) { changes.note() }
    }

    /// From `at` on, pushes to `token` get 410 `Unregistered` with that timestamp, until
    /// the token is registered again (as after an app's uninstall).
    /// - Parameters:
    ///   - token: hex device token (any case).
    ///   - at: when APNs learnt the token is no longer valid (default: now).
    public func unregister(token: String, at: Date? = nil) {
        changes.note()
        // Clamped: a far date (e.g. an admin body's `at` near Int64.max) must not trap.
        let millis = at.map { date -> Int64 in
            let ms = (date.timeIntervalSince1970 * 1000).rounded(.down)
            return Int64(exactly: ms) ?? (ms > 0 ? .max : .min)
        } ?? clock.nowMilliseconds()
        state.withLock { s in
            let key = token.lowercased()
            var device = s.devices.take(key, orNewIn: settings.environment)
            device.unregisteredAt = millis
            s.devices.put(device, for: key)
        }
    }

    // MARK: Faults

    /// Adds a fault plan; plans are tried in the order added, the first that applies wins.
    public func addFault(_ plan: APNsFaultPlan) {
        changes.note()
        state.withLock { $0.faults.add(plan) }
    }

    /// The fault plans still in force, in the order they are tried; a `next(count:)` plan
    /// shows the requests it has left.
    public var faults: [APNsFaultPlan] {
        state.withLock { $0.faults.plans }
    }

    /// The duplicate-delivery injections still in force (their fault is `loseResponse`), as
    /// ``faults`` lists faults.
    public var duplicateDeliveries: [APNsFaultPlan] {
        state.withLock { $0.faults.duplicatePlans }
    }

    /// Removes every fault plan and duplicate-delivery injection and comes back online, as
    /// FakeBackend's `clearFaults()` does.
    /// - Returns: nil, or why the fake could not listen again (see `setOffline(_:)`).
    @discardableResult
    public func clearFaults() -> FakeAPNsError? {
        changes.note()
        state.withLock { $0.faults.removeAll() }
        return setOffline(false)
    }

    /// ``clearFaults()`` without blocking a thread of Swift's cooperative pool.
    @discardableResult
    public func clearFaults() async -> FakeAPNsError? {
        await offloaded { self.clearFaults() }
    }

    /// Delivers notifications twice: the next `count` deliveries (to `deviceToken`, or any).
    public func injectDuplicateDeliveries(next count: Int, deviceToken: String? = nil) {
        changes.note()
        guard count > 0 else { return }
        state.withLock { $0.faults.addDuplicates(.next(count, .loseResponse, deviceToken: deviceToken)) }
    }

    /// Delivers each notification twice with this probability, from a seeded generator.
    public func injectDuplicateDeliveries(probability: Double, seed: UInt64, deviceToken: String? = nil) {
        changes.note()
        state.withLock { $0.faults.addDuplicates(.probability(probability, seed: seed, .loseResponse, deviceToken: deviceToken)) }
    }

    // MARK: Journal

    /// Every request still in the journal, oldest first.
    public var journal: [APNsJournalEntry] { state.withLock { $0.journal.entries.elements } }

    /// How many journal entries were dropped to keep the journal within its capacity.
    public var droppedJournalEntries: Int { state.withLock { $0.journal.entries.dropped } }

    /// Back to the state at start, as `FakeBackend`'s `reset()`: forgets the journal,
    /// faults and duplicate injections, per-connection state and every device (registered
    /// and unregistered tokens, online/offline, deliveries, push-to-start tokens and Live
    /// Activities, whose streams of states end, broadcast channels), and accepts connections again.
    /// The configuration and the registered signing keys (what `--apns-key` gives) stay; the
    /// journal's sequence numbers keep counting, so a `?since=` cursor stays valid. A device
    /// someone streams or awaits deliveries of stays known, online and empty.
    /// - Returns: nil, or why the fake could not listen again (see `setOffline(_:)`).
    @discardableResult
    public func reset() -> FakeAPNsError? {
        changes.note()
        state.withLock { s in
            s.journal.removeAll()
            s.faults.removeAll()
            s.authentication.forgetConnections()
            s.connectionRecords.removeAll()
            s.liveActivities.removeAll()
            s.channels.removeAll()
            s.devices.reset(keeping: s.waits.awaitedTokens, environment: settings.environment)
        }
        return setOffline(false)
    }

    /// ``reset()`` without blocking a thread of Swift's cooperative pool.
    @discardableResult
    public func reset() async -> FakeAPNsError? {
        await offloaded { self.reset() }
    }
}
