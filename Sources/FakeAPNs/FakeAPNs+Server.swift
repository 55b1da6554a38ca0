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
    /// - Throws: ``FakeAPNsError/serverUnavailable`` when the port cannot be bound.
    public static func start(configuration: FakeAPNsConfiguration = FakeAPNsConfiguration(),
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
    /// - Throws: ``FakeAPNsError/serverUnavailable`` when the port cannot be bound.
    public static func startListening(configuration: FakeAPNsConfiguration = FakeAPNsConfiguration(),
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
        server.tls = configuration.tls?.identity
        if let certificates = configuration.clientCertificates {
            guard let tls = configuration.tls else {
                throw FakeAPNsError.serverUnavailable("client certificates need TLS: set FakeAPNsConfiguration.tls too")
            }
            do {
                server.tls?.clientAuthentication = try certificates.tlsPolicy(fakeAuthorityPEM: tls.caCertificatePEM, clock: configuration.clock)
            } catch {
                throw FakeAPNsError.serverUnavailable("a trusted client CA is not a certificate FakeAPNs reads: \(error)")
            }
        }
        do {
            try lifecycle.listen(server, owner: self) { fake, request in fake.handle(request) }
        } catch {
            throw FakeAPNsError.serverUnavailable("FakeAPNs could not listen on \(configuration.host):\(configuration.port): \(error)")
        }
        if configuration.channelManagement {
            var manage = server
            manage.port = configuration.channelManagementPort
            do {
                try channelLifecycle.listen(manage, owner: self) { fake, request in fake.handleChannelManagement(request) }
            } catch {
                lifecycle.stopListening(failingPendingWaits: {})
                throw FakeAPNsError.serverUnavailable("FakeAPNs could not listen for channel management on \(configuration.host):\(configuration.channelManagementPort): \(error)")
            }
        }
    }

    /// The port FakeAPNs listens on (0 before ``start(configuration:payloadInspector:)``).
    public var port: UInt16 { lifecycle.port }

    /// `http://HOST:PORT` (`https://` with ``FakeAPNsConfiguration/tls``), the base a sender
    /// posts `/3/device/<token>` to.
    public var baseURL: URL { HTTPServer.baseURL(host: configuration.host, port: port, secure: configuration.tls != nil) }

    /// Stops listening: in-flight responses finish, every connection closes, and the port is
    /// free when this returns. Pending waits fail with ``FakeAPNsError/cancelled``, and so does
    /// a wait started later. State (journal, deliveries) stays readable. Calling it twice is
    /// harmless.
    public func stop() async {
        await channelLifecycle.stop(failingPendingWaits: {})
        await lifecycle.stop(failingPendingWaits: failAllWaiters)
    }

    /// "Offline" for the whole service: connections are refused until called with false.
    /// Takes effect before it returns (blocking the calling thread briefly; use the `async`
    /// form from `async` code).
    public func refuseConnections(_ refuse: Bool) {
        _ = lifecycle.server?.refuseConnections(refuse)
    }

    /// ``refuseConnections(_:)`` without blocking a thread of Swift's cooperative pool.
    public func refuseConnections(_ refuse: Bool) async {
        await offloaded { self.refuseConnections(refuse) }
    }
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
    configuration: FakeAPNsConfiguration = FakeAPNsConfiguration(),
    payloadInspector: @escaping PayloadInspector = PayloadInspectors.default,
    isolation: isolated (any Actor)? = #isolation,
    _ body: (FakeAPNs) async throws -> Result
) async throws -> Result {
    try await withRunningFake(start: { try await FakeAPNs.start(configuration: configuration, payloadInspector: payloadInspector) },
                              stop: { await $0.stop() }, isolation: isolation, body)
}
