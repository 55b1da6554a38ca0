#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The event loop of one ``HTTPServer``: accepts, reads, runs codecs and the handler,
/// writes, and enforces timeouts. Created on, and confined to, the server's loop thread.
///
/// Its stored properties opt out of dynamic exclusivity checks (`@exclusivity(unchecked)`):
/// only the loop thread touches them, and the checks cost more per request than parsing it.
final class ServerLoop {
    enum TimerEvent {
        case connectionCheck(fd: Int32, id: UInt64)
        case delayedResponse(fd: Int32, id: UInt64, stream: UInt32, response: HTTPResponse)
        case resumeAccepting
        case stopGraceElapsed
    }

    let configuration: HTTPServerConfiguration
    let handler: HTTPHandler
    let control: ServerControl
    let poller: EventPoller
    @exclusivity(unchecked) var listener: Int32
    @exclusivity(unchecked) var heldPort: Int32 = -1  // bound to the port, not listening, while refusing
    @exclusivity(unchecked) var listenerInterest: PollInterest = .none
    @exclusivity(unchecked) var acceptBackoff = false
    @exclusivity(unchecked) var connections = ConnectionTable()
    @exclusivity(unchecked) var timers = TimerQueue<TimerEvent>()
    @exclusivity(unchecked) var nextConnectionID: UInt64 = 1
    @exclusivity(unchecked) var events: [PollEvent] = []
    /// An empty action list with capacity, reused from one read to the next (see ``run(_:on:)``).
    @exclusivity(unchecked) var spareActions: [ConnectionAction] = []
    let readBuffer: UnsafeMutableRawBufferPointer
    @exclusivity(unchecked) var stopping = false
    /// Buffer bytes dropped since freed memory was last returned (``releaseFreedMemory()``).
    @exclusivity(unchecked) var releasedSinceTrim = 0
    /// Counts poller wake-ups, to tell events of a fresh connection from stale ones.
    @exclusivity(unchecked) var turn: UInt64 = 0
    /// Connections whose requests wait for the next turn (``maxDispatchesPerTurn`` reached).
    @exclusivity(unchecked) var resumeNextTurn: [ServerConnection] = []
    /// Connections whose answers are written once every event of the turn is handled
    /// (``flushAtTurnEndOrNow(_:)``), and whether the turn's events are being handled.
    @exclusivity(unchecked) var collectedFlushes: [ConnectionMark] = []
    @exclusivity(unchecked) var collectedCount = 0
    @exclusivity(unchecked) var collectingFlushes = false
    /// Connections whose last read filled ``readBuffer`` or stopped at a reported end, read
    /// again next turn: an edge-triggered poller reports no more until new bytes come
    /// (``readLeftovers()``).
    @exclusivity(unchecked) var unreadLeft: [ConnectionMark] = []
    /// Held output is being shed (``shedStalledOutput()``): charges made meanwhile do not shed again.
    @exclusivity(unchecked) var sheddingHeldOutput = false
    /// Monotonic now (nanoseconds) as last read: at the top of each turn, when the poller
    /// returns, and after every handler call (the only code of a turn that may take long), so
    /// deadlines set from it are as late as from a fresh read while a request costs one read,
    /// not one per deadline, write and timer check (see ``refreshClock()``).
    @exclusivity(unchecked) var clock: UInt64 = 0
    /// Seconds → nanoseconds, saturating so a huge configured timeout cannot trap.
    static func nanoseconds(_ seconds: Double) -> UInt64 {
        guard seconds > 0 else { return 0 }
        return seconds >= 1e9 ? UInt64(1e18) : UInt64(seconds * 1e9)
    }
    let idleNanos: UInt64
    let requestNanos: UInt64
    let lingerNanos: UInt64

    init(configuration: HTTPServerConfiguration, handler: @escaping HTTPHandler, control: ServerControl, poller: EventPoller, listener: Int32) {
        self.configuration = configuration
        self.handler = handler
        self.control = control
        self.poller = poller
        self.listener = listener
        readBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
        idleNanos = Self.nanoseconds(configuration.idleTimeout)
        requestNanos = Self.nanoseconds(configuration.requestTimeout)
        lingerNanos = Self.nanoseconds(min(2, max(0.05, configuration.requestTimeout)))
    }

    /// Runs until stopped; on return every socket and the poller are closed.
    func run() {
        setListenerInterest(.readable)
        while true {
            refreshClock()
            for command in control.takeCommands() { perform(command) }
            if fireTimers() { refreshClock() }
            // Stopping: done once every response is out (a connection that is only
            // lingering for the peer's FIN has nothing left to deliver).
            if stopping && connections.values.allSatisfy(\.lingering) { break }
            let timeout = resumeNextTurn.isEmpty && unreadLeft.isEmpty ? timers.pollTimeout(now: clock) : 0
            do {
                try poller.wait(timeoutMilliseconds: timeout, into: &events)
            } catch {
                break
            }
            refreshClock()
            turn &+= 1
            collectingFlushes = events.count > 1  // one event: nothing to write together
            for event in events { handle(event) }
            readLeftovers()
            flushCollected()
            resumeDeferredDispatches()
            releaseFreedMemory()
        }
        for command in control.markLoopExited() {
            switch command {
            case .refuse(let done): done.signal()
            case .listen(_, let outcome, let done):
                outcome.withLock { $0 = SystemError(operation: "listen after stop", errno: EBADF) }
                done.signal()
            case .stop, .pumpStream: break
            }
        }
        closeListener()
        releaseHeldPort()
        for connection in Array(connections.values) { destroy(connection) }
        poller.close()
        readBuffer.deallocate()
    }

