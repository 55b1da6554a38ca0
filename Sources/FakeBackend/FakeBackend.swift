import Foundation
import LoopbackHTTP
import Contracts
import PushCore
import FakeSupport

/// A fake of the app's backend on a loopback port: it checks every request against the
/// contracts, remembers devices and opens, keeps a journal, and can be scripted to have a
/// bad day (throttling, outages, hangs, lost responses).
///
/// ```swift
/// let backend = try await FakeBackend.start(configuration: .init(sessions: ["s1": "a1"]))
/// // point the app's HTTP client at backend.baseURL, with "Authorization: Bearer s1"
/// try await backend.waitForDevice(token: "ab12")
/// #expect(backend.devices["ab12"]?.account == "a1")
/// await backend.stop()
/// ```
///
/// The logic is a plain request → response function, `handle(_:)`, so a backend made with
/// ``init(configuration:)`` (no socket) can be driven directly in unit tests.
public final class FakeBackend: Sendable {
    /// The configuration it was made with (sessions and faults may have changed since).
    public let configuration: Configuration
    let store: Locked<BackendStore>
    let validator: RequestValidator
    /// Whether a plain valid PUT is answered in one critical section (see
    /// `registerPlainly`); false only in the tests that compare the two paths.
    let registersPlainly: Bool
    /// The server while it listens, and whether it has stopped (which ends every wait).
    let lifecycle = FakeLifecycle()
    /// Noted on state changes that journal nothing; read by the admin API's `GET /events`.
    package let changes = ChangeFeed()
    /// The pending waits' continuations, timeouts and cancellation; their conditions are in
    /// the store (`BackendStore.waiters`).
    let waiters: FakeWaiters<FakeBackendState>

    /// A backend that is not listening: call `handle(_:)` directly. Use ``start(configuration:)``
    /// for one on a socket.
    public convenience init(configuration: Configuration = .init()) {
        self.init(configuration: configuration, registersPlainly: true)
    }

    /// `registersPlainly: false` answers every request on the general path, for the tests
    /// that hold the one-step registration to it.
    init(configuration: Configuration, registersPlainly: Bool) {
        self.configuration = configuration
        let store = Locked(BackendStore(configuration: configuration))
        self.store = store
        self.waiters = FakeWaiters(fake: "FakeBackend", hint: { "state: \(store.withLock { $0.snapshot.summary })" },
                                   forget: { id in store.withLock { _ = $0.waiters.removeValue(forKey: id) } })
        self.validator = RequestValidator(contracts: configuration.contracts)
        self.registersPlainly = registersPlainly
    }

    /// Starts a backend listening on `configuration.host:port` (127.0.0.1, a free port by
    /// default). Returns once it accepts connections.
    /// - Throws: `FakeBackendError.cannotListen` when the address cannot be bound.
    public static func start(configuration: Configuration = .init()) async throws -> FakeBackend {
        guard configuration.faults.contains(where: { $0.fault == .offline }) else {
            return try startListening(configuration: configuration)
        }
        // Starting offline waits for the loop to close the port: not on the cooperative pool.
        return try await offloaded { Result { try startListening(configuration: configuration) } }.get()
    }

    /// The synchronous form of ``start(configuration:)``: for XCTest's `setUp()` and other
    /// code outside `async` contexts. Stop it with ``stopListening()``.
    ///
    /// ```swift
    /// override func setUpWithError() throws {
    ///     backend = try FakeBackend.startListening(configuration: .init(sessions: ["s1": "a1"]))
    /// }
    /// override func tearDown() { backend.stopListening() }
    /// ```
    /// - Throws: `FakeBackendError.cannotListen` when the address cannot be bound.
    public static func startListening(configuration: Configuration = .init()) throws -> FakeBackend {
        let backend = FakeBackend(configuration: configuration)
        var serverConfiguration = HTTPServerConfiguration()
        serverConfiguration.host = configuration.host
        serverConfiguration.port = configuration.port
        serverConfiguration.maxBodyBytes = configuration.maxBodyBytes
        serverConfiguration.dispatchesOversizedRequests = true  // its own 413 problem, journaled
        serverConfiguration.tls = configuration.tls?.identity
        do {
            try backend.lifecycle.listen(serverConfiguration, owner: backend) { backend, request in backend.handle(request) }
        } catch {
            throw PushFakeError.cannotListen("FakeBackend", host: configuration.host, port: configuration.port, underlying: error)
        }
        if backend.store.withLock({ $0.isOffline }) { backend.lifecycle.server?.refuseConnections(true) }
        return backend
    }

