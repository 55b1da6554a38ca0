/// The process-wide bound on output held for peers that do not read (``HeldOutputBudget``)
/// as the loop applies it: each connection's held bytes are charged when they change (a
/// response written at once changes nothing, so the request path takes no lock), and past
/// the limit the connections whose held output stalled the longest are closed.
extension ServerLoop {
    /// Brings the connection's charge up to date; past the budget, sheds stalled output.
    func chargeHeldOutput(_ connection: ServerConnection) {
        let held = heldOutputBytes(connection)
        guard held != connection.chargedOutputBytes else { return }
        let exceeded = configuration.heldOutputBudget.adjust(by: held - connection.chargedOutputBytes)
        connection.chargedOutputBytes = held
        if exceeded { shedStalledOutput() }
    }

    /// Closes this loop's connections holding output, the longest stalled first (no write
    /// progress for the longest time), until the budget is met or none is left. A
    /// connection that is writing right now is stalled the least and goes last.
    func shedStalledOutput() {
        let holding = connections.values.filter { $0.chargedOutputBytes > 0 }
            .sorted { ($0.lastWriteProgress, $0.id) < ($1.lastWriteProgress, $1.id) }
        for connection in holding {
            guard configuration.heldOutputBudget.isExceeded else { return }
            configuration.heldOutputBudget.noteEnforced()
            destroy(connection, reset: true)
        }
    }

    /// The connection is gone: its held output goes back to the budget.
    func releaseHeldOutput(of connection: ServerConnection) {
        _ = configuration.heldOutputBudget.adjust(by: -connection.chargedOutputBytes)
        connection.chargedOutputBytes = 0
    }
}
