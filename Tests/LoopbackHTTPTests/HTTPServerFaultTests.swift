@testable import PushCore
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
@testable import LoopbackHTTP
import PushTestSupport

/// Each response disposition and "offline", observed from the client's side of the socket.
@Suite struct HTTPServerFaultTests {
    /// A handler that answers with the disposition named by the path, after recording it.
    static func faultHandler(_ applied: Locked<[String]>) -> HTTPHandler {
        { request in
            applied.withLock { $0.append(request.path) }
            var response = HTTPResponse(status: .ok, body: Array("done \(request.path)".utf8))
            switch request.path {
            case "/delay": response.disposition = .delay(milliseconds: 400)
            case "/hang": response.disposition = .hang
            case "/reset": response.disposition = .reset
            case "/lose": response.disposition = .loseResponse
            case "/goaway": response.disposition = .goAway(debugData: Array("bye".utf8))
            default: break
            }
            return response
        }
    }

    @Test func delayedResponseIsNotYetThereThenArrives() async throws {
        let applied = Locked<[String]>([])
        try await withServer(handler: Self.faultHandler(applied)) { server in
            let client = try RawClient(port: server.port)
            try client.send("GET /delay HTTP/1.1\r\nHost: h\r\n\r\n")
            #expect(eventually { applied.snapshot == ["/delay"] })
            // The handler ran; the answer is held back (nothing readable yet).
            var poll = pollfd(fd: client.fd, events: Int16(POLLIN), revents: 0)
            #expect(pollOnce(&poll, 50) == 0)
            let reply = try client.read { $0.text.hasSuffix("done /delay") }
            #expect(reply.text == "HTTP/1.1 200 OK\r\ncontent-length: 11\r\n\r\ndone /delay")
        }
    }

    @Test func hangMakesTheClientsOwnTimeoutFire() async throws {
        let applied = Locked<[String]>([])
        try await withServer(handler: Self.faultHandler(applied)) { server in
            let session = makeSession(timeout: 2)
            var caught: Error?
            do {
                _ = try await session.data(from: url(server, "/hang"))
            } catch {
                caught = error
            }
            #expect((caught as? URLError)?.code == .timedOut)
            #expect(applied.snapshot == ["/hang"], "the request reached the handler; only the answer never came")
            session.invalidateAndCancel()
        }
    }

    @Test func aHungConnectionIsReleasedWhenTheClientGivesUp() async throws {
        let applied = Locked<[String]>([])
        try await withServer(handler: Self.faultHandler(applied)) { server in
            do {
                let client = try RawClient(port: server.port)
                try client.send("GET /hang HTTP/1.1\r\nHost: h\r\n\r\n")
                #expect(eventually { applied.snapshot == ["/hang"] })
                #expect(server.openConnectionCount == 1)
            }
            #expect(eventually { server.openConnectionCount == 0 })
        }
    }

    @Test func resetIsSeenAsConnectionReset() async throws {
        let applied = Locked<[String]>([])
        try await withServer(handler: Self.faultHandler(applied)) { server in
            let client = try RawClient(port: server.port)
            try client.send("GET /reset HTTP/1.1\r\nHost: h\r\n\r\n")
            #expect(throws: RawClient.Failure.self) { try client.readToEnd() }
            do {
                _ = try client.readToEnd()
            } catch let failure as RawClient.Failure {
                #expect(failure.errno == ECONNRESET)
            }
            #expect(applied.snapshot == ["/reset"])
        }
    }

    @Test func lostResponseIsAConnectionClosedWithoutAnswer() async throws {
        let applied = Locked<[String]>([])
        try await withServer(handler: Self.faultHandler(applied)) { server in
            let client = try RawClient(port: server.port)
            try client.send("GET /lose HTTP/1.1\r\nHost: h\r\n\r\n")
            #expect(try client.readToEnd() == [])
            #expect(applied.snapshot == ["/lose"], "the handler ran: the effect was applied")
        }
    }

    @Test func goAwayOnHTTP1WritesTheResponseAndCloses() async throws {
        let applied = Locked<[String]>([])
        try await withServer(handler: Self.faultHandler(applied)) { server in
            let client = try RawClient(port: server.port)
            try client.send("GET /goaway HTTP/1.1\r\nHost: h\r\n\r\n")
            #expect(try client.readToEnd().text == "HTTP/1.1 200 OK\r\ncontent-length: 12\r\nconnection: close\r\n\r\ndone /goaway")
        }
    }

