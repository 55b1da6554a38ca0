@testable import PushCore
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
@testable import LoopbackHTTP
import PushTestSupport

@Suite struct HTTPServerLifecycleTests {
    @Test func thousandServersStartAndStopWithoutLeakingDescriptors() throws {
        guard let before = openDescriptorCount() else { return }  // Linux only
        let threadsBefore = loopThreadCount() ?? 0
        var ports = Set<UInt16>()
        for _ in 0..<1_000 {
            let server = try HTTPServer.start(handler: echoHandler)
            ports.insert(server.port)
            server.stop()
        }
        #expect(ports.count > 1)
        // Every test target runs in this process, in parallel, and some open descriptors
        // that live on (URLSession's and Dispatch's internals). So allow a small constant
        // slack: a leak of even one descriptor per ten servers (100) would exceed it.
        let slack = 64
        // No loop thread outlives its stop(). Other suites start and stop servers in parallel,
        // so compare with the count before, with a slack far below the 1,000 a leak would add.
        #expect(eventually(timeout: 60) { (loopThreadCount() ?? 0) <= threadsBefore + 40 },
                "loop threads went from \(threadsBefore) to \(loopThreadCount() ?? -1) after 1,000 servers")
        #expect(eventually(timeout: 60) { (openDescriptorCount() ?? Int.max) <= before + slack },
                "open descriptors went from \(before) to \(openDescriptorCount() ?? -1) after 1,000 servers")
    }

    @Test func manyServersServeInParallel() throws {
        let servers = try (0..<20).map { index in
            try HTTPServer.start { _ in HTTPResponse(status: .ok, body: Array("server \(index)".utf8)) }
        }
        if loopThreadCount() != nil {
            // Each thread names itself once it runs, which may be just after start() returns.
            #expect(eventually { (loopThreadCount() ?? 0) >= 20 }, "each server runs its own loop thread")
        }
        defer { servers.forEach { $0.stop() } }
        // Every server has a request in flight before any answer is read, and each answers
        // with its own handler's body.
        let clients = try servers.map { try RawClient(port: $0.port) }
        for client in clients {
            try client.send("GET / HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n")
        }
        for (index, client) in clients.enumerated() {
            #expect(try client.readToEnd().text.hasSuffix("server \(index)"))
        }
    }

    /// The last reference may be dropped on a thread of Swift's cooperative pool, which must
    /// not block: deinit starts the stop and returns, and the loop finishes on its own.
    /// (Broken, with deinit joining the loop thread, the drop waits out the delayed answer.)
    @Test func aServerDroppedWithoutStopStopsWithoutBlockingTheDropper() throws {
        var configuration = HTTPServerConfiguration()
        configuration.shutdownGracePeriod = 10
        let dispatched = Locked(false)
        var server: HTTPServer? = try HTTPServer.start(configuration: configuration) { _ in
            dispatched.withLock { $0 = true }
            return HTTPResponse(status: .ok, body: Array("late".utf8), disposition: .delay(milliseconds: 4_000))
        }
        let port = try #require(server?.port)
        let client = try RawClient(port: port)
        try client.send("GET / HTTP/1.1\r\nHost: h\r\n\r\n")
        #expect(eventually { dispatched.snapshot })
        let dropped = Date()
        server = nil
        #expect(Date().timeIntervalSince(dropped) < 3, "deinit waited for the 4 s answer")
        #expect(eventually { (try? RawClient(port: port)) == nil }, "the listener closed without stop()")
        // The delayed answer is still delivered within the grace period.
        #expect(try client.readToEnd().text.hasSuffix("late"))
    }

    @Test func stopLeavesThePortFreeToBindAgain() throws {
        let server = try HTTPServer.start(handler: echoHandler)
        let port = server.port
        let client = try RawClient(port: port)
        try client.send("GET / HTTP/1.1\r\nHost: h\r\n\r\n")
        _ = try client.read { $0.text.hasSuffix("GET / 0") }
        server.stop()
        #expect(try client.readToEnd() == [], "stop closed the kept-alive connection")
        var configuration = HTTPServerConfiguration()
        configuration.port = port
        let again = try HTTPServer.start(configuration: configuration, handler: echoHandler)
        #expect(again.port == port)
        again.stop()
        // With no connection ever accepted, even a plain bind (no SO_REUSEADDR) succeeds.
        let idle = try HTTPServer.start(handler: echoHandler)
        let idlePort = idle.port
        idle.stop()
        #expect(plainBind(port: idlePort))
        do {
            _ = try RawClient(port: idlePort)
            Issue.record("connected to a stopped server")
        } catch let failure as RawClient.Failure {
            #expect(failure.errno == ECONNREFUSED)
        }
    }

    /// Stop and offline end the listening even while another copy of the listener's
    /// descriptor is open (a child process being started holds one until its `exec`): a
    /// stopped server's port accepted a connection so in a parallel test run.
    @Test func stopAndOfflineEndListeningWhileACopyOfTheListenerIsOpen() async throws {
        for goesOffline in [true, false] {
            let server = try HTTPServer.start(handler: echoHandler)
            let port = server.port
            let copy = try #require(duplicateListener(port: port))
            defer { close(copy) }
            if goesOffline {
                #expect(server.refuseConnections(true) == nil)
            } else {
                await server.stop()
            }
            #expect(throws: RawClient.Failure.self, "offline: \(goesOffline)") { _ = try RawClient(port: port) }
            if goesOffline {
                #expect(server.refuseConnections(false) == nil, "the port is listened on again")
                let after = try RawClient(port: port)
                try after.send("GET /2 HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n")
                // What came back is in the message: this failed once in a parallel CI run
                // (9c880ce, the answer not the echo) and never alone.
                let answer = try after.readToEnd().text
                #expect(answer.hasSuffix("GET /2 0"), "answer after going online again: \(answer.debugDescription)")
                await server.stop()
            }
        }
    }

    @Test func stopIsIdempotentAndRefuseAfterStopIsHarmless() throws {
        let server = try HTTPServer.start(handler: echoHandler)
        server.stop()
        server.stop()
        #expect(server.refuseConnections(true) == nil)
        #expect(server.refuseConnections(false) == nil)
        #expect(server.openConnectionCount == 0)
    }

    @Test func bindingAPortInUseThrowsANamedSystemError() throws {
        let server = try HTTPServer.start(handler: echoHandler)
        defer { server.stop() }
        var configuration = HTTPServerConfiguration()
        configuration.port = server.port
        #expect(throws: SystemError(operation: "bind(127.0.0.1:\(server.port))", errno: EADDRINUSE)) {
            try HTTPServer.start(configuration: configuration, handler: echoHandler)
        }
    }

    @Test func handlerCanStopItsOwnServer() throws {
        let box = Locked<HTTPServer?>(nil)
        let server = try HTTPServer.start { _ in
            box.withLock { $0 }?.stop()
            return HTTPResponse(status: .ok)
        }
        box.withLock { $0 = server }
        let client = try RawClient(port: server.port)
        try client.send("GET / HTTP/1.1\r\nHost: h\r\n\r\n")
        // The response was written before the stop took effect; then the connection closes.
        #expect(try client.readToEnd().text == "HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n")
        box.withLock { $0 = nil }
    }
}

