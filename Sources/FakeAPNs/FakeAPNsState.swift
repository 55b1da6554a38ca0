import PushCore
import Contracts
import FakeSupport

/// Everything FakeAPNs remembers, behind one lock (`FakeAPNs.state`, a `Locked` box).
struct FakeAPNsState {
    struct SigningKey {
        var key: any ProviderTokenVerificationKey
        var teamID: String
        /// nil: valid in both environments.
        var environment: APNsEnvironment?
    }

    /// What APNs keeps per connection: the verified token (so verification is off the hot
    /// path), its team (later tokens must be related) and the error count.
    struct Connection {
        var token: String?
        var teamID: String?
        var issuedAt: Int64 = 0
        var installedAt: Int64 = 0
        var errors: Int = 0
        /// Provider tokens refused on this connection since the last GOAWAY for them.
        var tokenFailures: Int = 0
        /// Tokens that failed verification on this connection (decoding, key, team or
        /// signature: what depends only on the token and the registered keys), newest last,
        /// at most ``FakeAPNs/failedTokensRemembered``: the same forged token is rejected
        /// again without another signature verification. Cleared when a key is registered.
        var failedTokens: [(token: String, rejection: FakeAPNs.Rejection, note: String?)] = []
        /// The HTTP/2 stream this connection was ended at (a `goAway` fault, too many
        /// errors): later streams on it are journaled unanswered, never delivered.
        var goneAwayAt: UInt32? = nil
    }

    struct Device {
        /// Registered by ``FakeAPNs/register(token:topic:environment:)`` (a record also
        /// exists for a token a test only watched, unregistered or put offline).
        var registered = false
        /// The exact topics it accepts; with `anyTopic`, every topic.
        var topics: Set<String> = []
        var anyTopic = false
        var environment: APNsEnvironment
        var unregisteredAt: Int64?
        var online = true
        var stored: DeliveredNotification?
        var delivered: [DeliveredNotification] = []
        var deliveredCount = 0
        var visible: [DeliveredNotification] = []
        var backgroundDeliveries: [Int64] = []
        var acceptedPushes: [Int64] = []
        var streams: [UInt64: AsyncStream<DeliveredNotification>.Continuation] = [:]

        /// The newest `keep` deliveries (the list itself is trimmed in batches).
        func keptDeliveries(_ keep: Int) -> [DeliveredNotification] { Array(delivered.suffix(max(1, keep))) }
    }

    struct RequestWaiter {
        var count: Int
        var matching: @Sendable (APNsJournalEntry) -> Bool
        var matched: [APNsJournalEntry]
    }

    struct DeliveryWaiter {
        var deviceToken: String
        var count: Int
    }

    var configuration: FakeAPNs.Configuration
    var keys: [String: SigningKey] = [:]
    /// Changed whenever `keys` is: a token verified outside the lock against older keys is
    /// verified again (``FakeAPNs/preverifyProviderToken(_:authorization:)``).
    var keysVersion: UInt64 = 0
    var connections: [UInt64: Connection] = [:]
    var devices: [String: Device] = [:]
    /// Push-to-start tokens and Live Activities, per device.
    var liveActivities = LiveActivityStore()
    /// Broadcast channels and their subscribers (Docs/readme/broadcast.md).
    var channels = BroadcastChannelStore()
    /// Tokens `acceptAnyDeviceToken` created a record for, oldest first (see ``rememberImplicitDevice(_:)``).
    var implicitDevices: [String] = []
    var implicitDevicesStart = 0
    var faults = ActiveFaults<APNsFault, String>()
    /// Duplicate-delivery injections: plans whose fault is `loseResponse`.
    var duplicates = ActiveFaults<APNsFault, String>()
    var journal: BoundedRing<APNsJournalEntry>
    /// True while the fake refuses connections (`setOffline(_:)`).
    var isOffline = false
    var sequence = 0
    var nextID: UInt64 = 1
    /// For apns-id and apns-unique-id: seeded once from the system generator.
    var identifiers = SplitMix64(seed: UInt64.random(in: 1...UInt64.max))
    var requestWaiters: [UInt64: RequestWaiter] = [:]
    var deliveryWaiters: [UInt64: DeliveryWaiter] = [:]

    init(configuration: FakeAPNs.Configuration) {
        self.configuration = configuration
        journal = BoundedRing(capacity: configuration.journalCapacity)
    }

    mutating func makeID() -> UInt64 {
        defer { nextID &+= 1 }
        return nextID
    }

    /// Stores a connection's record. Records are never told their connection closed, so past
    /// 10 000 they are all forgotten (connections re-verify their token on next use).
    /// What each connection's HTTP/2 layer did (``FakeAPNs/connections``), at most 10,000.
    var connectionRecords: [UInt64: APNsConnectionRecord] = [:]

    mutating func storeConnection(_ connection: Connection, for id: UInt64) {
        if connections.count >= 10_000 && connections[id] == nil {
            connections.removeAll()
        }
        connections[id] = connection
    }

    /// Records a device `acceptAnyDeviceToken` created for a client's token. Once
    /// `maxImplicitDevices` are kept, the oldest such record nothing refers to (not
    /// registered, unregistered, offline, streamed or awaited) is forgotten, so a client
    /// sending to ever new tokens cannot grow memory without bound.
    mutating func rememberImplicitDevice(_ token: String) {
        let cap = max(1, configuration.maxImplicitDevices)
        while implicitDevices.count - implicitDevicesStart >= cap {
            let oldest = implicitDevices[implicitDevicesStart]
            implicitDevicesStart += 1
            if let device = devices[oldest], !device.registered, device.unregisteredAt == nil, device.online,
               device.streams.isEmpty, !deliveryWaiters.values.contains(where: { $0.deviceToken == oldest }) {
                devices[oldest] = nil
            }
        }
        if implicitDevicesStart >= 4096 && implicitDevicesStart * 2 >= implicitDevices.count {
            implicitDevices.removeFirst(implicitDevicesStart)
            implicitDevicesStart = 0
        }
        implicitDevices.append(token)
    }

    /// Takes the first fault that applies to a request for `token`, consuming one use.
    mutating func takeFault(for token: String?) -> APNsFault? {
        faults.take(for: token)
    }

    /// Whether the next delivery to `token` is to be duplicated.
    mutating func takeDuplicate(for token: String) -> Bool {
        duplicates.take(for: token) != nil
    }

}
