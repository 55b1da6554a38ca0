import PushCore
/// Response bytes held for peers that have not read them (unwritten socket output, and
/// HTTP/2 DATA waiting for flow-control window) across every connection of every server
/// that shares this budget; ``shared`` is the process's.
///
/// `maxPendingOutputBytes` bounds one connection; the damage adds up across connections:
/// 200 HTTP/2 connections × 100 zero-window streams, each a 15 KB 404, held ~300 MB (issue
/// 27). Past `limit` the loop closes its connections whose held output stalled the longest
/// (nginx and nghttp2 reset such streams after their send timeouts; this does it at once).
package final class HeldOutputBudget: Sendable, Hashable {
    /// The budget every server uses unless its configuration names another.
    package static let shared = HeldOutputBudget(limit: 64 * 1024 * 1024)

    private struct State {
        var limit: Int
        var held = 0
        var peak = 0
        var connectionsClosed = 0
    }

    private let state: Locked<State>

    /// - Parameter limit: held bytes allowed at once across the servers that share it.
    package init(limit: Int) {
        state = Locked(State(limit: max(0, limit)))
    }

    /// Bytes allowed at once (64 MiB for ``shared``, as the request-body budget).
    package var limit: Int { state.withLock { $0.limit } }
    /// Bytes held right now.
    package var heldBytes: Int { state.withLock { $0.held } }
    /// The most ever held at once.
    package var peakBytes: Int { state.withLock { $0.peak } }
    /// Connections closed to bring the total back under the limit.
    package var connectionsClosed: Int { state.withLock { $0.connectionsClosed } }

    /// Adds `delta` (negative: gives back); true when the total is now over the limit.
    package func adjust(by delta: Int) -> Bool {
        state.withLock { s in
            s.held = max(0, s.held + delta)
            s.peak = max(s.peak, s.held)
            return s.held > s.limit
        }
    }

    /// True while the total is over the limit.
    package var isExceeded: Bool { state.withLock { $0.held > $0.limit } }

    func noteConnectionClosed() { state.withLock { $0.connectionsClosed += 1 } }

    package static func == (lhs: HeldOutputBudget, rhs: HeldOutputBudget) -> Bool { lhs === rhs }
    package func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