    // MARK: - Events

    func handle(_ event: PollEvent) {
        if event.fd == listener && listener >= 0 {
            acceptConnections()
            return
        }
        // A connection accepted during this turn may have inherited the descriptor number
        // of one closed earlier in the turn; the stale event is not its own.
        guard let connection = connections[event.fd], connection.acceptedInTurn != turn else { return }
        if event.endReported { connection.endReported = true }
        if event.readable || event.failed { read(connection) }
        guard connections[event.fd] === connection else { return }
        if event.writable { flushAndSettle(connection) }
        if event.failed && !event.readable && connections[event.fd] === connection { destroy(connection) }
    }

    // MARK: - Actions

    /// Performs a codec's actions in order; dispatches run the handler, whose answer may
    /// append further actions to the same list.
    func run(_ initial: consuming [ConnectionAction], on connection: ServerConnection, flushAtTurnEnd: Bool = false) {
        var actions = initial
        defer { keepSpare(&actions) }
        let framesGoFirst = defersOnlyRequests(connection)
        if !connection.deferredActions.isEmpty && !framesGoFirst {
            // Keep order: new actions queue behind the ones held back by backpressure.
            connection.deferredActions.append(contentsOf: actions)
            flushAndSettle(connection)
            return
        }
        var index = 0
        processing: while index < actions.count {
            // Moved out, not copied: a request's Strings and arrays are not retained here
            // and released again when the list is emptied.
            var action = ConnectionAction.close
            swap(&action, &actions[index])
            index += 1
            switch consume action {
            case .write(let bytes):
                if !connection.closeWhenFlushed { connection.enqueue(bytes) }
            case .dispatch(var request, let stream):
                let turnSpent = dispatchTurnSpent(connection)
                if framesGoFirst && (heldOutputBytes(connection) > configuration.maxPendingOutputBytes || isMarkedStalled(connection)) {
                    // HTTP/2, stalled: refused (REFUSED_STREAM, the client may retry), not queued.
                    connection.refuseRequest(stream, into: &actions)
                    continue processing
                }
                if framesGoFirst && (turnSpent || !connection.deferredActions.isEmpty) {
                    connection.deferredActions.append(.dispatch(request, stream: stream))  // HTTP/2: only requests wait, in order
                    continue processing
                }
                if turnSpent || heldOutputBytes(connection) > configuration.maxPendingOutputBytes {
                    // Backpressure: the peer is not reading (or, HTTP/2, not opening its
                    // windows). Run this request (and what follows) once its output has drained.
                    connection.deferredActions.append(.dispatch(request, stream: stream))
                    connection.deferredActions.append(contentsOf: actions[index...])
                    break processing
                }
                connection.completedRequest = true
                connection.dispatchesInTurn += 1
                let response = request.bodyLimitExceeded && !configuration.dispatchesOversizedRequests
                    ? HTTPResponse.bodyLimitExceeded(configuration.maxBodyBytes) : handler(request)
                refreshClock()
                if case .http1(let box) = connection.codec { box.codec.recycle(&request) }
                apply(response, stream: stream, on: connection, into: &actions)
            case .close:
                if case .open(let peerClosed) = connection.lifecycle {
                    connection.lifecycle = .closing(peerClosed: peerClosed, discarded: 0)
                }
            case .reset:
                destroy(connection, reset: true)
                return
            }
        }
        if flushAtTurnEnd { flushAtTurnEndOrNow(connection) } else { flushAndSettle(connection) }
    }

    /// Empties a finished action list and keeps it for the next read, so a request does
    /// not allocate one.
    private func keepSpare(_ actions: inout [ConnectionAction]) {
        guard actions.capacity <= 64, actions.capacity > spareActions.capacity else { return }
        // One by one from the end: a removal of the last element is specialised for this
        // type, where emptying the list destroys its elements through their type's metadata
        // (a read's list holds one to three actions).
        while !actions.isEmpty { actions.removeLast() }
        swap(&actions, &spareActions)
    }

