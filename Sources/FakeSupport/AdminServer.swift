import Foundation
import LoopbackHTTP
import PushCore

/// An ``AdminAPI`` listening on its own loopback port, apart from the fakes' ports, so
/// that taking a fake offline leaves the admin API reachable.
package final class AdminServer: Sendable {
    private let server: Locked<HTTPServer?>
    /// The port it listens on.
    package let port: UInt16
    private let host: String

    private init(server: HTTPServer, host: String) {
        self.server = Locked(server)
        self.port = server.port
        self.host = host
    }

    /// Starts serving `api` on `host:port` (127.0.0.1 and a free port by default). Every
    /// answer carries ``AdminAPI/securityHeaders``; `host` is accepted as a `Host` value
    /// beside the loopback names (``AdminAPI/safetyRefusal(_:)``).
    /// - Throws: ``SystemError`` when the address cannot be bound.
    package static func start(api: AdminAPI, host: String = "127.0.0.1", port: UInt16 = 0) throws -> AdminServer {
        var configuration = HTTPServerConfiguration()
        configuration.host = host
        configuration.port = port
        var api = api
        api.boundHost = host
        let server = try HTTPServer.start(configuration: configuration) { [api] request in
            var response = api.handle(request)
            for (name, value) in AdminAPI.securityHeaders { response.headers.append(name: name, value: value) }
            return response
        }
        return AdminServer(server: server, host: host)
    }

    /// `http://127.0.0.1:PORT`.
    package var baseURL: URL { HTTPServer.baseURL(host: host, port: port) }

    /// Stops listening; returns when the port is free. Calling it twice is harmless.
    package func stop() async {
        let running = server.withLock { server -> HTTPServer? in
            defer { server = nil }
            return server
        }
        await running?.stop()
    }

    /// The synchronous form of ``stop()``.
    package func stopNow() {
        let running = server.withLock { server -> HTTPServer? in
            defer { server = nil }
            return server
        }
        running?.stop()
    }
}