    @Test func refuseConnectionsRefusesThenServesAgainOnTheSamePort() async throws {
        // A port below the ephemeral range: while the listener is closed, the system never
        // gives it to another test's socket by itself (a system-picked port can be, and a
        // connect to that socket "succeeds while offline": it flaked so in CI).
        let port = try #require(Sockets.portOutsideEphemeralRange())
        try await withServer({ $0.port = port }, handler: echoHandler) { server in
            let before = try RawClient(port: server.port)
            try before.send("GET /1 HTTP/1.1\r\nHost: h\r\n\r\n")
            _ = try before.read { $0.text.hasSuffix("GET /1 0") }

            #expect(server.refuseConnections(true) == nil)
            do {
                _ = try RawClient(port: server.port)
                Issue.record("connect succeeded while offline")
            } catch let failure as RawClient.Failure {
                #expect(failure.errno == ECONNREFUSED)
            }
            #expect(try before.readToEnd() == [], "existing connections are closed when going offline")

            #expect(server.refuseConnections(false) == nil)
            let after = try RawClient(port: server.port)
            try after.send("GET /2 HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n")
            #expect(try after.readToEnd().text.hasSuffix("GET /2 0"))
        }
    }

    /// A server on a system-picked port keeps that port while it refuses connections: no
    /// other socket can bind it (so no other test's server or client is given it, which made
    /// two tests fail in CI: a probe "answered while offline" by another server, and coming
    /// back online found the port taken), connections are refused, and stop frees it.
    @Test func refusingHoldsTheSystemPickedPortUntilListeningAgain() async throws {
        let server = try HTTPServer.start(handler: echoHandler)
        let port = server.port
        #expect(server.refuseConnections(true) == nil)
        #expect(!plainBind(port: port), "the port is held while refusing")
        #expect(throws: RawClient.Failure.self) { _ = try RawClient(port: port) }
        #expect(server.refuseConnections(false) == nil)
        #expect(server.port == port)
        let after = try RawClient(port: port)
        try after.send("GET /2 HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n")
        #expect(try after.readToEnd().text.hasSuffix("GET /2 0"))
        await server.stop()
        // Stop frees a held port (a server that never accepted, so no connection lingers).
        let idle = try HTTPServer.start(handler: echoHandler)
        #expect(idle.refuseConnections(true) == nil)
        let idlePort = idle.port
        #expect(!plainBind(port: idlePort))
        await idle.stop()
        #expect(plainBind(port: idlePort), "stop frees a held port")
    }

    @Test func stopFinishesADelayedResponseInFlight() async throws {
        let applied = Locked<[String]>([])
        let server = try HTTPServer.start(handler: Self.faultHandler(applied))
        let client = try RawClient(port: server.port)
        try client.send("GET /delay HTTP/1.1\r\nHost: h\r\n\r\n")
        #expect(eventually { applied.snapshot == ["/delay"] })
        await server.stop()
        #expect(try client.readToEnd().text == "HTTP/1.1 200 OK\r\ncontent-length: 11\r\nconnection: close\r\n\r\ndone /delay")
    }

    @Test func stopDoesNotWaitForAHungRequest() async throws {
        let applied = Locked<[String]>([])
        var configuration = HTTPServerConfiguration()
        configuration.shutdownGracePeriod = 60
        let server = try HTTPServer.start(configuration: configuration, handler: Self.faultHandler(applied))
        let client = try RawClient(port: server.port)
        try client.send("GET /hang HTTP/1.1\r\nHost: h\r\n\r\n")
        #expect(eventually { applied.snapshot == ["/hang"] })
        // Timed on the thread that stops, so a cooperative pool busy with other suites'
        // blocking peers (two threads on a 2-core machine) does not count as stop()'s time.
        let stopping = await offloaded { () -> TimeInterval in
            let started = Date()
            server.stop()
            return Date().timeIntervalSince(started)
        }
        #expect(stopping < 30, "a hung request must not hold stop() for the grace period")
        #expect(try client.readToEnd() == [])
    }
}

@inline(__always)
private func pollOnce(_ descriptor: inout pollfd, _ milliseconds: Int32) -> Int32 {
    poll(&descriptor, 1, milliseconds)
}

@Suite struct HTTPServerSelfControlTests {
    @Test func handlerCanTakeItsOwnServerOfflineWithoutDeadlock() async throws {
        let box = Locked<HTTPServer?>(nil)
        let server = try HTTPServer.start { request in
            if request.path == "/offline" { box.withLock { $0 }?.refuseConnections(true) }
            return HTTPResponse(status: .ok, body: Array(request.path.utf8))
        }
        box.withLock { $0 = server }
        let client = try RawClient(port: server.port)
        try client.send("GET /offline HTTP/1.1\r\nHost: h\r\n\r\n")
        // The answer is written before the queued refusal closes the connection.
        #expect(try client.readToEnd().text == "HTTP/1.1 200 OK\r\ncontent-length: 8\r\n\r\n/offline")
        #expect(eventually {
            (try? RawClient(port: server.port)) == nil
        })
        #expect(server.refuseConnections(false) == nil)
        let again = try RawClient(port: server.port)
        try again.send("GET /back HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n")
        #expect(try again.readToEnd().text.hasSuffix("/back"))
        box.withLock { $0 = nil }
        await server.stop()
    }
}
