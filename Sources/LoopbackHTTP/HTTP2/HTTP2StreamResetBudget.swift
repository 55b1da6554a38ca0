/// A token bucket for streams that end without a response: reset by the client, refused,
/// or answered at the codec for being malformed (Rapid Reset, CVE-2023-44487).
///
/// Each such stream takes a token; tokens return at `refillPerSecond` up to `burst`. An
/// ordinary client, whose streams end with a response, never spends one. nghttp2 bounds
/// the same thing the same way (a bucket of 1,000 refilled at 33 per second); nginx counts
/// reset streams against its own request limits.
struct HTTP2StreamResetBudget: Sendable {
    let burst: Double
    let refillPerNanosecond: Double
    private var tokens: Double
    private var refilledAt: UInt64

    /// - Parameters:
    ///   - burst: tokens at the start and at most (negative counts as 0).
    ///   - refillPerSecond: tokens regained per second (negative or NaN counts as 0).
    ///   - now: monotonic nanoseconds.
    init(burst: Int, refillPerSecond: Double, now: UInt64) {
        self.burst = Double(max(0, burst))
        refillPerNanosecond = refillPerSecond > 0 ? refillPerSecond / 1e9 : 0
        tokens = self.burst
        refilledAt = now
    }

    /// Takes a token; false when the bucket is empty (the peer is resetting too fast).
    mutating func spend(now: UInt64) -> Bool {
        if now > refilledAt {
            tokens = min(burst, tokens + Double(now - refilledAt) * refillPerNanosecond)
            refilledAt = now
        }
        guard tokens >= 1 else { return false }
        tokens -= 1
        return true
    }
}