    /// The port it listens on; 0 when it was made with ``init(configuration:)``.
    public var port: UInt16 { lifecycle.port }

    /// `http://127.0.0.1:PORT` (`https://` with ``Configuration/tls``), the base URL for a client.
    public var baseURL: URL { HTTPServer.baseURL(host: configuration.host, port: port, secure: configuration.tls != nil) }

    /// Stops listening: in-flight responses finish, every connection closes, and the port is
    /// free when this returns. Pending waits fail. Calling it twice is harmless.
    public func stop() async {
        await lifecycle.stop(failingPendingWaits: failAllWaiters)
    }

    /// The synchronous form of ``stop()``, for XCTest's `tearDown()`: blocks the calling
    /// thread until the port is free (use ``stop()`` from `async` code).
    public func stopListening() {
        lifecycle.stopListening(failingPendingWaits: failAllWaiters)
    }

    // MARK: Accounts

    /// Lets `bearer` act as `account` from now on.
    public func addSession(bearer: String, account: String) {
        changes.note()
        store.withLock { $0.sessions[bearer: bearer] = account }
    }

    /// Signs a bearer out: its requests get 401 from now on.
    public func removeSession(bearer: String) {
        changes.note()
        store.withLock { $0.sessions[bearer: bearer] = nil }
    }

    /// Bearer → account, as configured and added since.
    public var sessions: [String: String] { store.withLock { $0.sessions.accounts } }

    // MARK: State

    /// A snapshot of everything the backend holds.
    public var state: FakeBackendState { store.withLock { $0.snapshot } }

    /// Registered tokens (lowercase) and who holds them.
    public var devices: [String: RegisteredDevice] { store.withLock { $0.devices.byToken } }

    /// Every accepted "opened" report in arrival order, duplicates included (the newest
    /// `opensCapacity` of them; see ``opensDropped``).
    public var opens: [RecordedOpen] { store.withLock { $0.opens } }

    /// The reports for one notification id, duplicates included.
    public func opens(for notificationID: String) -> [RecordedOpen] {
        store.withLock { $0.opens.filter { $0.notificationID == notificationID } }
    }

    /// Every request, oldest first (the newest `journalCapacity` of them).
    public var journal: [BackendJournalEntry] { store.withLock { $0.journal.elements } }

    /// How many "opened" reports were dropped, oldest first, past `opensCapacity`.
    public var opensDropped: Int { store.withLock { $0.opensDropped } }

    /// How many journal entries were dropped because the journal was full.
    public var droppedJournalEntries: Int { store.withLock { $0.journal.dropped } }

    /// ``droppedJournalEntries`` under its former name.
    @available(*, deprecated, renamed: "droppedJournalEntries")
    public var journalDropped: Int { droppedJournalEntries }

    /// Back to the state at start: forgets devices, Live Activity and push-to-start tokens, opens, the journal and request counts,
    /// clears every fault (also those the configuration started with), puts the sessions
    /// back to the configuration's (sessions added since are forgotten) and comes back
    /// online. The configuration stays; the journal's sequence numbers keep counting, so a
    /// `?since=` cursor stays valid. FakeAPNs' `FakeAPNs.reset()` follows the same rule.
    /// - Returns: nil, or why the backend could not come back online (see `setOffline(_:)`).
    @discardableResult
    public func reset() -> FakeBackendError? {
        changes.note()
        store.withLock { store in
            store.devices.removeAll()
            store.liveActivities.removeAll()
            store.orderByActivityToken.removeAll()
            store.pushToStartTokens.removeAll()
            store.removeOpens()
            store.journal.removeAll()
            store.removeRequestCounts()
            store.removeFaults()
            store.sessions = SessionTable(configuration.sessions)
        }
        return setOffline(false)
    }

    /// ``reset()`` without blocking a thread of Swift's cooperative pool.
    @discardableResult
    public func reset() async -> FakeBackendError? {
        await offloaded { self.reset() }
    }

    // MARK: Faults

