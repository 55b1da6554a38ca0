import Foundation
import PushCore
import Testing
@testable import LoopbackHTTP
import PushTestSupport

/// Streamed HTTP/1.1 responses (`ResponseDisposition.stream`): chunks in order, backpressure
/// that bounds what a non-reading client costs, and the three ways a stream ends.
@Suite struct ResponseStreamTests {
    /// The streams the handler made, in order, and why each ended.
    final class Streams: Sendable {
        let made = Locked<[ResponseStream]>([])
        let endings = Locked<[ResponseStream.Ending]>([])

        /// A handler answering every request with a new stream of `capacity` bytes that
        /// starts with `first`.
        func handler(capacity: Int = 64 * 1024, first: String = "one\n") -> HTTPHandler {
            { [self] _ in
                let stream = ResponseStream(capacity: capacity) { [self] ending in endings.withLock { $0.append(ending) } }
                stream.offer(Array(first.utf8))
                made.withLock { $0.append(stream) }
                return HTTPResponse(status: .ok, headers: ["content-type": "text/event-stream"], disposition: .stream(stream))
            }
        }

        /// The `index`th stream, once the handler made it.
        func stream(_ index: Int = 0) -> ResponseStream? {
            guard eventually(timeout: 10, { made.snapshot.count > index }) else { return nil }
            return made.snapshot[index]
        }
    }

    static let request = "GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"

    /// The body of a chunked message (after the head), or nil when it is not well framed.
    static func dechunk(_ bytes: [UInt8]) -> String? {
        var rest = Substring(bytes.text)
        var body = ""
        while let lineEnd = rest.range(of: "\r\n") {
            guard let size = Int(rest[..<lineEnd.lowerBound], radix: 16) else { return nil }
            rest = rest[lineEnd.upperBound...]
            if size == 0 { return rest == "\r\n" ? body : nil }
            let utf8 = Array(rest.utf8)
            guard utf8.count >= size + 2 else { return nil }
            body += String(decoding: utf8[..<size], as: UTF8.self)
            rest = Substring(String(decoding: utf8[(size + 2)...], as: UTF8.self))
        }
        return nil
    }

    @Test func chunksArriveInOrderAndFinishEndsTheBody() async throws {
        let streams = Streams()
        try await withServer(handler: streams.handler()) { server in
            let reply = try await offThread { () throws -> [UInt8] in
                let client = try RawClient(port: server.port)
                try client.send(Self.request)
                let head = try client.read(until: { $0.text.contains("one\n") })
                let stream = try #require(streams.stream())
                #expect(stream.offer(Array("two\n".utf8)))
                #expect(stream.offer(Array("the third chunk, longer\n".utf8)))
                stream.finish()
                #expect(!stream.offer(Array("late\n".utf8)), "no offer after finish")
                return head + (try client.readToEnd())
            }
            let text = reply.text
            let split = try #require(text.range(of: "\r\n\r\n"))
            let head = text[..<split.lowerBound].lowercased()
            #expect(head.hasPrefix("http/1.1 200"))
            #expect(head.contains("transfer-encoding: chunked"))
            #expect(head.contains("connection: close"))
            #expect(!head.contains("content-length"))
            #expect(Self.dechunk(Array(text[split.upperBound...].utf8)) == "one\ntwo\nthe third chunk, longer\n", "\(text)")
            #expect(eventually(timeout: 5) { streams.endings.snapshot == [.finished] })
        }
    }

    @Test func anHTTP10ClientGetsACloseDelimitedBody() async throws {
        let streams = Streams()
        try await withServer(handler: streams.handler()) { server in
            let reply = try await offThread { () throws -> String in
                let client = try RawClient(port: server.port)
                try client.send("GET /events HTTP/1.0\r\n\r\n")
                let head = try client.read(until: { $0.text.contains("one\n") })
                let stream = try #require(streams.stream())
                stream.offer(Array("two\n".utf8))
                stream.finish()
                return (head + (try client.readToEnd())).text
            }
            #expect(!reply.lowercased().contains("transfer-encoding"))
            #expect(reply.hasSuffix("\r\n\r\none\ntwo\n"), "\(reply)")
        }
    }

