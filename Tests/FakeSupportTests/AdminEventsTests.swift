import Foundation
import PushCore
import Testing
@testable import FakeSupport
@testable import LoopbackHTTP

/// `GET /events` without a socket: the stream the route answers is read with the loop's own
/// `take()`, and the sources are synthetic fakes (a feed and a sequence).
@Suite struct AdminEventsTests {
    /// A fake as the hub sees it: a change feed and a journal sequence the test moves.
    final class SyntheticFake: Sendable {
        let name: String
        let changes = ChangeFeed()
        let sequence = Locked<UInt64>(0)
        init(_ name: String) { self.name = name }
        var source: AdminEventSource { AdminEventSource(name: name, changes: changes) { [sequence] in sequence.snapshot } }
        func journal() { sequence.withLock { $0 += 1 } }
    }

    static func waitFor(_ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(5)
        while !condition() {
            if Date() > deadline { return false }
            usleep(2_000)
        }
        return true
    }

    /// Everything the stream holds so far, as text, added to `read`.
    static func drain(_ stream: ResponseStream, into read: inout String) {
        for chunk in stream.take().chunks { read += String(decoding: chunk, as: UTF8.self) }
    }

    static func stream(of response: HTTPResponse) -> ResponseStream? {
        if case .stream(let stream) = response.disposition { return stream }
        return nil
    }

    @Test func helloNamesEachServedFakeThenChangesFollowJournalAndState() throws {
        let backend = SyntheticFake("backend"), apns = SyntheticFake("apns")
        backend.journal(); backend.journal(); apns.journal()
        var api = AdminAPI(routes: [.events(backend.source)])
        api.add([.events(apns.source)])
        let response = api.handle(HTTPRequest(method: "GET", path: "/events", authority: "127.0.0.1:9"))
        #expect(response.status.code == 200)
        #expect(response.headers["Content-Type"]?.hasPrefix("text/event-stream") == true)
        #expect(response.headers["Cache-Control"] == "no-store")
        let stream = try #require(Self.stream(of: response))
        defer { stream.end(.clientGone) }
        var read = ""
        Self.drain(stream, into: &read)
        #expect(read == "event: hello\ndata: {\"backend\":2,\"apns\":1}\n\n")

        read = ""
        apns.journal()
        #expect(Self.waitFor { Self.drain(stream, into: &read); return !read.isEmpty })
        #expect(read == "event: change\ndata: {\"source\":\"apns\",\"sequence\":2}\n\n")

        read = ""
        backend.changes.note()  // a fault or reset: no journal entry, still a change
        #expect(Self.waitFor { Self.drain(stream, into: &read); return !read.isEmpty })
        #expect(read == "event: change\ndata: {\"source\":\"backend\",\"sequence\":2}\n\n")
    }

    @Test func aFakeNotServedIsLeftOutOfHello() throws {
        let backend = SyntheticFake("backend")
        let api = AdminAPI(routes: [.events(backend.source)])
        let stream = try #require(Self.stream(of: api.handle(HTTPRequest(method: "GET", path: "/events"))))
        defer { stream.end(.clientGone) }
        var read = ""
        Self.drain(stream, into: &read)
        #expect(read == "event: hello\ndata: {\"backend\":0}\n\n")
    }

    @Test func theSeventeenthSubscriberIsRefusedAndAClosedOneFreesItsSlot() throws {
        let api = AdminAPI(routes: [.events(SyntheticFake("backend").source)])
        let request = HTTPRequest(method: "GET", path: "/events")
        let streams = try (0..<AdminEventHub.maxSubscribers).map { _ in try #require(Self.stream(of: api.handle(request))) }
        defer { for stream in streams { stream.end(.clientGone) } }
        let refused = api.handle(request)
        #expect(refused.status.code == 503)
        #expect(refused.headers["Content-Type"] == "application/problem+json")
        streams[0].end(.clientGone)
        let admitted = try #require(Self.stream(of: api.handle(request)), "the slot of a closed stream is free again")
        admitted.end(.clientGone)
    }

    /// A subscriber that does not read loses events, and the next one it gets says how many.
    @Test func aSubscriberThatFellBehindGetsSkippedBeforeTheNextEvent() throws {
        let fake = SyntheticFake("backend")
        let hub = AdminEventHub(subscriberBufferBytes: 120, tickMilliseconds: 5)
        let stream = try #require(Self.stream(of: hub.subscribe(sources: [fake.source])))
        defer { stream.end(.clientGone) }
        // hello (about 35 bytes) and one change (about 50) fit; the next changes do not.
        fake.journal()
        #expect(Self.waitFor { stream.bufferedBytes > 60 })
        for _ in 0..<3 {
            let before = stream.refusedOffers
            fake.journal()
            #expect(Self.waitFor { stream.refusedOffers > before })
        }
        let skipped = stream.refusedOffers
        var read = ""
        Self.drain(stream, into: &read)
        read = ""
        fake.journal()
        #expect(Self.waitFor { Self.drain(stream, into: &read); return !read.isEmpty })
        #expect(read == "event: skipped\ndata: {\"skipped\":\(skipped)}\n\nevent: change\ndata: {\"source\":\"backend\",\"sequence\":5}\n\n")
        #expect(Self.waitFor { hub.subscriberCount == 1 })
    }
}
