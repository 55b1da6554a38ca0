import Foundation
import LoopbackHTTP

/// The time FakeAPNs reads for token age, `apns-expiration`, rate windows and budgets.
///
/// The wall clock by default; a test passes a ``FakeClock`` and advances it, so "an hour
/// later" takes no time and no sleep.
public protocol APNsClock: Sendable {
    /// Milliseconds since 1970-01-01T00:00:00Z.
    func nowMilliseconds() -> Int64
}

/// The system's wall clock.
public struct WallClock: APNsClock {
    /// The system clock.
    public init() {}
    /// Now, in milliseconds since 1970.
    public func nowMilliseconds() -> Int64 {
        Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))
    }
}

/// A clock that stands still until the test moves it.
///
/// ```swift
/// let clock = FakeClock(Date(timeIntervalSince1970: 1_700_000_000))
/// clock.advance(seconds: 3601)   // the provider token is now expired
/// ```
public final class FakeClock: APNsClock {
    private let current: Locked<Int64>

    /// Starts at `start` (default: the wall clock's now, whole seconds).
    public init(_ start: Date = Date()) {
        current = Locked(Int64(start.timeIntervalSince1970.rounded(.down)) * 1000)
    }

    /// Starts at this many milliseconds since 1970.
    public init(milliseconds: Int64) {
        current = Locked(milliseconds)
    }

    /// The clock's current time, in milliseconds since 1970 (moves only when told).
    public func nowMilliseconds() -> Int64 { current.snapshot }

    /// Moves the clock forward (or back, with a negative value).
    public func advance(seconds: Double) {
        let delta = Int64((seconds * 1000).rounded())
        current.withLock { $0 = $0 &+ delta }
    }

    /// Sets the clock to a point in time.
    public func set(_ date: Date) {
        current.withLock { $0 = Int64((date.timeIntervalSince1970 * 1000).rounded(.down)) }
    }
}
