/// How the repositories retry: how many attempts, how long between them, and how a wait is
/// waited (the app sleeps; a test injects its clock so a 3 s Retry-After takes no time).
public struct RetryPolicy: Sendable {
    /// Attempts in all, the first included.
    public var maxAttempts: Int
    /// The wait before the first retry; each later one doubles, up to ``maximumDelay``.
    public var initialDelay: Duration
    public var maximumDelay: Duration
    /// Waits a delay. `Task.sleep` by default.
    public var sleep: @Sendable (Duration) async -> Void

    /// A policy; the defaults suit an app on a phone network.
    public init(maxAttempts: Int = 4, initialDelay: Duration = .milliseconds(500), maximumDelay: Duration = .seconds(8),
                sleep: @escaping @Sendable (Duration) async -> Void = { try? await Task.sleep(for: $0) }) {
        self.maxAttempts = max(1, maxAttempts)
        self.initialDelay = initialDelay
        self.maximumDelay = maximumDelay
        self.sleep = sleep
    }

    /// The backoff before retry `attempt` (1 for the first retry).
    public func delay(beforeRetry attempt: Int) -> Duration {
        var delay = initialDelay
        for _ in 1..<max(attempt, 1) where delay < maximumDelay {
            delay *= 2
        }
        return min(delay, maximumDelay)
    }
}
