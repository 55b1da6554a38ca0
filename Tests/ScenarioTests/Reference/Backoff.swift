import PushScenarios

/// Waits between retries, on a ``PushClock``: the scenarios' clock skips the wait, so the
/// delays can be what an app would use.
struct Backoff: Sendable {
    /// The first retry's delay; each later one doubles, up to `maximum`.
    var initial: Duration = .milliseconds(500)
    var maximum: Duration = .seconds(8)
    /// How a delay (and a Retry-After) is waited.
    var sleep: @Sendable (Duration) async -> Void

    init(clock: PushClock) {
        sleep = { await clock.sleep(for: $0) }
    }

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
