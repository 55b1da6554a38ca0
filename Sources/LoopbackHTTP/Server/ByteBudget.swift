import PushCore

/// Bytes in use across every connection of every server that shares this budget, against
/// a limit: the one bound both process-wide budgets apply (``RequestBodyBudget`` for
/// buffered request bodies, ``HeldOutputBudget`` for output held for peers that do not
/// read). `Purpose` tells the two apart: each has its own ``shared`` budget and its own
/// names for what it counts.
///
/// Two ways to take bytes: ``reserve(_:)`` refuses what would pass the limit (a body is
/// refused rather than buffered); ``adjust(by:)`` always records the change and reports
/// whether the total is now over the limit (held output exists already: the loop then
/// closes connections to bring it back).
package final class ByteBudget<Purpose>: Sendable, Hashable {
    private struct State {
        var limit: Int
        var used = 0
        var peak = 0
        var enforcements = 0
        var streamResets = 0
    }

    private let state: Locked<State>

    /// - Parameter limit: bytes allowed at once across the servers that share it.
    package init(limit: Int) {
        state = Locked(State(limit: max(0, limit)))
    }

    /// Bytes allowed at once (64 MiB for each ``shared`` budget).
    package var limit: Int {
        get { state.withLock { $0.limit } }
        set { state.withLock { $0.limit = max(0, newValue) } }
    }

    /// Bytes in use right now.
    package var usedBytes: Int { state.withLock { $0.used } }
    /// The most ever in use at once.
    package var peakBytes: Int { state.withLock { $0.peak } }
    /// Times the limit was enforced: reservations refused, and ``noteEnforced()`` calls.
    package var enforcements: Int { state.withLock { $0.enforcements } }
    /// True while the total is over the limit.
    package var isExceeded: Bool { state.withLock { $0.used > $0.limit } }

    /// Takes `bytes` from the budget; false (nothing taken, the refusal counted) if that
    /// would pass the limit.
    package func reserve(_ bytes: Int) -> Bool {
        guard bytes > 0 else { return true }
        return state.withLock { s in
            guard bytes <= s.limit - s.used else {
                s.enforcements += 1
                return false
            }
            s.used += bytes
            s.peak = max(s.peak, s.used)
            return true
        }
    }

    /// Gives back bytes taken by ``reserve(_:)``.
    package func release(_ bytes: Int) {
        guard bytes > 0 else { return }
        state.withLock { $0.used = max(0, $0.used - bytes) }
    }

    /// Adds `delta` (negative: gives back) whatever the limit; true when the total is now
    /// over it.
    package func adjust(by delta: Int) -> Bool {
        state.withLock { s in
            s.used = max(0, s.used + delta)
            s.peak = max(s.peak, s.used)
            return s.used > s.limit
        }
    }

    /// Counts one enforcement made outside the budget (a connection closed to meet it).
    func noteEnforced() { state.withLock { $0.enforcements += 1 } }

    /// Counts one stream reset to meet the budget (``HeldOutputBudget``, HTTP/2).
    func noteStreamReset() { state.withLock { $0.streamResets += 1 } }

    /// Streams reset to meet the budget (``HeldOutputBudget``: HTTP/2 streams whose answers
    /// waited for window, reset before any connection is closed).
    package var streamResets: Int { state.withLock { $0.streamResets } }

    package static func == (lhs: ByteBudget, rhs: ByteBudget) -> Bool { lhs === rhs }
    package func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

/// What a ``ByteBudget`` counts, with the process's budget for it.
package protocol ByteBudgetPurpose {
    /// The budget every server uses unless its configuration names another.
    static var shared: ByteBudget<Self> { get }
}

extension ByteBudget where Purpose: ByteBudgetPurpose {
    /// The process's budget for `Purpose` (64 MiB): every server's unless its configuration
    /// names another (tests that fill a budget on purpose use their own, so they cannot
    /// starve tests running beside them).
    package static var shared: ByteBudget { Purpose.shared }
}

// MARK: - The process's two budgets

/// Request-body bytes buffered (received, not yet handed to a handler) across every
/// connection of every server that shares this budget; ``ByteBudget/shared`` is the process's.
///
/// A fake runs inside its user's test process, next to other fakes and other tests, so a
/// per-connection bound alone does not bound the process: 50 connections × 100 streams of
/// 1 MiB bodies would hold 3.5 GB. Past `limit`, new body bytes are refused
/// (``ByteBudget/reserve(_:)``) rather than buffered: HTTP/2 resets the stream with
/// REFUSED_STREAM (the client may retry it), and HTTP/1.1 answers 503 and closes.
package typealias RequestBodyBudget = ByteBudget<BufferedRequestBodies>

/// Response bytes held for peers that have not read them (unwritten socket output, and
/// HTTP/2 DATA waiting for flow-control window) across every connection of every server
/// that shares this budget; ``ByteBudget/shared`` is the process's.
///
/// `maxPendingOutputBytes` bounds one connection; the damage adds up across connections:
/// 200 HTTP/2 connections × 100 zero-window streams, each a 15 KB 404, hold ~300 MB. Past
/// `limit` (``ByteBudget/adjust(by:)`` says so) the loop resets its HTTP/2 streams whose
/// answers waited for window the longest (RST_STREAM CANCEL; nginx and nghttp2 reset such
/// streams after their send timeouts, this does it at once), then, if that is not enough,
/// closes its connections whose held output stalled the longest (unread socket output,
/// which cannot be reset without closing).
package typealias HeldOutputBudget = ByteBudget<HeldOutput>

/// What ``RequestBodyBudget`` counts.
package enum BufferedRequestBodies: ByteBudgetPurpose {
    package static let shared = RequestBodyBudget(limit: 64 * 1024 * 1024)
}

/// What ``HeldOutputBudget`` counts.
package enum HeldOutput: ByteBudgetPurpose {
    package static let shared = HeldOutputBudget(limit: 64 * 1024 * 1024)
}

extension ByteBudget where Purpose == BufferedRequestBodies {
    /// Bytes buffered right now.
    package var bufferedBytes: Int { usedBytes }
    /// Reservations refused so far (each a body refused).
    package var refusals: Int { enforcements }
}

extension ByteBudget where Purpose == HeldOutput {
    /// Bytes held right now.
    package var heldBytes: Int { usedBytes }
    /// Connections closed to bring the total back under the limit.
    package var connectionsClosed: Int { enforcements }
}
