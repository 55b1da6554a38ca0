import PushCore

/// The body of a response produced over time (Server-Sent Events): a handler answers with
/// `disposition: .stream(stream)` and keeps the stream; any thread then ``offer(_:)``s
/// chunks and finally calls ``finish()``.
///
/// HTTP/1.1 only. The head goes out with `transfer-encoding: chunked` (an HTTP/1.0 client
/// gets a close-delimited body) and `connection: close`; each offered chunk becomes one
/// chunk on the wire, in order. Chunked rather than close-delimited so that a client can
/// tell a stream the server finished (the last chunk) from one cut off; closing afterwards
/// keeps the one-request-in-flight rule of HTTP/1.1 simple (input after the request is
/// dropped) and an event-stream client reconnects anyway. Over HTTP/2 the server answers
/// 505 naming HTTP/1.1 and closes the stream at once: the admin port is plain HTTP/1.1.
///
/// Memory is bounded: at most ``capacity`` offered bytes wait in the stream, and the loop
/// moves them to the connection only while the connection holds less than
/// ``ResponseStream/connectionLowWater`` unwritten bytes (output it holds is charged to
/// the process-wide ``HeldOutputBudget``). A client that stops reading therefore makes
/// ``offer(_:)`` return false (counted in ``refusedOffers``) instead of growing memory; a
/// client that reads nothing for the server's request timeout is disconnected.
///
/// The stream ends when the producer calls ``finish()`` (the last chunk is written, then
/// the connection closes), when the client closes or the connection fails, or when the
/// server stops (the last chunk is written and the connection closes without waiting for
/// the grace period). In each case ``onEnd`` runs once, on the thread that ended it.
///
/// ```swift
/// let events = ResponseStream(capacity: 64 * 1024) { ending in print("ended:", ending) }
/// _ = events.offer(Array("data: hello\n\n".utf8))
/// return HTTPResponse(status: .ok, headers: ["content-type": "text/event-stream"], disposition: .stream(events))
/// ```
package final class ResponseStream: Sendable, Hashable {
    /// Why a stream ended.
    package enum Ending: Sendable, Hashable {
        /// The producer called ``ResponseStream/finish()``; everything offered was written.
        case finished
        /// The client closed the connection, or it failed or timed out.
        case clientGone
        /// The server stopped.
        case serverStopped
        /// The connection does not speak HTTP/1.1 (HTTP/2): the response was refused.
        case refused
    }

    /// Unwritten output below which the loop takes more offered bytes for a connection.
    package static let connectionLowWater = 16 * 1024

    /// The most offered bytes waiting in the stream at once.
    package let capacity: Int
    private let onEnd: (@Sendable (Ending) -> Void)?
    private let state = Locked(State())

    private struct State {
        var chunks: [[UInt8]] = []
        var buffered = 0
        var finished = false
        var ending: Ending?
        var refused = 0
        /// Set by the loop when the response is being written: wakes it for new chunks.
        var wake: (@Sendable () -> Void)?
        /// A wake is pending: the loop has not taken the chunks since.
        var wakePending = false
    }

    /// A stream holding at most `capacity` (at least 1) offered bytes; `onEnd` runs once when
    /// it ends, with the reason.
    package init(capacity: Int = 64 * 1024, onEnd: (@Sendable (Ending) -> Void)? = nil) {
        self.capacity = max(1, capacity)
        self.onEnd = onEnd
    }

    /// Queues `bytes` as one chunk. False when it would not fit in ``capacity`` (the client
    /// is not reading fast enough: the chunk is dropped and counted), or when the stream
    /// has finished or ended. An empty chunk is accepted and ignored (the empty chunk ends
    /// a chunked body).
    @discardableResult
    package func offer(_ bytes: [UInt8]) -> Bool {
        let wake = state.withLock { s -> (@Sendable () -> Void)?? in
            guard !s.finished, s.ending == nil else { return .none }
            guard !bytes.isEmpty else { return .some(nil) }
            guard s.buffered + bytes.count <= capacity else {
                s.refused += 1
                return .none
            }
            s.chunks.append(bytes)
            s.buffered += bytes.count
            return .some(takeWake(&s))
        }
        guard let wake else { return false }
        wake?()
        return true
    }

    /// No more chunks: once what was offered is written, the body ends and the connection
    /// closes. Later offers return false.
    package func finish() {
        let wake = state.withLock { s -> (@Sendable () -> Void)? in
            guard !s.finished, s.ending == nil else { return nil }
            s.finished = true
            return takeWake(&s)
        }
        wake?()
    }

    /// Offers refused since the stream was made (full, or offered after the end).
    package var refusedOffers: Int { state.withLock { $0.refused } }
    /// Offered bytes not yet taken by the server.
    package var bufferedBytes: Int { state.withLock { $0.buffered } }
    /// Why it ended, or nil while it runs.
    package var ending: Ending? { state.withLock { $0.ending } }

    private func takeWake(_ s: inout State) -> (@Sendable () -> Void)? {
        guard !s.wakePending, let wake = s.wake else { return nil }
        s.wakePending = true
        return wake
    }

    // MARK: - The loop's side

    /// The loop starts writing the response: `wake` is called (at most once until the next
    /// ``take(maxBytes:)``) when chunks or the finish arrive.
    func attach(wake: @escaping @Sendable () -> Void) {
        state.withLock { $0.wake = wake }
    }

    /// Takes the chunks waiting, in order; `finished`: the producer finished and nothing
    /// is left.
    func take() -> (chunks: [[UInt8]], finished: Bool) {
        state.withLock { s in
            s.wakePending = false
            let chunks = s.chunks
            s.chunks = []
            s.buffered = 0
            return (chunks, s.finished)
        }
    }

    /// Whether chunks or the finish wait to be taken (no lock-free shortcut: called only by
    /// the loop for a streaming connection).
    var hasWork: Bool { state.withLock { !$0.chunks.isEmpty || $0.finished } }

    /// Ends the stream (the first call wins) and runs ``onEnd``.
    func end(_ ending: Ending) {
        let first = state.withLock { s -> Bool in
            guard s.ending == nil else { return false }
            s.ending = ending
            s.chunks = []
            s.buffered = 0
            s.wake = nil
            return true
        }
        if first { onEnd?(ending) }
    }

    package static func == (lhs: ResponseStream, rhs: ResponseStream) -> Bool { lhs === rhs }
    package func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
