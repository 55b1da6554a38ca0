import Foundation
import LoopbackHTTP
import PushCore

extension FakeAPNs {
    /// Starts FakeAPNs on loopback: HTTP/1.1 and HTTP/2 cleartext (prior knowledge) on one
    /// port, answering with ``handle(_:)``.
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
        let server = server_.withLock { s -> HTTPServer? in
            defer { s = nil }
            return s
        }
        server?.stop()
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
        server.tls = configuration.tls?.identity
        let started: HTTPServer
        do {
            started = try HTTPServer.start(configuration: server) { [weak self] request in
                guard let self else { return HTTPResponse(status: .serviceUnavailable) }
                return self.handle(request)
            }
        } catch {
            throw FakeAPNsError.serverUnavailable("FakeAPNs could not listen on \(configuration.host):\(configuration.port): \(error)")
        }
        server_.withLock { $0 = started }
    }

    /// The port FakeAPNs listens on (0 before ``start(configuration:payloadInspector:)``).
    public var port: UInt16 { server_.withLock { $0?.port ?? 0 } }

    /// `http://HOST:PORT` (`https://` with ``FakeAPNsConfiguration/tls``), the base a sender
    /// posts `/3/device/<token>` to.
    public var baseURL: URL { HTTPServer.baseURL(host: configuration.host, port: port, secure: configuration.tls != nil) }

    /// Stops listening; returns when the port is free. Idempotent. State (journal,
    /// deliveries) stays readable.
    public func stop() async {
        let server = server_.withLock { s -> HTTPServer? in
            defer { s = nil }
            return s
        }
        await server?.stop()
    }

    /// "Offline" for the whole service: connections are refused until called with false.
    /// Takes effect before it returns (blocking the calling thread briefly; use the `async`
    /// form from `async` code).
    public func refuseConnections(_ refuse: Bool) {
        _ = server_.withLock { $0 }?.refuseConnections(refuse)
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
    let fake = try await FakeAPNs.start(configuration: configuration, payloadInspector: payloadInspector)
    do {
        let result = try await body(fake)
        await fake.stop()
        return result
    } catch {
        await fake.stop()
        throw error
    }
}
