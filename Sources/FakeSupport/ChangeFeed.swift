import PushCore

/// A fake's change counter, read by the admin API's `GET /events` stream: the fake calls
/// ``note()`` when its state changes outside a journaled request (faults, devices online,
/// reset); a journaled request already moves the fake's journal sequence, which the stream
/// reads too, so the request path pays nothing for it.
///
/// One lock and one counter: ``note()`` never calls out, wakes nobody and allocates nothing.
/// The stream polls it (with the sequence) every 50 ms, and only while a page is subscribed.
package final class ChangeFeed: Sendable {
    private let count = Locked<UInt64>(0)

    /// A feed that has seen no change.
    package init() {}

    /// The fake's state changed.
    package func note() { count.withLock { $0 &+= 1 } }

    /// Changes noted so far.
    package var revision: UInt64 { count.withLock { $0 } }
}

/// One fake as `GET /events` sees it: its name in the events (`backend`, `apns`), its
/// ``ChangeFeed`` and its latest journal sequence.
package struct AdminEventSource: Sendable {
    /// `backend` or `apns`: the `source` of its change events and its key in `hello`.
    package var name: String
    /// Noted on state changes that journal nothing.
    package var changes: ChangeFeed
    /// The sequence of the fake's latest journal entry (0 before the first).
    package var latestSequence: @Sendable () -> UInt64

    /// A source named `name`.
    package init(name: String, changes: ChangeFeed, latestSequence: @escaping @Sendable () -> UInt64) {
        self.name = name
        self.changes = changes
        self.latestSequence = latestSequence
    }

    /// What a change event compares: the feed's revision and the journal's sequence.
    var mark: Mark { Mark(revision: changes.revision, sequence: latestSequence()) }

    struct Mark: Equatable {
        var revision: UInt64
        var sequence: UInt64
    }
}

extension AdminAPI.Route {
    /// The route that makes `source` part of the admin API's `GET /events` stream: a fake
    /// lists it among its admin routes, and ``AdminAPI/add(_:)`` merges every fake's source
    /// into the one `GET /events` route.
    package static func events(_ source: AdminEventSource) -> AdminAPI.Route {
        var route = AdminAPI.Route(method: "GET", path: "/events", summary: AdminEventHub.summary) { _ in
            AdminAPI.problem(status: 404, detail: "No event stream: this admin API has no fake.")
        }
        route.eventSource = source
        return route
    }
}
