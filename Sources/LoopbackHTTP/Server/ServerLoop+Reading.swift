/// Reading: one read per connection per turn, and what is left of it.
///
/// On Linux the loop's connections are registered with epoll edge-triggered (`EPOLLET`): a
/// descriptor is reported once when bytes arrive, not again at every wait while they stay
/// unread, so a wait looks only at what changed (level-triggered, epoll puts every reported
/// descriptor back on its ready list and polls it again at the next wait, ready or not: a
/// socket poll per connection per turn). The price is that what is left unread is not
/// reported again: a read that fills ``ServerLoop/readBuffer`` lists its connection, and
/// the next turn reads it without waiting (``readLeftovers()``); so does a read that returns
/// bytes after the peer's end (FIN), a hang-up or an error was reported, since a read stops
/// at the end and only the next one returns 0 or the error. A connection whose reads
/// are paused is registered again for reading when they resume, which reports bytes already
/// there. The `poll(2)` loop (Darwin's) stays level-triggered and lists nothing.
extension ServerLoop {
    /// One read (at most 64 KiB) per readable connection per turn, so one busy connection
    /// cannot hold the loop while others wait; what is left is read next turn (reported by a
    /// level-triggered poller, listed by this read for an edge-triggered one).
    func read(_ connection: ServerConnection) {
        connection.lastReadTurn = turn
        let count: Int
        do {
            guard let read = try Sockets.read(connection.fd, into: readBuffer) else {
                connection.hasUnreadBytes = false  // nothing left: the next bytes are an edge
                return
            }
            count = read
        } catch {
            destroy(connection)  // ECONNRESET and friends: the peer is gone
            return
        }
        noteLeftovers(of: connection, read: count)
        if count == 0 {
            if connection.responseStream != nil {
                destroy(connection)  // a streamed body is for a client that listens: it left
                return
            }
            switch connection.lifecycle {
            case .open:
                connection.lifecycle = .open(peerClosed: true)
            case .closing(_, let discarded) where connection.pendingOutput > 0:
                connection.lifecycle = .closing(peerClosed: true, discarded: discarded)
            case .closing, .lingering:
                destroy(connection)
                return
            }
            var actions: [ConnectionAction] = []
            connection.peerClosed(into: &actions)
            run(actions, on: connection)
            if connections[connection.fd] === connection, connection.hungStreams > 0,
               connection.pendingDelays == 0, connection.pendingOutput == 0 {
                // Only hung requests are left and the peer has given up: nothing will
                // ever be written, so do not hold the descriptor until stop().
                destroy(connection)
            }
            return
        }
        connection.movedBytes = true
        connection.lastTrafficTurn = turn
        switch connection.lifecycle {
        case .open:
            break
        case .closing(let peerClosed, let discarded):
            connection.lifecycle = .closing(peerClosed: peerClosed, discarded: discarded + count)
            if discarded + count > 64 * 1024 * 1024 { destroy(connection) }
            return
        case .lingering(let discarded):
            connection.lifecycle = .lingering(discarded: discarded + count)
            if discarded + count > 64 * 1024 * 1024 { destroy(connection) }
            return
        }
        var actions: [ConnectionAction] = []
        swap(&actions, &spareActions)
        let bytes = UnsafeRawBufferPointer(rebasing: readBuffer[0..<count])
        if connection.isTLS {
            // HTTP/1.1 bodies behind TLS are not charged to the body budget (the 503 would
            // have to be sealed); their per-connection limit still bounds them.
            connection.tls?.receive(bytes, codec: &connection.codec, into: &actions)
        } else {
            connection.codec.receive(bytes, into: &actions)
            if !chargeBufferedBody(connection) { refuseBody(on: connection, into: &actions) }
        }
        run(consume actions, on: connection, flushAtTurnEnd: true)  // unique: run() edits the list in place
    }

    /// After a read of `count` bytes (0: end of stream): with an edge-triggered poller, a
    /// read that filled the buffer, or that returned bytes after the peer's end was reported,
    /// lists the connection to be read next turn.
    @inline(__always)
    func noteLeftovers(of connection: ServerConnection, read count: Int) {
        guard count == readBuffer.count || (count > 0 && connection.endReported), poller.edgeTriggered else {
            connection.hasUnreadBytes = false
            return
        }
        guard !connection.hasUnreadBytes else { return }  // listed already
        connection.hasUnreadBytes = true
        unreadLeft.append(ConnectionMark(fd: connection.fd, id: connection.id))
    }

    /// Reads each listed connection whose last read left something (``noteLeftovers(of:read:)``)
    /// and that was not read this turn (new bytes reported it); one read each, as for a
    /// reported connection.
    func readLeftovers() {
        guard !unreadLeft.isEmpty else { return }
        var marks: [ConnectionMark] = []
        swap(&marks, &unreadLeft)
        for mark in marks {
            guard let connection = connections[mark.fd], connection.id == mark.id, connection.hasUnreadBytes else { continue }
            if connection.lastReadTurn == turn {
                unreadLeft.append(mark)  // read this turn already, and still full: next turn
                continue
            }
            connection.hasUnreadBytes = false
            // Paused or at its end: registering for reads again reports what is there.
            guard connection.interest.read else { continue }
            read(connection)
        }
    }
}
