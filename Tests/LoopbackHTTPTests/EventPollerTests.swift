import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
@testable import LoopbackHTTP
import PushTestSupport

/// The event loop's backends (issue 11): POSIX `poll(2)`, the one Darwin runs (and Linux CI
/// runs under `LOOPBACK_POLLER=poll`), and Linux's default epoll. Every test that takes a
/// backend runs on each one this platform has, in the same process.
@Suite struct EventPollerTests {
    @Test func theEnvironmentVariableSelectsTheBackend() {
        typealias Backend = EventPoller.Backend
        #expect(Backend.resolve(nil) == Backend.platformDefault)
        #expect(Backend.resolve("poll") == .poll)
        #expect(Backend.resolve("kqueue") == Backend.platformDefault)
        #expect(Backend.resolve("") == Backend.platformDefault)
        #expect(Backend.resolve("epoll") == (Backend.available.contains(.epoll) ? .epoll : Backend.platformDefault))
        #expect(Backend.selected == Backend.resolve(ProcessInfo.processInfo.environment[Backend.environmentVariable]))
        #expect(Backend.available.contains(.poll))
    }

    /// What CI's `test_poll` step relies on: a server whose configuration names no backend
    /// runs the one `LOOPBACK_POLLER` selected.
    @Test func aServerThatDoesNotChooseRunsTheSelectedBackend() throws {
        let server = try HTTPServer.start(handler: echoHandler)
        defer { server.stop() }
        #expect(server.pollerBackend == EventPoller.Backend.selected)
        if ProcessInfo.processInfo.environment["LOOPBACK_POLLER"] == "poll" {
            #expect(server.pollerBackend == .poll)
        }
    }

    /// A wake-up is consumed: the wait it ends returns no event, and the next wait blocks for
    /// its whole timeout. Bites when the self-pipe (or eventfd) is not drained: every later
    /// wait would return at once and the loop would spin.
    @Test(arguments: EventPoller.Backend.available)
    func aWakeUpIsConsumedSoTheNextWaitBlocks(backend: EventPoller.Backend) throws {
        let poller = try EventPoller(backend: backend)
        defer { poller.close() }
        #expect(poller.backend == backend)
        var events: [PollEvent] = []
        for _ in 0..<1_000 { poller.wake() }  // more than one read's worth of pipe bytes
        let woken = ContinuousClock.now
        try poller.wait(timeoutMilliseconds: 5_000, into: &events)
        #expect(events.isEmpty)
        #expect(ContinuousClock.now - woken < .seconds(4))
        let blocked = ContinuousClock.now
        try poller.wait(timeoutMilliseconds: 100, into: &events)
        #expect(events.isEmpty)
        #expect(ContinuousClock.now - blocked >= .milliseconds(90))
    }

    /// 150 pipes watched, every other one dropped (moving entries around the `pollfd` array),
    /// some dropped ones watched again, write interest on others: one wait reports exactly
    /// the descriptors that are both watched and ready.
    @Test(arguments: EventPoller.Backend.available)
    func exactlyTheWatchedReadyDescriptorsAreReported(backend: EventPoller.Backend) throws {
        let poller = try EventPoller(backend: backend)
        var pipes: [(read: Int32, write: Int32)] = []
        defer {
            poller.close()
            for ends in pipes { close(ends.read); close(ends.write) }
        }
        for _ in 0..<150 {
            var ends: [Int32] = [-1, -1]
            try #require(pipe(&ends) == 0)
            pipes.append((ends[0], ends[1]))
        }
        for ends in pipes { try poller.update(ends.read, from: .none, to: .readable, edgeTriggered: false) }
        for (index, ends) in pipes.enumerated() where index % 2 == 0 {
            try poller.update(ends.read, from: .readable, to: .none, edgeTriggered: false)
        }
        for (index, ends) in pipes.enumerated() where index % 4 == 0 {
            try poller.update(ends.read, from: .none, to: .readable, edgeTriggered: false)
        }
        let writeOnly = PollInterest(read: false, write: true)
        for (index, ends) in pipes.enumerated() where index % 5 == 0 {
            try poller.update(ends.write, from: .none, to: writeOnly, edgeTriggered: false)
        }
        for (index, ends) in pipes.enumerated() where index % 3 == 0 {
            var byte: UInt8 = 1
            try #require(write(ends.write, &byte, 1) == 1)
        }
        var events: [PollEvent] = []
        try poller.wait(timeoutMilliseconds: 1_000, into: &events)
        let watchedForReading = { (index: Int) in index % 2 == 1 || index % 4 == 0 }
        let expectedReadable = pipes.indices.filter { $0 % 3 == 0 && watchedForReading($0) }.map { pipes[$0].read }
        let expectedWritable = pipes.indices.filter { $0 % 5 == 0 }.map { pipes[$0].write }
        #expect(Set(events.filter(\.readable).map(\.fd)) == Set(expectedReadable))
        #expect(Set(events.filter(\.writable).map(\.fd)) == Set(expectedWritable))
        #expect(events.count == expectedReadable.count + expectedWritable.count)
        #expect(events.allSatisfy { !$0.failed })
    }

