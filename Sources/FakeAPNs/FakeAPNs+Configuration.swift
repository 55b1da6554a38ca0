import LoopbackHTTP
import FakeSupport

/// What a sender's payload contract violations do.
public enum PayloadContractMode: String, Sendable, Hashable {
    /// Accept the push and record the violations in the journal (default), as APNs would
    /// accept it.
    case recordOnly
    /// Answer 400 ``APNsReason/payloadContractViolation`` (a fake-only reason), so a
    /// sender's contract bug fails its test.
    case reject
}

/// How provider tokens are checked.
public enum ProviderTokenPolicy: String, Sendable, Hashable {
    /// Decode, check claims, age and refresh rate, and verify the ES256 signature against
    /// the registered keys, as APNs does (default).
    case verify
    /// Accept any request, with or without an `authorization` header: for tests about
    /// something else.
    case ignore
}

/// A per-device-token rate limit: at most `limit` accepted pushes in any `windowSeconds`.
public struct ThrottlePolicy: Sendable, Hashable {
    /// Accepted pushes allowed per device in a window.
    public var limit: Int
    /// The rolling window's length in seconds.
    public var windowSeconds: Double
    /// At most `limit` accepted pushes per device in any `windowSeconds`.
    public init(limit: Int, windowSeconds: Double) {
        self.limit = limit
        self.windowSeconds = windowSeconds
    }
}