    /// Adds a fault plan; plans are tried in the order they were added and the first that
    /// strikes a request wins. An `.offline` plan takes the backend offline at once
    /// (see `setOffline(_:)`), whatever its endpoint or trigger.
    public func addFault(_ plan: BackendFaultPlan) {
        if plan.fault == .offline {
            setOffline(true)
            return
        }
        store.withLock { $0.addFault(plan) }
        changes.note()
    }

    /// Adds a fault for the next `count` requests to `endpoint` (nil: any endpoint).
    public func addFault(_ fault: BackendFault, on endpoint: Endpoint? = nil, count: Int = 1) {
        addFault(.next(count, fault, on: endpoint))
    }

    /// ``addFault(_:)-(BackendFaultPlan)`` under its former name.
    @available(*, deprecated, renamed: "addFault(_:)")
    public func setFault(_ plan: BackendFaultPlan) { addFault(plan) }

    /// ``addFault(_:on:count:)`` under its former name.
    @available(*, deprecated, renamed: "addFault(_:on:count:)")
    public func setFault(_ fault: BackendFault, on endpoint: Endpoint? = nil, count: Int = 1) {
        addFault(fault, on: endpoint, count: count)
    }

    /// The plans still in force, in the order they are tried; a `next(count:)` plan shows
    /// the requests it has left.
    public var faults: [BackendFaultPlan] { store.withLock { $0.faults.plans } }

    /// Removes every fault plan and comes back online.
    /// - Returns: nil, or why the backend could not come back online (see `setOffline(_:)`).
    @discardableResult
    public func clearFaults() -> FakeBackendError? {
        changes.note()
        store.withLock { $0.removeFaults() }
        return setOffline(false)
    }

    /// ``clearFaults()`` without blocking a thread of Swift's cooperative pool.
    @discardableResult
    public func clearFaults() async -> FakeBackendError? {
        await offloaded { self.clearFaults() }
    }

    /// Takes the backend offline (new connections are refused, requests on connections
    /// opened earlier are reset without being applied) or back online.
    ///
    /// Offline is server-wide: it cannot be limited to one endpoint, because a refused
    /// connection carries no request to tell endpoints apart.
    ///
    /// Coming back online listens again on the same port, which stayed bound while offline
    /// (the system gives it to no other socket). If another process took it anyway (an
    /// explicit bind with `SO_REUSEADDR`), the bind is retried (up to ``relistenAttempts`` times, ``relistenInterval``
    /// apart); if it still fails the backend stays offline (``isOffline`` stays true) and the
    /// error is returned, so a test fails with the reason instead of timing out later.
    /// - Returns: nil, or `FakeBackendError.cannotListen` with the port and the system error.
    @discardableResult
    public func setOffline(_ offline: Bool) -> FakeBackendError? {
        changes.note()
        defer { notifyWaiters() }
        store.withLock { $0.isOffline = offline }
        guard let failure = lifecycle.setOffline(offline, fake: "FakeBackend", host: configuration.host) else { return nil }
        store.withLock { $0.isOffline = true }
        return failure
    }

    /// `setOffline(_:)` without blocking a thread of Swift's cooperative pool: the socket
    /// work (and any re-bind retries) runs on a Dispatch thread while the caller is suspended.
    @discardableResult
    public func setOffline(_ offline: Bool) async -> FakeBackendError? {
        await offloaded { self.setOffline(offline) }
    }

    /// How many times `setOffline(_:)` tries to bind the port again before it reports failure.
    public static let relistenAttempts = FakeLifecycle.relistenAttempts
    /// The pause between two of those attempts (seconds): 50 × 10 ms, half a second in all.
    public static let relistenInterval: TimeInterval = FakeLifecycle.relistenInterval

    /// True while the backend refuses connections.
    public var isOffline: Bool { store.withLock { $0.isOffline } }
}

/// Runs `body` with a started backend and stops it afterwards, also when `body` throws.
///
/// ```swift
/// try await withFakeBackend(configuration: .init(sessions: ["s1": "a1"])) { backend in
///     // drive the client against backend.baseURL
/// }
/// ```
public func withFakeBackend<Result>(
    configuration: FakeBackend.Configuration = .init(),
    isolation: isolated (any Actor)? = #isolation,
    _ body: (FakeBackend) async throws -> Result
) async throws -> Result {
    try await withRunningFake(start: { try await FakeBackend.start(configuration: configuration) },
                              stop: { await $0.stop() }, isolation: isolation, body)
}
