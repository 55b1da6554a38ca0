import Dispatch
import Foundation
import PushCore

/// An event-driven HTTP/1.1 server on loopback, one thread per server, around a handler.
///
/// The handler is a plain function from request to response, callable without a socket; this type is the
/// thin shell that owns sockets. Each server has its own loop thread, so many servers
/// can run in one process (parallel tests).
///
/// ```swift
/// let server = try HTTPServer.start { request in HTTPResponse(status: .ok, body: Array("hi".utf8)) }
/// defer { server.stop() }
/// // http://127.0.0.1:\(server.port)/
/// ```
package final class HTTPServer: Sendable {
    /// The port the server listens on (the one picked when the configuration said 0).
    package let port: UInt16
    /// The configuration it was started with (with `port` as configured, maybe 0).
    package let configuration: HTTPServerConfiguration
    /// The kernel interface its loop runs (the configured one, or `LOOPBACK_POLLER`'s choice).
    package let pollerBackend: EventPoller.Backend
    private let control: ServerControl
    /// The loop thread, joined by the first `stop()`.
    private let loopThread: LoopThread
    /// Left by the loop thread as its last act; later `stop()` callers wait on it.
    private let loopEnded: DispatchGroup
    /// Short critical sections only (commands are queued under it, never awaited): the
    /// loop thread itself (a handler) may call `stop()` or `refuseConnections`.
    private let lifecycle = Locked(Lifecycle())

    private struct Lifecycle {
        var stopped = false
        var refusing = false
    }

    private init(port: UInt16, configuration: HTTPServerConfiguration, pollerBackend: EventPoller.Backend, control: ServerControl, loopThread: LoopThread, loopEnded: DispatchGroup) {
        self.port = port
        self.configuration = configuration
        self.pollerBackend = pollerBackend
        self.control = control
        self.loopThread = loopThread
        self.loopEnded = loopEnded
    }

    /// Binds, listens and starts the loop thread. Ready for connections on return.
    ///
    /// - Parameters:
    ///   - configuration: address, limits and timeouts; defaults bind `127.0.0.1` on a free port.
    ///   - handler: runs on the loop thread for each complete request; must not block
    ///     (use `ResponseDisposition.delay` to answer late).
    /// - Throws: ``SystemError`` when the socket, poller or thread cannot be created
    ///   (e.g. `bind` with `EADDRINUSE` for a fixed port in use).
    package static func start(configuration: HTTPServerConfiguration = .init(), handler: @escaping HTTPHandler) throws -> HTTPServer {
        let poller = try EventPoller(backend: configuration.poller)
        let listener: Int32, port: UInt16
        do {
            (listener, port) = try Sockets.listen(
                host: configuration.host, port: configuration.port, portable: poller.backend.usesPortableSockets)
        } catch {
            poller.close()
            throw error
        }
        let control = ServerControl(waker: poller.waker)
        let backend = poller.backend
        let loopEnded = DispatchGroup()
        loopEnded.enter()
        let thread: LoopThread
        do {
            // The poller goes to the loop thread with the closure; if the thread cannot
            // start, the closure is released and the poller's deinit closes it.
            thread = try LoopThread.spawn {
                ServerLoop(configuration: configuration, handler: handler, control: control, poller: poller, listener: listener).run()
                loopEnded.leave()
            }
        } catch {
            closeDescriptor(listener)
            throw error
        }
        return HTTPServer(port: port, configuration: configuration, pollerBackend: backend, control: control, loopThread: thread, loopEnded: loopEnded)
    }

    /// `http://127.0.0.1:<port>` (IPv6 hosts in brackets; `https` when serving TLS), for
    /// building request URLs.
    package var baseURL: URL { Self.baseURL(host: configuration.host, port: port, secure: configuration.tls != nil) }

    /// `http://HOST:PORT` (`https://` when `secure`) for a numeric host (an IPv6 one in
    /// brackets): the one place the servers and both fakes build their base URL.
    package static func baseURL(host: String, port: UInt16, secure: Bool = false) -> URL {
        let shown = host.contains(":") ? "[\(host)]" : host
        return URL(string: "\(secure ? "https" : "http")://\(shown):\(port)") ?? URL(fileURLWithPath: "/")
    }

    /// Connections open right now (for tests: e.g. zero after clients went away).
    package var openConnectionCount: Int { control.counters.openConnections }
    /// Connections accepted since start.
    package var acceptedConnectionCount: Int { control.counters.acceptedConnections }

    /// Stops the server: no new connections; in-flight responses (including delayed ones)
    /// are finished within `shutdownGracePeriod`; hung requests are closed at once; then
    /// every socket is closed. Returns when the port is free and the loop thread has exited.
    /// Idempotent. Called from the handler (the loop thread itself) it starts the stop and
    /// returns at once.
    package func stop() {
        let first = lifecycle.withLock { state -> Bool in
            guard !state.stopped else { return false }
            state.stopped = true
            control.send(.stop)
            return true
        }
        let thread = loopThread
        if thread.isCurrent {
            // Stopping from its own handler: the loop ends after this turn; nobody joins,
            // and waiting here would wait for ourselves.
            if first { thread.detach() }
            return
        }
        if first {
            thread.join()
        } else {
            loopEnded.wait()
        }
    }

    /// ``stop()`` without blocking the caller's thread.
    package func stop() async {
        await offloaded { self.stop() }
    }

    /// "Offline": while `refuse` is true the listening socket is closed, so connects fail
    /// with `ECONNREFUSED`, and every existing connection is closed too (responses still
    /// pending are lost). The port stays bound meanwhile, by a socket that does not listen,
    /// so the system hands it to no other socket. `false` listens on it again. Takes effect
    /// before it returns (except when called from this server's own handler, where it is
    /// queued).
    ///
    /// If the port cannot be listened on again (another process bound it explicitly with
    /// `SO_REUSEADDR`), the server stays offline and the error is returned.
    @discardableResult
    package func refuseConnections(_ refuse: Bool) -> SystemError? {
        let done = DispatchSemaphore(value: 0)
        let outcome = Locked<SystemError?>(nil)
        // Queue the command under the lock, so concurrent calls reach the loop in the
        // order their state changes were made; wait for it outside the lock.
        let queued = lifecycle.withLock { state -> Bool in
            guard !state.stopped, state.refusing != refuse else { return false }
            state.refusing = refuse
            let command: ServerCommand = refuse ? .refuse(done: done) : .listen(port: port, outcome: outcome, done: done)
            return control.send(command)
        }
        guard queued, !loopThread.isCurrent else { return nil }
        done.wait()
        if let failure = outcome.snapshot {
            lifecycle.withLock { $0.refusing = true }
            return failure
        }
        return nil
    }

    deinit {
        // Dropped without stop(): stop it without waiting. The last reference may go on any
        // thread (one of Swift's cooperative pool included), which must not block on a join;
        // the loop closes every socket and its thread ends on its own.
        let first = lifecycle.withLock { state -> Bool in
            guard !state.stopped else { return false }
            state.stopped = true
            control.send(.stop)
            return true
        }
        if first { loopThread.detach() }
    }
}
