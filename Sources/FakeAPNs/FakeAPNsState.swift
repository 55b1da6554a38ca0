import FakeSupport
import PushCore

/// Everything FakeAPNs remembers, behind one lock (`FakeAPNs.state`, a `Locked` box): its
/// rooms side by side. A function handed one room (`inout DeviceStore`,
/// `inout ProviderAuthenticationState`, …) touches only that; the request handlers, which
/// route a request through several, hold the whole. Rooms are changed in place through their
/// stored properties (never copied out of the lock). The configuration is not here: it is
/// fixed at init (``FakeAPNs/settings``).
struct FakeAPNsState {
    /// Signing keys and what each connection's provider tokens left behind.
    var authentication = ProviderAuthenticationState()
    /// A simulated device per token.
    var devices = DeviceStore()
    /// Push-to-start tokens and Live Activities, per device.
    var liveActivities = LiveActivityStore()
    /// Broadcast channels and their subscribers (Docs/readme/broadcast.md).
    var channels = BroadcastChannelStore()
    /// Fault plans and duplicate-delivery injections.
    var faults = InjectedFaults()
    var journal: RequestJournal
    /// What each pending wait waits for.
    var waits = PendingWaits()
    /// What each connection's HTTP/2 layer did (``FakeAPNs/connections``).
    var connectionRecords = ConnectionRecords()
    /// True while the fake refuses connections (`setOffline(_:)`).
    var isOffline = false
    /// For apns-id, apns-unique-id, activity tokens and channel ids: seeded once from the
    /// system generator.
    var identifiers = SplitMix64(seed: UInt64.random(in: 1...UInt64.max))
    /// The next id of a wait or a stream of deliveries or activity states (``makeID()``).
    private var nextID: UInt64 = 1

    init(configuration: FakeAPNs.Configuration) {
        journal = RequestJournal(capacity: configuration.journalCapacity)
    }

    mutating func makeID() -> UInt64 {
        defer { nextID &+= 1 }
        return nextID
    }
}
