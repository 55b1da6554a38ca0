/// Commands from other threads (``ServerControl``): refuse, listen again, stop.
extension ServerLoop {
    func perform(_ command: ServerCommand) {
        switch command {
        case .refuse(let done):
            closeListener()
            for connection in Array(connections.values) { destroy(connection) }
            done.signal()
        case .listen(let port, let outcome, let done):
            if !stopping && listener < 0 {
                do {
                    listener = try Sockets.listen(host: configuration.host, port: port, portable: poller.backend.usesPortableSockets).fd
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
}