    func apply(_ response: HTTPResponse, stream: UInt32, on connection: ServerConnection, into actions: inout [ConnectionAction]) {
        switch response.disposition {
        case .delay(let milliseconds):
            connection.pendingDelays += 1
            let clamped = UInt64(min(max(0, milliseconds), 86_400_000))
            var delayed = response
            delayed.disposition = .send
            timers.schedule(
                at: clock &+ clamped * 1_000_000,
                .delayedResponse(fd: connection.fd, id: connection.id, stream: stream, response: delayed))
        case .hang:
            connection.hungStreams += 1
        case .send, .goAway:
            guard case .http1(let box) = connection.codec, !connection.closeWhenFlushed, !connection.isTLS else {
                connection.deliver(response, stream: stream, into: &actions)
                return
            }
            // Plain HTTP/1.1 serialises straight into the connection's output buffer, which
            // keeps its capacity from one response to the next. (Every earlier action is
            // already performed: an HTTP/1.1 dispatch is the last action of its read.)
            var forceClose = false
            if case .goAway = response.disposition { forceClose = true }  // no GOAWAY in HTTP/1.1: close
            let wasIdle = connection.pendingOutput == 0
            if wasIdle && connection.outputStart > 0 {
                connection.output.removeAll(keepingCapacity: true)
                connection.outputStart = 0
            }
            box.codec.respond(response, stream: stream, forceClose: forceClose, writingTo: &connection.output, into: &actions)
            if wasIdle && connection.pendingOutput > 0 { connection.lastWriteProgress = clock }
        case .reset, .loseResponse:
            connection.deliver(response, stream: stream, into: &actions)
        case .stream(let body):
            startStream(body, head: response, stream: stream, on: connection, into: &actions)
        }
    }

    /// Writes what the socket takes, starts a graceful close once everything is out, and
    /// brings interest and deadline up to date.
    func flushAndSettle(_ connection: ServerConnection) {
        guard writeOutput(connection) else { return }
        if connection.responseStream != nil && connection.pendingOutput < ResponseStream.connectionLowWater {
            // A streamed body: take what the producer offered since, and write it too.
            guard pumpStream(connection), writeOutput(connection) else { return }
        }
        if connection.pendingOutput == 0 {
            if connection.output.count > 0 {
                connection.output.removeAll(keepingCapacity: connection.output.capacity <= 256 * 1024)
                connection.outputStart = 0
            }
            if case .closing(let peerClosed, let discarded) = connection.lifecycle {
                if peerClosed {
                    destroy(connection)
                    return
                }
                // Half-close and keep reading until the peer closes: closing with unread
                // input would send a reset that can destroy the response in flight.
                Sockets.shutdownWrite(connection.fd)
                connection.lifecycle = .lingering(discarded: discarded)
                connection.deadline = clock &+ lingerNanos
            }
        } else if connection.outputStart >= 1 << 20 && connection.outputStart * 2 >= connection.output.count {
            connection.output.removeSubrange(0..<connection.outputStart)
            connection.outputStart = 0
        }
        let pending = connection.pendingOutput
        if pending > configuration.maxPendingOutputBytes {
            connection.readPaused = true
        } else if connection.readPaused && pending <= configuration.maxPendingOutputBytes / 4 {
            connection.readPaused = false
        }
        if !connection.deferredActions.isEmpty && heldOutputBytes(connection) <= configuration.maxPendingOutputBytes / 4
            && !waitsForNextTurn(connection) {
            let deferred = connection.deferredActions
            connection.deferredActions = []
            run(deferred, on: connection)
            return
        }
        let wanted = PollInterest(
            read: !connection.readEOF && !connection.readPaused && (connection.deferredActions.isEmpty || readsWhileDeferred(connection)),
            write: pending > 0)
        if wanted != connection.interest {
            do {
                try poller.update(connection.fd, from: connection.interest, to: wanted, edgeTriggered: true)
                connection.interest = wanted
            } catch {
                destroy(connection)
                return
            }
        }
        chargeHeldOutput(connection)
        guard connections[connection.fd] === connection else { return }
        updateDeadline(connection)
    }

    // MARK: - Teardown

    func destroy(_ connection: ServerConnection, reset: Bool = false) {
        guard connections[connection.fd] === connection else { return }
        connections[connection.fd] = nil
        if let streaming = connection.responseStream {
            connection.responseStream = nil
            streaming.body.end(.clientGone)
        }
        noteReleased(connection.output.capacity + connection.codec.heldBufferBytes)
        releaseBufferedBodies(of: connection)
        releaseHeldOutput(of: connection)
        poller.forget(connection.fd)
        if reset {
            Sockets.resetAndClose(connection.fd)
        } else {
            closeDescriptor(connection.fd)
        }
        connection.interest = .none
        control.updateCounters { $0.openConnections -= 1 }
        if listener >= 0 && !stopping && !acceptBackoff && listenerInterest.isEmpty
            && connections.count < configuration.maxConnections {
            setListenerInterest(.readable)
        }
    }

    func setListenerInterest(_ interest: PollInterest) {
        guard listener >= 0, interest != listenerInterest else { return }
        do {
            try poller.update(listener, from: listenerInterest, to: interest, edgeTriggered: false)
            listenerInterest = interest
        } catch {
            closeListener()
        }
    }
}
