/// What the loop asks of a connection holding too much output: reset the responses that
/// wait for window the longest (``HeldOutputBudget``), and refuse new requests while the
/// connection is over `maxPendingOutputBytes`.
extension HTTP2Connection {
    /// The streams whose response DATA waits for flow-control window, with when each last
    /// made progress (sent DATA, or was queued).
    package var stalledSends: [(stream: UInt32, since: UInt64)] {
        sendQueue.compactMap { id in streams[id].map { (stream: id, since: $0.lastSendProgress) } }
    }

    /// Resets one stream whose response waits for window (RST_STREAM CANCEL, as the send
    /// deadline does): its queued DATA is dropped, DATA the client still sends on it is
    /// credited and ignored, the connection stays.
    package mutating func resetStalledSend(_ stream: UInt32, into actions: inout [ConnectionAction]) {
        guard phase != .closed, streams[stream]?.state == .sending else { return }
        resetStream(stream, .cancel)
        finishIfDrained()
        flush(into: &actions)
    }

    /// Refuses a request no handler has seen with RST_STREAM REFUSED_STREAM (RFC 9113 §8.7:
    /// the client may retry it). Not charged to the reset budget: the server chose it.
    package mutating func refuseRequest(_ stream: UInt32, into actions: inout [ConnectionAction]) {
        guard phase != .closed, streams[stream] != nil else { return }
        resetStream(stream, .refusedStream)
        finishIfDrained()
        flush(into: &actions)
    }
}
