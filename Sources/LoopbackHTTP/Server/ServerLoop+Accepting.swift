#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Admission: accepting new clients, backing off when out of slots or descriptors, and
/// choosing which idle connections make room at `maxConnections`.
extension ServerLoop {
    /// Accepts up to 64 waiting clients per turn. At `maxConnections` each is admitted by
    /// closing a connection idle the longest, all of them found in one pass over the
    /// connections (one admission per turn, each scanning every connection, would leave a
    /// new client seconds behind a queue of connects at 4,096 connections).
    func acceptConnections() {
        var evictable: [ServerConnection]?  // the longest idle last
        for _ in 0..<64 {
            let full = connections.count >= configuration.maxConnections
            if full && evictable == nil { evictable = longestIdleConnections(limit: 64) }
            guard !full || evictable?.isEmpty == false else {
                // Every slot is busy: retry shortly (and whenever a connection closes).
                backOffAccepting()
                return
            }
            let fd: Int32
            do {
                guard let accepted = try Sockets.accept(listener, portable: poller.backend.usesPortableSockets) else { return }
                fd = accepted
            } catch {
                if error.errno == EMFILE || error.errno == ENFILE {
                    if evictable == nil { evictable = longestIdleConnections(limit: 64) }
                    if let oldest = evictable?.popLast() {
                        destroy(oldest)
                        continue
                    }
                }
                // Out of descriptors or memory: back off briefly instead of spinning.
                backOffAccepting()
                return
            }
            // Accepted before closing one for it, so nobody is closed for a client that left.
            if full, let oldest = evictable?.popLast() { destroy(oldest) }
            let connection = ServerConnection(fd: fd, id: nextConnectionID, configuration: configuration)
            connection.acceptedInTurn = turn
            connection.lastTrafficTurn = turn
            nextConnectionID &+= 1
            do {
                try poller.update(fd, from: .none, to: .readable, edgeTriggered: true)
            } catch {
                closeDescriptor(fd)
                continue
            }
            connection.interest = .readable
            connections[fd] = connection
            control.updateCounters { $0.openConnections += 1; $0.acceptedConnections += 1 }
            updateDeadline(connection)
        }
    }

    func backOffAccepting() {
        setListenerInterest(.none)
        acceptBackoff = true
        timers.schedule(at: TimerQueue<TimerEvent>.now &+ 100_000_000, .resumeAccepting)
    }

    /// Under connection pressure (`maxConnections` reached, or out of descriptors), the
    /// connections to close to admit new ones: up to `limit` of those idle the longest —
    /// nothing in flight, nothing to write, not accepted this turn — the longest idle last,
    /// found in one pass, as nginx reuses idle keep-alive connections. Empty when every
    /// connection is busy.
    func longestIdleConnections(limit: Int) -> [ServerConnection] {
        // Sorted by (last traffic, id): ties (accepted or served in the same turn) go to
        // the one accepted first.
        var oldest: [ServerConnection] = []
        oldest.reserveCapacity(limit + 1)
        func key(_ connection: ServerConnection) -> (UInt64, UInt64) { (connection.lastTrafficTurn, connection.id) }
        for connection in connections.values where connection.acceptedInTurn != turn {
            let done = connection.lingering
                || connection.activity == .idle && connection.pendingOutput == 0 && connection.deferredActions.isEmpty
                    && connection.hungStreams == 0 && connection.pendingDelays == 0
            guard done else { continue }
            if oldest.count >= limit, let last = oldest.last, key(last) < key(connection) { continue }
            var low = 0, high = oldest.count
            while low < high {
                let middle = (low + high) / 2
                if key(oldest[middle]) < key(connection) { low = middle + 1 } else { high = middle }
            }
            oldest.insert(connection, at: low)
            if oldest.count > limit { oldest.removeLast() }
        }
        return oldest.reversed()
    }

    /// Stops listening and closes the listener (stop, offline, a failed poll registration).
    func closeListener() {
        guard listener >= 0 else { return }
        poller.forget(listener)
        Sockets.stopListening(listener)
        closeDescriptor(listener)
        listener = -1
        listenerInterest = .none
    }
}
