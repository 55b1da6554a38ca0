/// The codec's calls as the loop makes them: each passes what the codec appended to
/// `actions` through the TLS stage, if the connection has one (sealed writes, tagged
/// requests, close_notify before a close).
extension ServerConnection {
    /// What the connection is doing, for timeouts: the codec's activity, or the TLS
    /// stage's while its handshake or a record is unfinished.
    var activity: ConnectionActivity {
        let codecActivity = codec.activity
        guard isTLS else { return codecActivity }
        return tls?.activity(behind: codecActivity) ?? codecActivity
    }

    /// The handler's answer, already past the shell's delay (see ``AnyConnectionCodec/deliver(_:stream:into:)``).
    func deliver(_ response: HTTPResponse, stream: UInt32, into actions: inout [ConnectionAction]) {
        throughTLS(&actions) { codec, actions in codec.deliver(response, stream: stream, into: &actions) }
    }

    /// The peer closed its side (read returned 0).
    func peerClosed(into actions: inout [ConnectionAction]) {
        throughTLS(&actions) { codec, actions in codec.peerClosed(into: &actions) }
    }

    /// The server is stopping, or the connection refused a body: finish and close.
    func shutdown(into actions: inout [ConnectionAction]) {
        throughTLS(&actions) { codec, actions in codec.shutdown(into: &actions) }
    }

    /// The idle or request timeout fired.
    func timedOut(into actions: inout [ConnectionAction]) {
        throughTLS(&actions) { codec, actions in codec.timedOut(into: &actions) }
    }

    /// HTTP/2: resets the streams whose response made no progress since `cutoff`.
    func resetStalledSends(madeNoProgressSince cutoff: UInt64, into actions: inout [ConnectionAction]) {
        throughTLS(&actions) { codec, actions in codec.resetStalledSends(madeNoProgressSince: cutoff, into: &actions) }
    }

    /// HTTP/2: resets one stream whose response waits for window (the held-output budget).
    func resetStalledSend(_ stream: UInt32, into actions: inout [ConnectionAction]) {
        throughTLS(&actions) { codec, actions in codec.resetStalledSend(stream, into: &actions) }
    }

    /// HTTP/2: refuses a request no handler has seen (RST_STREAM REFUSED_STREAM).
    func refuseRequest(_ stream: UInt32, into actions: inout [ConnectionAction]) {
        throughTLS(&actions) { codec, actions in codec.refuseRequest(stream, into: &actions) }
    }

    /// Runs one codec call, then seals what it appended to `actions` if the connection has a
    /// TLS stage (on a plain port: one nil check).
    @inline(__always)
    private func throughTLS(_ actions: inout [ConnectionAction],
                            _ call: (inout AnyConnectionCodec, inout [ConnectionAction]) -> Void) {
        let start = actions.count
        call(&codec, &actions)
        if isTLS { tls?.protect(&actions, from: start) }
    }
}
