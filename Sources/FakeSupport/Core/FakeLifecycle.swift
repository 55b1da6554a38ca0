import Foundation
import LoopbackHTTP
import PushCore

/// The start/stop/wait lifecycle FakeBackend and FakeAPNs share: the server while it
/// listens, and whether the fake has stopped, which ends its waits.
///
/// A fake keeps its pending waits under its own lock (a change and the waits it satisfies
/// are seen together) and reads ``isStopped`` inside that lock when it registers one, so a
/// wait either fails at once or is among those ``stop(failingPendingWaits:)`` fails:
/// `stop` sets the flag before it calls the fake's `failingPendingWaits`.
package final class FakeLifecycle: Sendable {
    private struct State {
        var server: HTTPServer?
        var isStopped = false
    }

    private let state = Locked(State())

    package init() {}

    /// Binds `configuration`'s address and answers with `handle` on `owner` while the owner
    /// lives (503 after it is gone: the server holds the owner weakly).
    /// - Throws: what ``HTTPServer/start(configuration:handler:)`` throws.
    package func listen<Owner: AnyObject & Sendable>(
        _ configuration: HTTPServerConfiguration, owner: Owner,
        handle: @escaping @Sendable (Owner, HTTPRequest) -> HTTPResponse
    ) throws {
        // A `weak let`, captured as it is: a `[weak owner]` capture is a mutable box, and each
        // request's read of it was checked for exclusive access (~76 instructions).
        weak let weakOwner = owner
        let server = try HTTPServer.start(configuration: configuration) { request in
            guard let owner = weakOwner else { return HTTPResponse(status: .serviceUnavailable) }
            return handle(owner, request)
        }
        state.withLock { $0.server = server }
    }

    /// The server while the fake listens.
    package var server: HTTPServer? { state.withLock { $0.server } }

    /// The port it listens on; 0 before it listens and after it stops.
    package var port: UInt16 { state.withLock { $0.server?.port ?? 0 } }

    /// True once ``stop(failingPendingWaits:)`` or ``stopListening(failingPendingWaits:)`` has
    /// begun: a wait registered from then on must fail at once.
    package var isStopped: Bool { state.withLock { $0.isStopped } }

    /// Stops listening (in-flight responses finish, every connection closes, the port is
    /// free on return), then calls `failPendingWaits`. Calling it twice is harmless.
    package func stop(failingPendingWaits failPendingWaits: () -> Void) async {
        await takeServer()?.stop()
        failPendingWaits()
    }

    /// The synchronous form of ``stop(failingPendingWaits:)``: blocks the calling thread until
    /// the port is free.
    package func stopListening(failingPendingWaits failPendingWaits: () -> Void) {
        takeServer()?.stop()
        failPendingWaits()
    }

    /// Refuses new connections (`offline`) or listens again on the same port. If another
    /// process took the port meanwhile, the bind is retried ``relistenAttempts`` times,
    /// ``relistenInterval`` apart, before it gives up. Blocks the calling thread until the
    /// event loop has done it. Not listening (before start, after stop): nothing to do.
    /// - Returns: nil, or `PushFakeError.cannotListen` naming `fake`, `host`, the port and
    ///   the system's error; the server then still refuses connections.
    package func setOffline(_ offline: Bool, fake: String, host: String) -> PushFakeError? {
        guard let running = server else { return nil }
        guard !offline else {
            _ = running.refuseConnections(true)
            return nil
        }
        var failure = running.refuseConnections(false)
        var attempts = 1
        while failure != nil, attempts < Self.relistenAttempts {
            Thread.sleep(forTimeInterval: Self.relistenInterval)
            failure = running.refuseConnections(false)
            attempts += 1
        }
        guard let failure else { return nil }
        return PushFakeError.cannotListenAgain(fake, host: host, port: running.port, attempts: attempts, underlying: failure)
    }

    /// How many times ``setOffline(_:fake:host:)`` tries to bind the port again.
    package static let relistenAttempts = 50
    /// The pause between two of those attempts (seconds): 50 × 10 ms, half a second in all.
    package static let relistenInterval: TimeInterval = 0.01

    /// Marks the fake stopped and hands over its server, if it has one.
    private func takeServer() -> HTTPServer? {
        state.withLock { state in
            state.isStopped = true
            defer { state.server = nil }
            return state.server
        }
    }
}

/// Runs `body` with a fake from `start` and stops it afterwards, also when `body` throws:
/// the `withFakeBackend { }` and `withFakeAPNs { }` forms.
package func withRunningFake<Fake: Sendable, Result>(
    start: () async throws -> Fake,
    stop: (Fake) async -> Void,
    isolation: isolated (any Actor)? = #isolation,
    _ body: (Fake) async throws -> Result
) async throws -> Result {
    let fake = try await start()
    do {
        let result = try await body(fake)
        await stop(fake)
        return result
    } catch {
        await stop(fake)
        throw error
    }
}
