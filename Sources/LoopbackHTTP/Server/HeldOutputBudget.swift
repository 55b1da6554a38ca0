/// Response bytes held for peers that have not read them (unwritten socket output, and
/// HTTP/2 DATA waiting for flow-control window) across every connection of every server
/// that shares this budget; ``ByteBudget/shared`` is the process's.
///
/// `maxPendingOutputBytes` bounds one connection; the damage adds up across connections:
/// 200 HTTP/2 connections × 100 zero-window streams, each a 15 KB 404, hold ~300 MB. Past
/// `limit` (``ByteBudget/adjust(by:)`` says so) the loop closes its connections whose held
/// output stalled the longest (nginx and nghttp2 reset such streams after their send
/// timeouts; this does it at once).
package typealias HeldOutputBudget = ByteBudget<HeldOutput>

/// What ``HeldOutputBudget`` counts.
package enum HeldOutput: ByteBudgetPurpose {
    package static let shared = HeldOutputBudget(limit: 64 * 1024 * 1024)
}

extension ByteBudget where Purpose == HeldOutput {
    /// Connections closed to bring the total back under the limit.
    package var connectionsClosed: Int { enforcements }
    /// Bytes held right now.
    package var heldBytes: Int { usedBytes }
}
