/// Which readiness a descriptor is watched for.
package struct PollInterest: Hashable, Sendable {
    package var read: Bool
    package var write: Bool
    package static let none = PollInterest(read: false, write: false)
    package static let readable = PollInterest(read: true, write: false)
    package var isEmpty: Bool { !read && !write }
}

/// One readiness report from ``EventPoller/wait(timeoutMilliseconds:into:)``.
package struct PollEvent: Sendable {
    package var fd: Int32
    package var readable: Bool
    package var writable: Bool
    /// Error or hang-up: the descriptor should be read (to see EOF or the error) and closed.
    package var failed: Bool
    /// The peer's end (its FIN: `EPOLLRDHUP`), a hang-up or an error was reported: a read that
    /// returns bytes has not reached it yet, and an edge-triggered poller reports it no more.
    package var endReported: Bool
}

/// A kernel readiness interface behind ``EventPoller``: `poll(2)` everywhere, epoll on Linux.
protocol ReadinessSet: AnyObject {
    var waker: PollerWaker { get }
    /// `edgeTriggered`: report `fd` when its readiness changes, not at every wait while it
    /// lasts, where the kernel interface can (epoll); ignored elsewhere.
    func update(_ fd: Int32, from old: PollInterest, to new: PollInterest, edgeTriggered: Bool) throws(SystemError)
    func forget(_ fd: Int32)
    func wait(timeoutMilliseconds: Int32, into events: inout [PollEvent]) throws(SystemError)
    func close()
}

/// The event loop's one small interface to the kernel: `poll(2)` (``Backend/poll``, the
/// only one on Darwin) or epoll (``Backend/epoll``, Linux's default).
///
/// Level-triggered, or edge-triggered where ``edgeTriggered`` says (descriptors updated so on
/// epoll). Not `Sendable`: it belongs to the server's loop thread (it is created
/// by `HTTPServer.start` and handed over with the thread). Other threads only get its
/// ``waker``, a `Sendable` value.
package final class EventPoller {
    /// The kernel interface this poller runs.
    package let backend: Backend
    /// Makes a blocked or upcoming ``wait(timeoutMilliseconds:into:)`` return; safe from any thread.
    package let waker: PollerWaker
    private let set: any ReadinessSet
    private var closed = false

    /// Creates the poller and its wake-up channel.
    /// - Parameter backend: `nil` runs ``Backend/selected`` (`LOOPBACK_POLLER`); a backend
    ///   this platform lacks (epoll on Darwin) runs the platform default.
    /// - Throws: ``SystemError`` from `epoll_create1`/`eventfd` or `pipe`/`fcntl`.
    package init(backend requested: Backend? = nil) throws(SystemError) {
        backend = requested.map { Backend.available.contains($0) ? $0 : .platformDefault } ?? .selected
        set = try backend.makeSet()
        waker = set.waker
    }

    deinit { close() }

    /// Releases the kernel objects (the waker's descriptor too). Idempotent; the loop calls
    /// it from its thread once no other thread can wake it any more.
    package func close() {
        guard !closed else { return }
        closed = true
        set.close()
    }

    /// Makes a blocked or upcoming `wait` return.
    package func wake() { waker.wake() }

    /// Changes what `fd` is watched for. `old` must be what was last set (`.none` for a new
    /// descriptor); an empty `new` stops watching it. With `edgeTriggered`, on a poller that
    /// ``edgeTriggered`` says is, `fd` is reported when bytes arrive, room opens or the peer
    /// ends, not at every wait while they stay (the caller reads again what it leaves unread);
    /// an update that watches for something makes the next wait report it if it is ready
    /// already. Every update of a descriptor passes the same `edgeTriggered` (an update
    /// replaces the registration's flags).
    package func update(_ fd: Int32, from old: PollInterest, to new: PollInterest, edgeTriggered: Bool) throws(SystemError) {
        guard old != new else { return }
        try set.update(fd, from: old, to: new, edgeTriggered: edgeTriggered)
    }

    /// True when descriptors updated with `edgeTriggered` are reported by edge (epoll); the
    /// `poll(2)` backend is level-triggered whatever the update asks.
    package var edgeTriggered: Bool { backend == .epoll }

    /// `fd` is about to be closed: stop watching it. (epoll forgets a closed descriptor by
    /// itself; `poll` would report `POLLNVAL` for it, or watch a new one that reuses the number.)
    package func forget(_ fd: Int32) { set.forget(fd) }

    /// Waits for readiness (or a wake-up) at most `timeoutMilliseconds` (-1: forever) and
    /// replaces `events` with what is ready. Wake-ups are consumed and not reported.
    package func wait(timeoutMilliseconds: Int32, into events: inout [PollEvent]) throws(SystemError) {
        events.removeAll(keepingCapacity: true)
        try set.wait(timeoutMilliseconds: timeoutMilliseconds, into: &events)
    }
}
