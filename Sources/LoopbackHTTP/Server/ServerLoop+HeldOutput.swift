/// The process-wide bound on output held for peers that do not read (``HeldOutputBudget``)
/// as the loop applies it: each connection's held bytes are charged when they change (a
/// response written at once changes nothing, so the request path takes no lock), and past
/// the limit the HTTP/2 streams whose answers waited for window the longest are reset, then,
/// if that is not enough, the connections whose held output stalled the longest are closed.
extension ServerLoop {
    /// Brings the connection's charge up to date; past the budget, sheds stalled output.
    func chargeHeldOutput(_ connection: ServerConnection) {
        let held = heldOutputBytes(connection)
        guard held != connection.chargedOutputBytes else { return }
        let exceeded = configuration.heldOutputBudget.adjust(by: held - connection.chargedOutputBytes)
        connection.chargedOutputBytes = held
        if exceeded && !sheddingHeldOutput { shedStalledOutput() }
    }

    /// Brings the budget back under its limit: stalled streams first, whole connections last.
    func shedStalledOutput() {
        sheddingHeldOutput = true
        defer { sheddingHeldOutput = false }
        resetStalledStreams()
        closeStalledConnections()
    }

    /// Resets (RST_STREAM CANCEL) this loop's HTTP/2 streams whose response waits for
    /// window, the one with no progress for the longest first, until the budget is met.
    /// Each connection stays open and its other streams go on; a stream's dropped DATA
    /// leaves the budget as the loop settles the connection.
    func resetStalledStreams() {
        var stalled: [(since: UInt64, id: UInt64, stream: UInt32, connection: ServerConnection)] = []
        for connection in connections.values where connection.chargedOutputBytes > 0 {
            for send in connection.codec.stalledSends { stalled.append((send.since, connection.id, send.stream, connection)) }
        }
        guard !stalled.isEmpty else { return }
        stalled.sort { ($0.since, $0.id, $0.stream) < ($1.since, $1.id, $1.stream) }
        let budget = configuration.heldOutputBudget
        for entry in stalled {
            guard budget.isExceeded else { return }
            let connection = entry.connection
            guard connections[connection.fd] === connection else { continue }
            var actions: [ConnectionAction] = []
            let held = connection.codec.heldBufferBytes
            connection.resetStalledSend(entry.stream, into: &actions)
            noteReleased(held - connection.codec.heldBufferBytes)
            budget.noteStreamReset()
            connection.budgetStalledAtGrants = connection.codec.windowGrants
            run(actions, on: connection)  // writes the RST_STREAM, charges what is left
        }
    }

    /// Closes this loop's connections holding output, the longest stalled first (no write
    /// progress for the longest time), until the budget is met or none is left: output the
    /// peer does not read from the socket (HTTP/1.1, whose answer cannot be reset without
    /// closing, or an HTTP/2 peer that reads nothing). A connection that is writing right
    /// now is stalled the least and goes last.
    func closeStalledConnections() {
        let holding = connections.values.filter { $0.chargedOutputBytes > 0 }
            .sorted { ($0.lastWriteProgress, $0.id) < ($1.lastWriteProgress, $1.id) }
        for connection in holding {
            guard configuration.heldOutputBudget.isExceeded else { return }
            configuration.heldOutputBudget.noteEnforced()
            destroy(connection, reset: true)
        }
    }

    /// HTTP/2: true while the budget's mark on the connection holds (it reset a stream and
    /// the peer has opened no window since); new requests on it are refused.
    func isMarkedStalled(_ connection: ServerConnection) -> Bool {
        guard let mark = connection.budgetStalledAtGrants else { return false }
        if mark == connection.codec.windowGrants { return true }
        connection.budgetStalledAtGrants = nil
        return false
    }

    /// The connection is gone: its held output goes back to the budget.
    func releaseHeldOutput(of connection: ServerConnection) {
        _ = configuration.heldOutputBudget.adjust(by: -connection.chargedOutputBytes)
        connection.chargedOutputBytes = 0
    }
}