extension FakeAPNs {
    /// Everything FakeAPNs is started with. Defaults suit a test: sandbox (development) by default,
    /// signatures verified, unknown device tokens rejected, no throttling.
    public struct Configuration: Sendable {
        /// The environment of a request whose host is not one of Apple's. One fake serves both
        /// environments, deciding each request's as APNs does, by the host the sender addressed
        /// (`:authority` or `Host`: `api.push.apple.com` is production,
        /// `api.sandbox.push.apple.com` and `api.development.push.apple.com` are sandbox; see
        /// ``APNsEnvironment/init(host:)``). `apns-unique-id` is sent only in `.sandbox`; device
        /// tokens and keys registered for the other environment are refused.
        public var environment: APNsEnvironment = .sandbox
        /// Bundle ids this fake accepts pushes for; a topic whose bundle id is not listed gets
        /// `TopicDisallowed`. Empty: every bundle id is allowed.
        public var topics: Set<String> = []
        /// Accept every well-formed device token as a known, online device. The fake keeps the
        /// newest 100 000 such devices; older ones nothing refers to (registered, offline,
        /// streamed, awaited) are forgotten, so a load test cannot grow memory without bound.
        public var acceptAnyDeviceToken: Bool = false
        /// Whether provider tokens are verified (default) or ignored.
        public var providerTokens: ProviderTokenPolicy = .verify
        /// What payload contract violations do: journaled (default) or rejected.
        public var payloadContract: PayloadContractMode = .recordOnly
        /// Per-device rate limit; nil: none.
        public var throttle: ThrottlePolicy? = nil
        /// Background pushes delivered per device per rolling hour; the rest are accepted and
        /// not delivered, as iOS does.
        public var backgroundBudgetPerHour: Int = 3
        /// How Live Activities behave on the simulated devices: the priority-10 budget (and the
        /// frequent-updates entitlement), the eight-hour and four-hour limits, what is kept.
        public var liveActivities = LiveActivityPolicy()
        /// Error answers (any status ≥ 400 except 410) on one connection before the fake
        /// answers with GOAWAY instead, as APNs does. nil: never.
        public var goAwayAfterErrors: Int? = nil
        /// Provider tokens refused on one connection (invalid, forged, expired, wrong
        /// environment...) before the fake answers with GOAWAY instead, as APNs closes such
        /// connections. A client repeating a forged token cannot keep a connection busy;
        /// a sender refreshing its token on time never comes near it.
        /// nil: never. Counted apart from `goAwayAfterErrors`, which stays off by default so
        /// load tests of error answers (`scripts/soak-apns.sh`) keep their connections.
        public var goAwayAfterProviderTokenFailures: Int? = 100
        /// Journal capacity; older entries are dropped and counted.
        public var journalCapacity: Int = 10_000
        /// Deliveries kept per device for ``FakeAPNs/deliveredNotifications(for:)``.
        public var deliveriesKeptPerDevice: Int = 1_000
        /// Device records `acceptAnyDeviceToken` creates, at most; older unreferenced ones are
        /// forgotten (internal: tests lower it).
        var maxImplicitDevices: Int = 100_000
        /// A provider token older than this is `ExpiredProviderToken` (APNs: one hour).
        public var providerTokenLifetimeSeconds: Int64 = 3600
        /// A new token on one connection sooner than this after the last is
        /// `TooManyProviderTokenUpdates` (APNs: 20 minutes).
        public var providerTokenMinimumRefreshSeconds: Int64 = 1200
        /// The clock for token ages, timestamps and throttling: the wall clock unless a test
        /// passes a ``PushClock`` it moves (shared with FakeBackend and the scenarios).
        public var clock: PushClock = PushClock()
        /// Called with each journal entry once its request is handled (outside the fake's lock,
        /// on the server's thread: keep it short), e.g. to log requests.
        public var onRequest: (@Sendable (APNsJournalEntry) -> Void)? = nil
        /// The address ``FakeAPNs/start(configuration:payloadInspector:)`` binds: loopback.
        /// Binding another address is an explicit choice.
        public var host: String = "127.0.0.1"
        /// The port to listen on; 0 picks a free one (read it from ``FakeAPNs/port``).
        public var port: UInt16 = 0
        /// Seconds a connection may stay idle before the server closes it.
        public var idleTimeout: Double = 60
        /// HTTP/2 `SETTINGS_MAX_CONCURRENT_STREAMS` the server announces; a client that opens
        /// more streams gets them refused, as with APNs' stream limit.
        public var maxConcurrentStreams: Int = 1000
        /// As APNs: "APNs allows only one stream until you post a request with a valid
        /// authentication token". A connection without a TLS client certificate (h2c included)
        /// announces `SETTINGS_MAX_CONCURRENT_STREAMS` 1 until a request whose provider token
        /// verified is answered, then raises it to ``maxConcurrentStreams`` in a new SETTINGS
        /// frame; certificate connections get ``maxConcurrentStreams`` at once. A client that
        /// opens more streams than a limit it acknowledged gets GOAWAY `REFUSED_STREAM`
        /// "Maximum active streams violated for this endpoint." (Docs/readme/fake-apns.md).
        /// false: every connection starts at ``maxConcurrentStreams``.
        public var oneStreamUntilTokenVerified: Bool = true
        /// TLS 1.3 on the fake's port (ALPN `h2` and `http/1.1`), for senders that speak nothing
        /// else: they connect unmodified by trusting `LoopbackTLS.caCertificatePath`. nil (the
        /// default): plain HTTP/1.1 and h2c. Test-only TLS; it protects nothing.
        public var tls: LoopbackTLS? = nil
        /// Certificate-based provider authentication on the TLS port: the fake asks clients for
        /// an APNs client certificate and answers certificate connections as APNs does
        /// (Docs/readme/certificates.md). nil (the default): it never asks. Needs ``tls``.
        public var clientCertificates: APNsClientCertificates? = nil
        /// Largest request body the server buffers: APNs' largest payload (5 KiB, VoIP) plus
        /// slack. A bigger one is not read: it is answered 413 `PayloadTooLarge` and journaled
        /// like any request (Apple's own 4 KiB / 5 KiB limits apply below this size). The
        /// server's HTTP/2 stream window is no larger than this plus 1 KiB.
        public var maxBodyBytes: Int = 8 * 1024
        /// Starts the channel management listener beside the push port (Apple runs it on
        /// `api-manage-broadcast[.sandbox].push.apple.com`, ports 2196/2195): `POST|GET|DELETE
        /// /1/apps/{bundle}/channels`, `GET /1/apps/{bundle}/all-channels`. Off by default, so a
        /// test that does not broadcast opens no second port; `contract-check serve` turns it on.
        /// Broadcasts themselves (`POST /4/broadcasts/apps/{bundle}`) go to the push port either way.
        public var channelManagement: Bool = false
        /// The channel management listener's port; 0 picks a free one (read
        /// ``FakeAPNs/channelManagementPort``).
        public var channelManagementPort: UInt16 = 0
        /// Bundle ids whose broadcast capability is off: their channel requests and broadcasts get
        /// `FeatureNotEnabled`, as for an app without the Broadcast capability.
        public var bundlesWithoutBroadcast: Set<String> = []

        /// The defaults: sandbox, verified tokens, known devices only, no throttle.
        public init() {}
    }
}

/// ``FakeAPNs/Configuration`` under its former name (FakeBackend's is `FakeBackend.Configuration`).
@available(*, deprecated, renamed: "FakeAPNs.Configuration")
public typealias FakeAPNsConfiguration = FakeAPNs.Configuration
