/// Commands from other threads (``ServerControl``): refuse, listen again, stop.
extension ServerLoop {
    func perform(_ command: ServerCommand) {
        switch command {
        case .refuse(let done):
            holdPortWhileRefusing()
            for connection in Array(connections.values) { destroy(connection) }
            done.signal()
        case .listen(let port, let outcome, let done):
            if !stopping && listener < 0 {
                do {
                    listener = try listenAgain(on: port)
                    setListenerInterest(.readable)
                } catch {
                    outcome.withLock { $0 = error }
                }
            }
            done.signal()
        case .stop:
            guard !stopping else { return }
            stopping = true
            closeListener()
            for connection in Array(connections.values) where connections[connection.fd] === connection {
                if connection.responseStream != nil {
                    endStreamForStop(connection)  // streams do not wait for the grace period
                    continue
                }
                if connection.hungStreams > 0 && connection.pendingDelays == 0 {
                    destroy(connection)  // a hung request will never be answered
                    continue
                }
                var actions: [ConnectionAction] = []
                connection.shutdown(into: &actions)
                run(actions, on: connection)
            }
            let grace = Self.nanoseconds(configuration.shutdownGracePeriod)
            timers.schedule(at: TimerQueue<TimerEvent>.now &+ grace, .stopGraceElapsed)
        case .pumpStream(let fd, let id):
            guard let connection = connections[fd], connection.id == id, connection.responseStream != nil else { return }
            flushAndSettle(connection)
        }
    }

    /// Closes the listener and keeps its port with a socket bound to it that does not listen
    /// (``Sockets/reserve(host:port:portable:)``): connections are refused as before, and no
    /// other socket on the machine is given the port meanwhile (another test's server or
    /// client, issue 41's CI run), so coming back online finds it free. When the port cannot
    /// be held, it is only closed, as before.
    func holdPortWhileRefusing() {
        guard listener >= 0 else { return }
        let port = try? Sockets.boundPort(listener)
        closeListener()
        guard let port else { return }
        heldPort = (try? Sockets.reserve(host: configuration.host, port: port, portable: poller.backend.usesPortableSockets)) ?? -1
    }

    /// A listener on `port` again: the held socket made to listen, else a new one.
    func listenAgain(on port: UInt16) throws(SystemError) -> Int32 {
        let held = heldPort
        heldPort = -1
        guard held >= 0 else { return try Sockets.listen(host: configuration.host, port: port, portable: poller.backend.usesPortableSockets).fd }
        do throws(SystemError) {
            try Sockets.startListening(held, host: configuration.host, port: port)
            return held
        } catch {
            closeDescriptor(held)  // taken meanwhile by an explicit bind; the next attempt binds anew
            throw error
        }
    }

    /// Frees a port held while refusing (when the loop ends).
    func releaseHeldPort() {
        guard heldPort >= 0 else { return }
        closeDescriptor(heldPort)
        heldPort = -1
    }
}
