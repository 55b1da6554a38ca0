import Dispatch
import LoopbackHTTP
import PushCore

/// `GET /events`: the admin API's Server-Sent Events, for the dashboard.
///
/// On connect `event: hello` with each served fake's latest journal sequence
/// (`data: {"backend":12,"apns":40}`); then `event: change` (`data: {"source":"apns","sequence":41}`)
/// at most once per source per ``tickMilliseconds`` when its journal or state changed; a
/// `: keep-alive` comment every ``keepAliveSeconds``; and, before the next event, `event:
/// skipped` (`data: {"skipped":3}`) when events were dropped for a subscriber that did not
/// read. At most ``maxSubscribers`` at once (then 503). Each subscriber's unread events are
/// bounded by its ``ResponseStream``'s capacity, ``subscriberBufferBytes``.
final class AdminEventHub: Sendable {
    static let maxSubscribers = 16
    static let subscriberBufferBytes = 16 * 1024
    static let tickMilliseconds = 50
    static let keepAliveSeconds: Double = 15
    static let summary = "Server-Sent Events: hello with each fake's latest journal sequence, then a change event per source when it changes"

    fileprivate struct Subscriber {
        var stream: ResponseStream
        var skipped = 0
    }

    private struct State {
        var subscribers: [UInt64: Subscriber] = [:]
        var nextID: UInt64 = 0
        var ticking = false
        var sources: [AdminEventSource] = []
        var marks: [String: AdminEventSource.Mark] = [:]
        var lastKeepAlive: DispatchTime = .now()
    }

    private let state = Locked(State())
    private let queue = DispatchQueue(label: "AdminEventHub")
    /// The capacity of each subscriber's stream.
    let bufferBytes: Int
    /// How often sources are polled for changes (and so the most change events per source).
    let tick: DispatchTimeInterval

    /// A hub with no subscriber; tests shrink the buffer and the tick.
    init(subscriberBufferBytes: Int = AdminEventHub.subscriberBufferBytes, tickMilliseconds: Int = AdminEventHub.tickMilliseconds) {
        bufferBytes = subscriberBufferBytes
        tick = .milliseconds(tickMilliseconds)
    }

    /// Subscribers right now (for tests).
    var subscriberCount: Int { state.withLock { $0.subscribers.count } }

    /// Answers `GET /events` for `sources`: a stream that starts with `hello`, or 503 when
    /// ``maxSubscribers`` are connected.
    func subscribe(sources: [AdminEventSource]) -> HTTPResponse {
        let marks = sources.map { ($0.name, $0.mark) }
        let hello = "{" + marks.map { "\"\($0.0)\":\($0.1.sequence)" }.joined(separator: ",") + "}"
        let admitted = state.withLock { s -> (id: UInt64, stream: ResponseStream, startTicking: Bool)? in
            guard s.subscribers.count < Self.maxSubscribers else { return nil }
            s.nextID &+= 1
            let id = s.nextID
            let stream = ResponseStream(capacity: bufferBytes) { [weak self] _ in self?.remove(id) }
            _ = stream.offer(Self.event("hello", hello))
            s.subscribers[id] = Subscriber(stream: stream)
            s.sources = sources
            if s.ticking { return (id, stream, false) }
            s.ticking = true
            s.marks = Dictionary(marks, uniquingKeysWith: { first, _ in first })
            s.lastKeepAlive = .now()
            return (id, stream, true)
        }
        guard let admitted else {
            return AdminAPI.problem(status: 503, detail: "\(Self.maxSubscribers) event streams are open already; close one (a dashboard tab) and retry.",
                                    headers: [("Retry-After", "1")])
        }
        if admitted.startTicking { scheduleTick() }
        return HTTPResponse(
            status: .ok,
            headers: ["Content-Type": "text/event-stream; charset=utf-8", "Cache-Control": "no-store"],
            disposition: .stream(admitted.stream))
    }

    private func remove(_ id: UInt64) {
        state.withLock { _ = $0.subscribers.removeValue(forKey: id) }
    }

    private func scheduleTick() {
        // Strong: the hub lives while someone is subscribed, even if the API that made it is
        // gone; the chain ends at the first poll that finds no subscriber.
        queue.asyncAfter(deadline: .now() + tick) { self.poll() }
    }

    /// One poll: a change event per source whose mark moved, a keep-alive when due. Stops
    /// (until the next subscriber) when nobody is subscribed.
    private func poll() {
        let sources = state.withLock { $0.sources }
        let marks = sources.map { ($0.name, $0.mark) }  // outside the lock: each takes its fake's lock
        let goOn = state.withLock { s -> Bool in
            guard !s.subscribers.isEmpty else {
                s.ticking = false
                return false
            }
            var events: [[UInt8]] = []
            for (name, mark) in marks where s.marks[name] != mark {
                s.marks[name] = mark
                events.append(Self.event("change", "{\"source\":\"\(name)\",\"sequence\":\(mark.sequence)}"))
            }
            let now = DispatchTime.now()
            if now.uptimeNanoseconds &- s.lastKeepAlive.uptimeNanoseconds >= UInt64(Self.keepAliveSeconds * 1e9) {
                s.lastKeepAlive = now
                events.append(Array(": keep-alive\n\n".utf8))
            }
            for event in events {
                for id in Array(s.subscribers.keys) { s.subscribers[id]?.deliver(event) }
            }
            return true
        }
        if goOn { scheduleTick() }
    }

    /// `event: NAME` and one `data:` line, then the blank line that ends an event.
    static func event(_ name: String, _ data: String) -> [UInt8] {
        Array("event: \(name)\ndata: \(data)\n\n".utf8)
    }
}

extension AdminEventHub.Subscriber {
    /// Offers `event`, preceded by `event: skipped` when earlier ones were dropped; a
    /// refused offer counts as skipped events.
    fileprivate mutating func deliver(_ event: [UInt8]) {
        let isComment = event.first == UInt8(ascii: ":")
        var bytes: [UInt8] = []
        if skipped > 0 && !isComment { bytes = AdminEventHub.event("skipped", "{\"skipped\":\(skipped)}") }
        bytes += event
        if stream.offer(bytes) {
            if !isComment { skipped = 0 }
        } else if !isComment {
            skipped += 1
        }
    }
}
