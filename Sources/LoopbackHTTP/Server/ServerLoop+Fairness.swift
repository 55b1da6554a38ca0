/// Fairness between connections: at most `maxDispatchesPerTurn` requests from one
/// connection per loop turn. The rest wait in the connection's deferred actions (HTTP/1.1
/// stops reading meanwhile; HTTP/2 keeps reading frames, only its requests wait) and run at
/// the next turn, after the events of every other ready connection. Without it one 64 KiB
/// read of ~2,500 tiny pipelined requests ran the handler 2,500 times before a neighbour's
/// request was read.
extension ServerLoop {
    /// True when `connection` has used this turn's dispatches. A first dispatch in a new
    /// turn starts the count again.
    func dispatchTurnSpent(_ connection: ServerConnection) -> Bool {
        if connection.dispatchTurn != turn {
            connection.dispatchTurn = turn
            connection.dispatchesInTurn = 0
            return false
        }
        return connection.dispatchesInTurn >= configuration.maxDispatchesPerTurn
    }

    /// True (and the connection queued for the next turn) when its deferred requests must
    /// wait for the next turn rather than run now.
    func waitsForNextTurn(_ connection: ServerConnection) -> Bool {
        guard connection.dispatchTurn == turn, connection.dispatchesInTurn >= configuration.maxDispatchesPerTurn else { return false }
        if !connection.awaitingNextTurn {
            connection.awaitingNextTurn = true
            resumeNextTurn.append(connection)
        }
        return true
    }

    /// Runs the requests held back in the previous turn (the loop polled without waiting,
    /// so the other connections' events of this turn came first).
    func resumeDeferredDispatches() {
        guard !resumeNextTurn.isEmpty else { return }
        let waiting = resumeNextTurn
        resumeNextTurn = []
        for connection in waiting {
            connection.awaitingNextTurn = false
            guard connections[connection.fd] === connection else { continue }
            flushAndSettle(connection)
        }
    }
}
