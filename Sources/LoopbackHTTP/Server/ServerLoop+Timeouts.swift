/// Timeouts (idle, request, linger) and the timer events of the loop.
///
/// A connection has at most one deadline at a time, chosen from its codec's activity; the
/// heap holds at most one check per connection that is earlier than any later deadline,
/// so a busy keep-alive connection does not grow the heap per request.
extension ServerLoop {
    /// Reads the monotonic clock into ``clock``.
    @inline(__always)
    func refreshClock() {
        clock = TimerQueue<TimerEvent>.now
    }

    func updateDeadline(_ connection: ServerConnection) {
        let now = clock
        if !connection.lingering {
            let activity = connection.activity
            let changed = connection.lastActivity != activity || connection.deadline == nil
            switch activity {
            case .idle:
                // Idleness is time without traffic: any byte read or written restarts it
                // (a request answered within one read never shows a non-idle state).
                if changed || connection.movedBytes { connection.deadline = now &+ idleNanos }
            case .readingRequest:
                // From a request's first byte, not extended by later bytes (slowloris), but
                // restarted when a request completes while others are still arriving.
                if changed || connection.completedRequest { connection.deadline = now &+ requestNanos }
            case .awaitingResponse:
                // Requests in flight are never idle; only output the peer does not read is.
                if connection.pendingOutput == 0 {
                    connection.deadline = nil
                } else if changed || connection.movedBytes {
                    connection.deadline = now &+ idleNanos
                }
            }
            connection.lastActivity = activity
            connection.movedBytes = false
            connection.completedRequest = false
            // The send deadline: output the peer does not take, or an HTTP/2 response
            // waiting for a window that does not open, gets the request timeout to progress.
            let sendStart = connection.pendingOutput > 0 ? connection.lastWriteProgress : connection.codec.oldestStalledSend
            connection.sendDeadline = sendStart.map { $0 &+ requestNanos }
        } else {
            connection.sendDeadline = nil
        }
        scheduleCheck(connection)
    }

    /// Queues a check at the earlier of the connection's deadlines, unless one is queued sooner.
    func scheduleCheck(_ connection: ServerConnection) {
        var earliest = connection.deadline
        if let send = connection.sendDeadline, earliest.map({ send < $0 }) ?? true { earliest = send }
        guard let deadline = earliest else { return }
        if let scheduled = connection.scheduledCheck, scheduled <= deadline { return }
        connection.scheduledCheck = deadline
        timers.schedule(at: deadline, .connectionCheck(fd: connection.fd, id: connection.id))
    }

    /// Handles every timer event due at ``clock``; true when there was one (time has passed).
    @discardableResult
    func fireTimers() -> Bool {
        var fired = false
        while let event = timers.popDue(now: clock) {
            fired = true
            switch event {
            case .connectionCheck(let fd, let id):
                guard let connection = connections[fd], connection.id == id else { continue }
                connection.scheduledCheck = nil
                checkDeadline(connection)
            case .delayedResponse(let fd, let id, let stream, let response):
                guard let connection = connections[fd], connection.id == id else { continue }
                connection.pendingDelays -= 1
                var actions: [ConnectionAction] = []
                connection.deliver(response, stream: stream, into: &actions)
                run(actions, on: connection)
            case .resumeAccepting:
                acceptBackoff = false
                if listener >= 0 && !stopping { setListenerInterest(.readable) }
            case .stopGraceElapsed:
                for connection in Array(connections.values) { destroy(connection) }
            }
        }
        return fired
    }

    func checkDeadline(_ connection: ServerConnection) {
        let now = clock
        if let send = connection.sendDeadline, now >= send {
            connection.sendDeadline = nil
            if connection.pendingOutput > 0 {
                destroy(connection)  // the peer took nothing for the request timeout
                return
            }
            var actions: [ConnectionAction] = []
            let held = connection.codec.heldBufferBytes
            connection.resetStalledSends(madeNoProgressSince: now &- requestNanos, into: &actions)
            noteReleased(held - connection.codec.heldBufferBytes)
            run(actions, on: connection)
            guard connections[connection.fd] === connection else { return }
        }
        guard let deadline = connection.deadline, now >= deadline else {
            scheduleCheck(connection)
            return
        }
        if connection.lingering || connection.pendingOutput > 0 {
            destroy(connection)  // the peer stopped reading, or never closed after our FIN
            return
        }
        connection.deadline = nil
        var actions: [ConnectionAction] = []
        connection.timedOut(into: &actions)
        run(actions, on: connection)
    }
}
