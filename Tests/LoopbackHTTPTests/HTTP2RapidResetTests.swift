import Testing
@testable import LoopbackHTTP
import PushTestSupport

/// Rapid Reset (CVE-2023-44487) and the per-connection request cap (issue 13), at the
/// codec: bytes in, frames and dispatches out. Before the reset budget, 100,000
/// HEADERS+RST_STREAM pairs kept the connection open and dispatched every request.
@Suite struct HTTP2RapidResetTests {
    /// What a flood did to the connection.
    struct FloodOutcome {
        var streamsSent = 0
        var dispatched = 0
        var goAway: (lastStream: UInt32, code: HTTP2ErrorCode, debug: [UInt8])?
        var closed = false
    }

    /// Sends up to `pairs` HEADERS (END_STREAM) + RST_STREAM pairs, `batch` pairs per read;
    /// with `splitPairs` each RST_STREAM arrives in the read after its HEADERS.
    static func flood(pairs: Int, batch: Int = 100, splitPairs: Bool = false) -> FloodOutcome {
        var peer = HTTP2TestPeer()
        var outcome = FloodOutcome()
        var stream: UInt32 = 1
        func record(_ output: HTTP2TestPeer.Output) {
            outcome.dispatched += output.dispatches.count
            if let goAway = output.goAway { outcome.goAway = goAway }
            if output.closed || output.reset { outcome.closed = true }
        }
        while outcome.streamsSent < pairs && !peer.closed {
            var headers: [UInt8] = []
            var resets: [UInt8] = []
            for _ in 0..<batch {
                headers += peer.headers(stream, HTTP2TestPeer.requestFields(method: "GET"), endStream: true).bytes
                resets += HTTP2Frame(stream: stream, payload: .rstStream(.cancel)).bytes
                if !splitPairs { headers += resets; resets = [] }
                stream += 2
            }
            outcome.streamsSent += batch
            record(peer.send(headers))
            if splitPairs && !peer.closed { record(peer.send(resets)) }
        }
        return outcome
    }

    @Test func a100000PairRapidResetEndsInGoAwayEnhanceYourCalm() {
        let outcome = Self.flood(pairs: 100_000)
        #expect(outcome.goAway?.code == .enhanceYourCalm)
        #expect(outcome.closed)
        #expect(outcome.streamsSent <= 2_000, "the connection took \(outcome.streamsSent) resets")
        // Each RST_STREAM arrived in the same read as its HEADERS: no handler ran.
        #expect(outcome.dispatched == 0)
    }

    /// Resets that arrive a read after their HEADERS: those handlers ran, but the budget
    /// still ends the connection after about `streamResetBurst` of them.
    @Test func resetsInTheFollowingReadAreBoundedToo() {
        let outcome = Self.flood(pairs: 100_000, splitPairs: true)
        #expect(outcome.goAway?.code == .enhanceYourCalm)
        #expect(outcome.streamsSent <= 2_000)
        #expect(outcome.dispatched <= HTTP2Configuration().streamResetBurst + 100)
    }

    /// Ordinary traffic is not affected: 10,000 requests on one connection, all answered,
    /// with a few cancellations (1 in 100, well within the burst) among them.
    @Test func tenThousandOrdinaryRequestsOnOneConnectionAllSucceed() {
        var peer = HTTP2TestPeer()
        var answered = 0
        var stream: UInt32 = 1
        for index in 0..<10_000 {
            let output = peer.send([peer.headers(stream, HTTP2TestPeer.requestFields(method: "GET"), endStream: true)])
            #expect(output.goAway == nil)
            if index % 100 == 99 {
                _ = peer.send([HTTP2Frame(stream: stream, payload: .rstStream(.cancel))])
            } else {
                for (_, dispatched) in output.dispatches {
                    if peer.respond(HTTPResponse(status: .ok), stream: dispatched).ended(dispatched) { answered += 1 }
                }
            }
            stream += 2
        }
        #expect(answered == 9_900)
        #expect(!peer.closed)
    }

    /// The request cap ends an HTTP/2 connection gracefully: GOAWAY NO_ERROR naming the
    /// last request, which is still answered; later streams are ignored; then close.
    @Test func theRequestCapSendsGoAwayNoErrorAndFinishesTheLastRequest() {
        var configuration = HTTPServerConfiguration()
        configuration.maxRequestsPerConnection = 3
        var peer = HTTP2TestPeer(configuration: configuration)
        let output = peer.send((0..<5).map { peer.headers(UInt32(2 * $0 + 1), HTTP2TestPeer.requestFields(method: "GET"), endStream: true) })
        #expect(output.dispatches.map(\.1) == [1, 3, 5])
        #expect(output.goAway?.code == .noError)
        #expect(output.goAway?.lastStream == 5)
        #expect(!output.closed)
        for stream: UInt32 in [1, 3] { #expect(peer.respond(HTTPResponse(status: .ok), stream: stream).ended(stream)) }
        let last = peer.respond(HTTPResponse(status: .ok), stream: 5)
        #expect(last.ended(5))
        #expect(last.closed)
    }

    /// HTTP/1.1: the last request's response says `connection: close`, then the codec closes.
    @Test func theRequestCapClosesAnHTTP1ConnectionAfterTheLastResponse() {
        var configuration = HTTPServerConfiguration()
        configuration.maxRequestsPerConnection = 2
        var driver = CodecDriver()
        driver.codec = HTTP1Codec(configuration: configuration, connectionID: 7)
        let first = driver.receive("GET /1 HTTP/1.1\r\nHost: h\r\n\r\nGET /2 HTTP/1.1\r\nHost: h\r\n\r\nGET /3 HTTP/1.1\r\nHost: h\r\n\r\n")
        #expect(first.count == 1)
        let second = driver.respond(HTTPResponse(status: .noContent), stream: 1)
        #expect(second.count == 2)  // the first response (keep-alive), then /2 dispatched
        #expect(!second.contains(.close))
        let last = driver.respond(HTTPResponse(status: .noContent), stream: 2)
        guard case .write(let bytes)? = last.first else {
            Issue.record("no response written: \(last)")
            return
        }
        #expect(bytes.text.lowercased().contains("connection: close"))
        #expect(last.last == .close)
        #expect(!last.contains { if case .dispatch = $0 { return true } else { return false } })
    }
}
