/// Waits between retries. Tests inject short delays (milliseconds) so the suite stays fast;
/// an app would use seconds.
struct Backoff: Sendable {
    /// The first retry's delay; each later one doubles, up to `maximum`.
    var initial: Duration = .milliseconds(25)
    var maximum: Duration = .milliseconds(400)
    /// How a delay is waited; `Task.sleep` unless a test injects another.
    var sleep: @Sendable (Duration) async -> Void = { try? await Task.sleep(for: $0) }

    /// The delay before retry `attempt` (1 for the first retry).
    func delay(attempt: Int) -> Duration {
        var delay = initial
        for _ in 1..<max(attempt, 1) where delay < maximum {
            delay *= 2
        }
        return min(delay, maximum)
    }

    /// Waits the delay before retry `attempt`.
    func wait(attempt: Int) async {
        await sleep(delay(attempt: attempt))
    }
}
