import PushCore
/// Request-body bytes buffered (received, not yet handed to a handler) across every
/// connection of every server that shares this budget; ``shared`` is the process's.
///
/// A fake runs inside its user's test process, next to other fakes and other tests, so a
/// per-connection bound alone does not bound the process: 50 connections × 100 streams of
/// 1 MiB bodies once held 3.5 GB. Past `limit`, new body bytes are refused rather than
/// buffered: HTTP/2 resets the stream with REFUSED_STREAM (the client may retry it), and
/// HTTP/1.1 answers 503 and closes.
package final class RequestBodyBudget: Sendable, Hashable {
    /// The budget every server uses unless its configuration names another (tests that fill
    /// a budget on purpose use their own, so they cannot starve tests running beside them).
    package static let shared = RequestBodyBudget(limit: 64 * 1024 * 1024)

    private struct State {
        var limit: Int
        var buffered = 0
        var peak = 0
        var refusals = 0
    }

    private let state: Locked<State>

    /// - Parameter limit: buffered bytes allowed at once across the servers that share it.
    package init(limit: Int) {
        state = Locked(State(limit: max(0, limit)))
    }

    /// Bytes allowed at once (64 MiB for ``shared``).
    package var limit: Int {
        get { state.withLock { $0.limit } }
        set { state.withLock { $0.limit = max(0, newValue) } }
    }

    /// Bytes buffered right now.
    package var bufferedBytes: Int { state.withLock { $0.buffered } }
    /// The most ever buffered at once.
    package var peakBytes: Int { state.withLock { $0.peak } }
    /// Reservations refused so far (each a body refused).
    package var refusals: Int { state.withLock { $0.refusals } }

    /// Takes `bytes` from the budget; false (nothing taken) if that would pass the limit.
    package func reserve(_ bytes: Int) -> Bool {
        guard bytes > 0 else { return true }
        return state.withLock { s in
            guard bytes <= s.limit - s.buffered else {
                s.refusals += 1
                return false
            }
            s.buffered += bytes
            s.peak = max(s.peak, s.buffered)
            return true
        }
    }

    /// Gives back bytes taken by ``reserve(_:)`` (the body reached its handler or was dropped).
    package func release(_ bytes: Int) {
        guard bytes > 0 else { return }
        state.withLock { $0.buffered = max(0, $0.buffered - bytes) }
    }

    package static func == (lhs: RequestBodyBudget, rhs: RequestBodyBudget) -> Bool { lhs === rhs }
    package func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
