#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import Testing
@testable import LoopbackHTTP
@testable import PushCore
import PushTestSupport

/// The answers of one loop turn are written once every ready connection's request is
/// handled, not each right after its own (a client woken for one answer, then sleeping again
/// before the next, costs the server a wake-up per request). Order, not speed: the handler of
/// the turn's second request waits a while for the first one's answer, which must not come.
@Suite struct TurnEndFlushTests {
    static let rounds = 3

    @Test func aTurnsAnswersAreWrittenAfterItsRequestsAreHandled() async throws {
        let entered = DispatchSemaphore(value: 0)
        let gate = DispatchSemaphore(value: 0)
        // Signalled by /b's and /c's handlers once they looked: an answer read by the client
        // before the handler looks would not be there to see.
        let checked = DispatchSemaphore(value: 0)
        // The two clients of the round under way, by path (/b, /c).
        let clients = Locked<[String: RawClient]>([:])
        // Per round, for /b and /c: whether the other one's answer arrived while its handler ran.
        let sawOthersAnswer = Locked<[[String: Bool]]>(Array(repeating: [:], count: Self.rounds))
        let round = Locked(0)
        try await withServer(handler: { request in
            switch request.path {
            case "/a":
                // Holds the loop until /b and /c are both waiting: they are then one turn's events.
                entered.signal()
                _ = gate.wait(timeout: .now() + 20)
            case "/b", "/c":
                let other = request.path == "/b" ? "/c" : "/b"
                if let client = clients.snapshot[other] {
                    let arrived = answerArrives(on: client.fd, withinMilliseconds: 200)
                    let index = round.snapshot
                    sawOthersAnswer.withLock { $0[index][request.path] = arrived }
                }
                checked.signal()
            default:
                break
            }
            return HTTPResponse(status: .noContent)
        }) { server in
            try await offThread {
                for index in 0..<Self.rounds {
                    round.withLock { $0 = index }
                    let a = try RawClient(port: server.port, timeoutSeconds: 20)
                    try a.send("GET /a HTTP/1.1\r\nHost: h\r\n\r\n")
                    #expect(entered.wait(timeout: .now() + 20) == .success)
                    let b = try RawClient(port: server.port, timeoutSeconds: 20)
                    let c = try RawClient(port: server.port, timeoutSeconds: 20)
                    clients.withLock { $0 = ["/b": b, "/c": c] }
                    // A loopback send is in the server's socket when it returns.
                    try b.send("GET /b HTTP/1.1\r\nHost: h\r\n\r\n")
                    try c.send("GET /c HTTP/1.1\r\nHost: h\r\n\r\n")
                    gate.signal()
                    for _ in 0..<2 { #expect(checked.wait(timeout: .now() + 20) == .success) }
                    for client in [a, b, c] {
                        _ = try client.read { occurrences(of: "HTTP/1.1 204", in: $0) == 1 }
                    }
                }
            }
        }
        // Written as each was handled, /b's answer was out while /c's handler ran (or the reverse).
        #expect(sawOthersAnswer.snapshot == Array(repeating: ["/b": false, "/c": false], count: Self.rounds))
    }
}

/// True when bytes arrive on `fd` within `milliseconds`. Waited for, not looked at once: a
/// loopback answer written just before may still be on its way, and only a wait shows that
/// none was written. Where none is (the feature working), the wait runs out.
private func answerArrives(on fd: Int32, withinMilliseconds milliseconds: Int32) -> Bool {
    var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    return poll(&entry, 1, milliseconds) == 1 && entry.revents & Int16(POLLIN) != 0
}
