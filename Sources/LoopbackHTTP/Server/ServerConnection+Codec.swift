/// The codec's calls as the loop makes them: each passes what the codec appended to
/// `actions` through the TLS stage, if the connection has one (sealed writes, tagged
/// requests, close_notify before a close).
extension ServerConnection {
    /// What the connection is doing, for timeouts: the codec's activity, or the TLS
    /// stage's while its handshake or a record is unfinished.
    var activity: ConnectionActivity {
        let codecActivity = codec.activity
        return tls?.activity(behind: codecActivity) ?? codecActivity
    }

    /// The handler's answer, already past the shell's delay (see ``AnyConnectionCodec/deliver(_:stream:into:)``).
    func deliver(_ response: HTTPResponse, stream: UInt32, into actions: inout [ConnectionAction]) {
        let start = actions.count
        codec.deliver(response, stream: stream, into: &actions)
        if tls != nil { tls!.protect(&actions, from: start) }
    }

    /// The peer closed its side (read returned 0).
    func peerClosed(into actions: inout [ConnectionAction]) {
        let start = actions.count
        codec.peerClosed(into: &actions)
        if tls != nil { tls!.protect(&actions, from: start) }
    }

    /// The server is stopping, or the connection refused a body: finish and close.
    func shutdown(into actions: inout [ConnectionAction]) {
        let start = actions.count
        codec.shutdown(into: &actions)
        if tls != nil { tls!.protect(&actions, from: start) }
    }

    /// The idle or request timeout fired.
    func timedOut(into actions: inout [ConnectionAction]) {
        let start = actions.count
        codec.timedOut(into: &actions)
        if tls != nil { tls!.protect(&actions, from: start) }
    }

    /// HTTP/2: resets the streams whose response made no progress since `cutoff`.
    func resetStalledSends(madeNoProgressSince cutoff: UInt64, into actions: inout [ConnectionAction]) {
        let start = actions.count
        codec.resetStalledSends(madeNoProgressSince: cutoff, into: &actions)
        if tls != nil { tls!.protect(&actions, from: start) }
    }
}