    /// A hang-up (the pipe's writer closed) is `failed`; poll also reports it readable, so the
    /// loop reads the EOF (POSIX has no `POLLRDHUP`).
    @Test(arguments: EventPoller.Backend.available)
    func aHangUpIsReportedAsFailed(backend: EventPoller.Backend) throws {
        let poller = try EventPoller(backend: backend)
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        defer {
            poller.close()
            close(ends[0])
        }
        try poller.update(ends[0], from: .none, to: .readable, edgeTriggered: false)
        close(ends[1])
        var events: [PollEvent] = []
        try poller.wait(timeoutMilliseconds: 1_000, into: &events)
        let event = try #require(events.first { $0.fd == ends[0] })
        #expect(event.failed)
        if backend == .poll { #expect(event.readable) }
    }

    /// A server on each backend: "offline" and back and `stop()` are commands sent from
    /// another thread while the loop blocks in a wait with no timeout (they hang without a
    /// working wake-up); requests are answered, also on 500 connections at once.
    ///
    /// The backends' cases run side by side, so the descriptor limit leaves room for both
    /// (2,000 descriptors) and for HostileClientTests' 2,000 connections (4,000): short of
    /// descriptors, a server's `accept` fails with `EMFILE` while its clients wait for replies.
    /// Running side by side is also what found `RawClient`'s double close (see its `init`).
    @Test(.timeLimit(.minutes(2)), arguments: EventPoller.Backend.available)
    func aServerOnEachBackendServesAndStops(backend: EventPoller.Backend) async throws {
        let connections = 500
        try raiseDescriptorLimit(to: 8_192)
        var configuration = HTTPServerConfiguration()
        configuration.poller = backend
        // Outside the ephemeral range: the listener closes and binds its port again, and an
        // ephemeral port freed for a moment can go to any socket on the machine meanwhile;
        // the re-listen then failed unseen and every client got "refused" (issue 39).
        configuration.port = try #require(Sockets.portOutsideEphemeralRange(), "no free port below the ephemeral range")
        let server = try HTTPServer.start(configuration: configuration, handler: echoHandler)
        #expect(server.pollerBackend == backend)
        let port = server.port
        let (refused, relistened, answered, open, closedAll) = try await offThread {
            // Nothing has connected: no timer is set, so the loop waits without a timeout.
            server.refuseConnections(true)
            let refused = (try? RawClient(port: port)) == nil
            let relistened = server.refuseConnections(false)
            // A failed re-listen is the cause of every "refused" below: report it, not them.
            guard relistened == nil else {
                server.stop()
                return (refused, relistened, connections, connections, true)
            }
            var clients: [RawClient] = []
            for _ in 0..<connections { clients.append(try RawClient(port: port, timeoutSeconds: 20)) }
            let answered = try answeredEchoRequests(from: clients)
            let open = server.openConnectionCount
            clients.removeAll()
            let closedAll = eventually(timeout: 20) { server.openConnectionCount == 0 }
            server.stop()
            return (refused, relistened, answered, open, closedAll)
        }
        #expect(refused)
        #expect(relistened == nil, "listening again on port \(port): \(relistened.map { "\($0)" } ?? "")")
        #expect(answered == connections)
        #expect(open == connections)
        #expect(closedAll)
    }
}