/// Binds 127.0.0.1:`port` without SO_REUSEADDR; true when it succeeds.
/// A duplicate of the descriptor listening on 127.0.0.1:`port` in this process (found by
/// its address and `SO_ACCEPTCONN`), as a child process being started holds one until its
/// `exec`; nil when none is found.
func duplicateListener(port: UInt16) -> Int32? {
    for fd in Int32(0)..<4096 {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0, address.sin_family == sa_family_t(AF_INET), UInt16(bigEndian: address.sin_port) == port else { continue }
        var listening: Int32 = 0
        var size = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &listening, &size) == 0, listening != 0 else { continue }
        let copy = dup(fd)
        return copy >= 0 ? copy : nil
    }
    return nil
}

func plainBind(port: UInt16) -> Bool {
    #if canImport(Glibc)
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
    let fd = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let result = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    return result == 0
}

@Suite struct HTTPServerLimitTests {
    /// An idle connection would be closed to make room (ConnectionSlotTests); these two
    /// are busy, each with a request the handler never answers.
    @Test func connectionsBeyondTheLimitWaitWhileEveryConnectionIsBusy() async throws {
        let held = Locked(0)
        let handler: HTTPHandler = { request in
            guard request.path == "/hold" else { return echoHandler(request) }
            held.withLock { $0 += 1 }
            return HTTPResponse(status: .ok, disposition: .hang)
        }
        try await withServer({ $0.maxConnections = 2 }, handler: handler) { server in
            var first: RawClient? = try RawClient(port: server.port)
            let second = try RawClient(port: server.port)
            for client in [first, second] { try client?.send("GET /hold HTTP/1.1\r\nHost: h\r\n\r\n") }
            #expect(eventually { held.snapshot == 2 })
            let third = try RawClient(port: server.port)  // completes in the backlog
            try third.send("GET /third HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n")
            #expect(!eventually(timeout: 0.2) { server.acceptedConnectionCount > 2 })
            first = nil
            #expect(try third.readToEnd().text.hasSuffix("GET /third 0"))
            #expect(first == nil && second.fd >= 0)
        }
    }
}

@Suite struct HTTPServerAddressTests {
    @Test func ipv6LoopbackWhenAskedExplicitly() async throws {
        var configuration = HTTPServerConfiguration()
        configuration.host = "::1"
        guard let server = try? HTTPServer.start(configuration: configuration, handler: echoHandler) else {
            return  // no IPv6 loopback on this machine
        }
        #expect(server.baseURL.absoluteString == "http://[::1]:\(server.port)")
        if CurlInteropTests.curl != nil {
            // curl, because URLSession on Linux rejects bracketed IPv6 hosts.
            let (status, out, err) = try CurlInteropTests.run(["--globoff", server.baseURL.absoluteString + "/six"])
            #expect(status == 0, "\(err)")
            #expect(out == "GET /six 0")
        }
        await server.stop()
    }

    @Test func aHostThatIsNotANumericAddressIsANamedError() {
        var configuration = HTTPServerConfiguration()
        configuration.host = "not-an-address"
        #expect(throws: SystemError(operation: "inet_pton(not-an-address)", errno: EINVAL)) {
            try HTTPServer.start(configuration: configuration, handler: echoHandler)
        }
    }
}
