import Foundation
import LoopbackHTTP
import PushCore
import FakeSupport

extension FakeAPNs {
    /// Starts FakeAPNs on loopback: HTTP/1.1 and HTTP/2 cleartext (prior knowledge) on one
    /// port, answering with `handle(_:)`.
    ///
    /// ```swift
    /// let apns = try await FakeAPNs.start()
    /// defer { Task { await apns.stop() } }
    /// sender.baseURL = apns.baseURL            // http://127.0.0.1:PORT
    /// ```
    /// - Throws: `PushFakeError.cannotListen` when the port cannot be bound.
    public static func start(configuration: FakeAPNs.Configuration = FakeAPNs.Configuration(),
                             payloadInspector: @escaping PayloadInspector = PayloadInspectors.default) async throws -> FakeAPNs {
        let fake = FakeAPNs(configuration: configuration, payloadInspector: payloadInspector)
        try fake.listen()
        return fake
    }

    /// The synchronous form of ``start(configuration:payloadInspector:)``: for XCTest's
    /// `setUp()` and other code outside `async` contexts. Stop it with ``stopListening()``.
    ///
    /// ```swift
    /// override func setUpWithError() throws { apns = try FakeAPNs.startListening() }
    /// override func tearDown() { apns.stopListening() }
    /// ```
    /// - Throws: `PushFakeError.cannotListen` when the port cannot be bound.
    public static func startListening(configuration: FakeAPNs.Configuration = FakeAPNs.Configuration(),
                                      payloadInspector: @escaping PayloadInspector = PayloadInspectors.default) throws -> FakeAPNs {
        let fake = FakeAPNs(configuration: configuration, payloadInspector: payloadInspector)
        try fake.listen()
        return fake
    }

    /// The synchronous form of ``stop()``, for XCTest's `tearDown()`: blocks the calling
    /// thread until the port is free (use ``stop()`` from `async` code).
    public func stopListening() {
        channelLifecycle.stopListening(failingPendingWaits: {})
        lifecycle.stopListening(failingPendingWaits: failAllWaiters)
    }

    /// Binds the configured address and serves this fake's handler.
    func listen() throws {
        let configuration = self.configuration
        var server = HTTPServerConfiguration()
        server.host = configuration.host
        server.port = configuration.port
        server.idleTimeout = configuration.idleTimeout
        server.maxBodyBytes = configuration.maxBodyBytes
        server.dispatchesOversizedRequests = true  // answered PayloadTooLarge and journaled
        server.http2.maxConcurrentStreams = max(1, configuration.maxConcurrentStreams)
        configureConnections(&server.http2, configuration)
        server.tls = configuration.tls?.identity(alsoFor: APNsEnvironment.hostNames)
        if let certificates = configuration.clientCertificates {
            guard let tls = configuration.tls else {
                throw PushFakeError.cannotListen("client certificates need TLS: set FakeAPNs.Configuration.tls too")
            }
            do {
                server.tls?.clientAuthentication = try certificates.tlsPolicy(fakeAuthorityPEM: tls.caCertificatePEM, clock: configuration.clock)
            } catch {
                throw PushFakeError.cannotListen("a trusted client CA is not a certificate FakeAPNs reads: \(error)")
            }
        }
        do {
            try lifecycle.listen(server, owner: self) { fake, request in fake.handle(request) }
        } catch {
            throw PushFakeError.cannotListen("FakeAPNs could not listen on \(configuration.host):\(configuration.port): \(error)")
        }
        if configuration.channelManagement {
            var manage = server
            manage.port = configuration.channelManagementPort
            do {
                try channelLifecycle.listen(manage, owner: self) { fake, request in fake.handleChannelManagement(request) }
            } catch {
                lifecycle.stopListening(failingPendingWaits: {})
                throw PushFakeError.cannotListen("FakeAPNs could not listen for channel management on \(configuration.host):\(configuration.channelManagementPort): \(error)")
            }
        }
    }

    /// The port FakeAPNs listens on (0 before ``start(configuration:payloadInspector:)``).
    public var port: UInt16 { lifecycle.port }

    /// `http://HOST:PORT` (`https://` with ``FakeAPNs/Configuration/tls``), the base a sender
    /// posts `/3/device/<token>` to.
    public var baseURL: URL { HTTPServer.baseURL(host: configuration.host, port: port, secure: configuration.tls != nil) }

    /// Stops listening: in-flight responses finish, every connection closes, and the port is
    /// free when this returns. Pending waits fail with `FakeAPNsError.cancelled`, and so does
    /// a wait started later. State (journal, deliveries) stays readable. Calling it twice is
    /// harmless.
    public func stop() async {
        await channelLifecycle.stop(failingPendingWaits: {})
        await lifecycle.stop(failingPendingWaits: failAllWaiters)
    }

    /// Takes FakeAPNs offline (new connections to its port are refused) or back online on
    /// the same port, as FakeBackend's
    /// `setOffline(_:)` does. Takes effect before it returns (blocking the calling thread
    /// briefly; use the `async` form from `async` code).
    /// - Returns: nil, or `PushFakeError.cannotListen` when the port could not be taken
    ///   again (another process took it); the fake then stays offline.
    @discardableResult
    public func setOffline(_ offline: Bool) -> FakeAPNsError? {
        changes.note()
        let failure = lifecycle.setOffline(offline, fake: "FakeAPNs", host: configuration.host)
        state.withLock { $0.isOffline = offline || failure != nil }
        return failure
    }

    /// `setOffline(_:)` without blocking a thread of Swift's cooperative pool.
    @discardableResult
    public func setOffline(_ offline: Bool) async -> FakeAPNsError? {
        await offloaded { self.setOffline(offline) }
    }

    /// True while FakeAPNs refuses connections.
    public var isOffline: Bool { state.withLock { $0.isOffline } }

    /// `setOffline(_:)` under its former name.
    @available(*, deprecated, renamed: "setOffline(_:)")
    public func refuseConnections(_ refuse: Bool) { setOffline(refuse) }

    /// `setOffline(_:)` under its former name.
    @available(*, deprecated, renamed: "setOffline(_:)")
    public func refuseConnections(_ refuse: Bool) async { await setOffline(refuse) }
}

/// Runs `body` with a started FakeAPNs and stops it afterwards, also when `body` throws.
///
/// ```swift
/// try await withFakeAPNs { apns in
///     apns.register(token: token, topic: "com.example.app")
///     try await sender.send(to: apns.baseURL)
///     try await apns.waitForDeliveries(to: token)
/// }
/// ```
public func withFakeAPNs<Result>(
    configuration: FakeAPNs.Configuration = FakeAPNs.Configuration(),
    payloadInspector: @escaping PayloadInspector = PayloadInspectors.default,
    isolation: isolated (any Actor)? = #isolation,
    _ body: (FakeAPNs) async throws -> Result
) async throws -> Result {
    try await withRunningFake(start: { try await FakeAPNs.start(configuration: configuration, payloadInspector: payloadInspector) },
                              stop: { await $0.stop() }, isolation: isolation, body)
}