    /// A client that reads nothing: the producer's offers are refused once the stream's
    /// buffer is full and the loop has stopped taking from it; the server holds at most the
    /// low-water mark plus one take in the connection's output.
    @Test func aClientThatStopsReadingBoundsWhatTheServerHolds() async throws {
        let streams = Streams()
        let budget = HeldOutputBudget(limit: 64 * 1024 * 1024)
        let capacity = 8 * 1024
        try await withServer({ $0.heldOutputBudget = budget }, handler: streams.handler(capacity: capacity)) { server in
            let (accepted, stalled) = try await offThread { () throws -> (Int, Bool) in
                let client = try RawClient(port: server.port)
                try client.send(Self.request)
                let stream = try #require(streams.stream())
                let chunk = [UInt8](repeating: 0x61, count: 1024)
                var accepted = 0
                for _ in 0..<20_000 {
                    if stream.offer(chunk) {
                        accepted += chunk.count
                        continue
                    }
                    // Refused: stalled once the loop no longer takes from the buffer.
                    if !eventually(timeout: 0.3, { stream.bufferedBytes == 0 }) { return (accepted, true) }
                }
                withExtendedLifetime(client) {}
                return (accepted, false)
            }
            #expect(stalled, "offers kept being taken: the server buffers without bound")
            #expect(accepted < 16 * 1024 * 1024, "accepted \(accepted) bytes for a client that reads nothing")
            let stream = try #require(streams.stream())
            #expect(stream.refusedOffers > 0)
            #expect(stream.bufferedBytes <= capacity, "the stream holds at most its capacity")
            #expect(budget.peakBytes <= ResponseStream.connectionLowWater + capacity + 4096,
                    "the connection held \(budget.peakBytes) bytes")
        }
    }

    @Test func aClientThatClosesEndsTheStream() async throws {
        let streams = Streams()
        try await withServer(handler: streams.handler()) { server in
            try await offThread { () throws in
                let client = try RawClient(port: server.port)
                try client.send(Self.request)
                _ = try client.read(until: { $0.text.contains("one\n") })
            }  // the client is closed here
            let stream = try #require(streams.stream())
            #expect(eventually(timeout: 5) { streams.endings.snapshot == [.clientGone] })
            #expect(stream.ending == .clientGone)
            #expect(!stream.offer(Array("after\n".utf8)))
            #expect(eventually(timeout: 5) { server.openConnectionCount == 0 })
        }
    }

    /// `stop()` ends open streams with their last chunk and returns without waiting for the
    /// grace period (30 s here).
    @Test func stopWithOpenStreamsReturnsPromptly() async throws {
        let streams = Streams()
        var configuration = HTTPServerConfiguration()
        configuration.shutdownGracePeriod = 30
        let server = try HTTPServer.start(configuration: configuration, handler: streams.handler())
        let clients = try await offThread { () throws -> [RawClient] in
            try (0..<2).map { _ in
                let client = try RawClient(port: server.port)
                try client.send(Self.request)
                _ = try client.read(until: { $0.text.contains("one\n") })
                return client
            }
        }
        // Timed on a thread of its own (stop() is the blocking form the async one offloads):
        // the time an `await` waits for a cooperative thread, which a busy suite makes
        // long (42 s once in CI), is not the server's.
        let elapsed = await offThread { () -> Double in
            let started = Date()
            server.stop()
            return Date().timeIntervalSince(started)
        }
        #expect(elapsed < 10, "stop took \(elapsed) s with streams open")
        #expect(streams.endings.snapshot == [.serverStopped, .serverStopped])
        let tails = try await offThread { () throws -> [String] in try clients.map { try $0.readToEnd().text } }
        for tail in tails { #expect(tail.hasSuffix("0\r\n\r\n"), "the last chunk ends each stream: \(tail)") }
    }

    @Test(.enabled(if: CurlInteropTests.curl != nil, "curl is not installed"))
    func curlReadsTheChunksAsTheyComeAndHTTP2IsRefused() async throws {
        let streams = Streams()
        try await withServer(handler: streams.handler(first: "a")) { server in
            let producer = Thread {
                guard let stream = streams.stream() else { return }
                stream.offer(Array("b".utf8))
                stream.offer(Array("c".utf8))
                stream.finish()
            }
            producer.start()
            let (status, out, err) = try await offThread { try CurlInteropTests.run(["-N", "-i", url(server, "/events").absoluteString]) }
            #expect(status == 0, "\(err)")
            #expect(out.lowercased().contains("transfer-encoding: chunked"))
            #expect(out.hasSuffix("\r\n\r\nabc"), "\(out)")
            let (_, h2, _) = try await offThread {
                try CurlInteropTests.run(["--http2-prior-knowledge", "-i", url(server, "/events").absoluteString])
            }
            #expect(h2.hasPrefix("HTTP/2 505"), "\(h2)")
            #expect(h2.contains("HTTP/1.1 only"))
            #expect(eventually(timeout: 5) { streams.endings.snapshot == [.finished, .refused] })
        }
    }
}
