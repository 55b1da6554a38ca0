/// FakeAPNs' devices room: a simulated device per token (registration, online state, what it
/// received, its streams), and the records `acceptAnyDeviceToken` created. Part of
/// ``FakeAPNsState``, behind the fake's one lock; changed only through its methods.
struct DeviceStore {
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

        /// Registered in `environment` for `topics` (empty: any topic); ends any earlier
        /// unregistration.
        mutating func register(in environment: APNsEnvironment, for newTopics: some Collection<String>) {
            registered = true
            self.environment = environment
            if newTopics.isEmpty { anyTopic = true }
            for topic in newTopics { topics.insert(topic) }
            unregisteredAt = nil
        }

        /// The newest `keep` deliveries (the list itself is trimmed in batches).
        func keptDeliveries(_ keep: Int) -> [DeliveredNotification] { Array(delivered.suffix(max(1, keep))) }
    }

    private var devices: [String: Device] = [:] {
        didSet { generation &+= 1 }  // no `oldValue`: a change stays in place (no copy)
    }
    /// Moved by every change of `devices`, through whichever method.
    private var generation: UInt64 = 0
    /// The device ``learn(_:topics:environment:)`` left registered last, and the generation
    /// then: while nothing else changed, the same device again is known without a lookup.
    private var learnt: (token: String, topics: [String], environment: APNsEnvironment, generation: UInt64)?
    /// Tokens `acceptAnyDeviceToken` created a record for, oldest first (see ``rememberImplicitDevice(_:cap:isAwaited:)``).
    private var implicitDevices: [String] = []
    private var implicitDevicesStart = 0

    /// `token`'s record (lowercase hex), if the fake has one.
    subscript(token: String) -> Device? { devices[token] }

    /// Takes `token`'s record out while it is worked on, so its arrays stay uniquely
    /// referenced (no copy-on-write of the delivery list), or a fresh record in
    /// `environment`; ``put(_:for:)`` returns it.
    mutating func take(_ token: String, orNewIn environment: APNsEnvironment) -> Device {
        devices.removeValue(forKey: token) ?? Device(environment: environment)
    }

    mutating func put(_ device: Device, for token: String) {
        devices[token] = device
    }

    /// Where `token`'s record is, if the fake has one: a push hashes its token once and then
    /// works on the record in place through ``subscript(slot:)``.
    typealias Slot = Dictionary<String, Device>.Index

    /// ``Slot`` of `token`'s record, or nil (one lookup).
    func slot(of token: String) -> Slot? {
        devices.index(forKey: token)
    }

    /// The record at `slot` (from ``slot(of:)``, with nothing added or removed since),
    /// changed in place: its arrays stay uniquely referenced (no copy-on-write).
    subscript(slot slot: Slot) -> Device {
        get { devices.values[slot] }
        _modify { yield &devices.values[slot] }
    }

    /// Registers `token` for `topic` (nil: any topic) in `environment`, in place (one lookup,
    /// no copy: `serve` calls this for every device PUT); ends any earlier unregistration.
    mutating func register(_ token: String, topic: String?, environment: APNsEnvironment) {
        devices[token, default: Device(environment: environment)].register(in: environment, for: CollectionOfOne(topic).compactMap { $0 })
    }

    /// ``register(_:topic:environment:)`` for each of `topics` (empty: any topic), in one
    /// lookup (none for the device learnt last, while nothing changed since); false, with
    /// nothing changed, when the device is registered so already or `token` is not a device
    /// token.
    mutating func learn(_ token: String, topics: [String], environment: APNsEnvironment) -> Bool {
        func learn(_ device: inout Device) -> Bool {
            if device.registered, device.environment == environment, device.unregisteredAt == nil,
               topics.isEmpty ? device.anyTopic : topics.allSatisfy({ device.topics.contains($0) }) {
                return false
            }
            device.register(in: environment, for: topics)
            return true
        }
        if let learnt, learnt.generation == generation, learnt.environment == environment,
           learnt.token == token, learnt.topics == topics {
            return false
        }
        // Checked only here: the device learnt last is a device token.
        guard APNsRequestValidator.isDeviceToken(token) else { return false }
        let changed = learn(&devices[token, default: Device(environment: environment)])
        learnt = (token, topics, environment, generation)
        return changed
    }

    /// A consumer stopped iterating `token`'s deliveries.
    mutating func endStream(_ id: UInt64, of token: String) {
        _ = devices[token]?.streams.removeValue(forKey: id)
    }

    /// Records a device `acceptAnyDeviceToken` created for a client's token. Once `cap`
    /// are kept, the oldest such record nothing refers to (not registered, unregistered,
    /// offline, streamed or awaited: `isAwaited`, the delivery waits' tokens) is forgotten,
    /// so a client sending to ever new tokens cannot grow memory without bound.
    mutating func rememberImplicitDevice(_ token: String, cap: Int, isAwaited: (String) -> Bool) {
        while implicitDevices.count - implicitDevicesStart >= cap {
            let oldest = implicitDevices[implicitDevicesStart]
            implicitDevicesStart += 1
            if let device = devices[oldest], !device.registered, device.unregisteredAt == nil, device.online,
               device.streams.isEmpty, !isAwaited(oldest) {
                devices[oldest] = nil
            }
        }
        if implicitDevicesStart >= 4096 && implicitDevicesStart * 2 >= implicitDevices.count {
            implicitDevices.removeFirst(implicitDevicesStart)
            implicitDevicesStart = 0
        }
        implicitDevices.append(token)
    }

    /// Forgets every device (``FakeAPNs/reset()``), except that one someone streams or
    /// awaits (`awaited`) stays known, online and empty, in `environment`.
    mutating func reset(keeping awaited: Set<String>, environment: APNsEnvironment) {
        implicitDevices.removeAll()
        implicitDevicesStart = 0
        for (key, device) in devices {
            if device.streams.isEmpty && !awaited.contains(key) {
                devices[key] = nil
            } else {
                var fresh = Device(environment: environment)
                fresh.streams = device.streams
                devices[key] = fresh
            }
        }
    }
}
