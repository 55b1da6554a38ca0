/// Request-body bytes buffered (received, not yet handed to a handler) across every
/// connection of every server that shares this budget; ``ByteBudget/shared`` is the process's.
///
/// A fake runs inside its user's test process, next to other fakes and other tests, so a
/// per-connection bound alone does not bound the process: 50 connections × 100 streams of
/// 1 MiB bodies would hold 3.5 GB. Past `limit`, new body bytes are refused
/// (``ByteBudget/reserve(_:)``) rather than buffered: HTTP/2 resets the stream with
/// REFUSED_STREAM (the client may retry it), and HTTP/1.1 answers 503 and closes.
package typealias RequestBodyBudget = ByteBudget<BufferedRequestBodies>

/// What ``RequestBodyBudget`` counts.
package enum BufferedRequestBodies: ByteBudgetPurpose {
    package static let shared = RequestBodyBudget(limit: 64 * 1024 * 1024)
}

extension ByteBudget where Purpose == BufferedRequestBodies {
    /// Bytes buffered right now.
    package var bufferedBytes: Int { usedBytes }
    /// Reservations refused so far (each a body refused).
    package var refusals: Int { enforcements }
}
