import Foundation
import PushCore

/// The one clock FakeBackend, FakeAPNs and the scenarios read: journal times, device and
/// open stamps, provider-token ages, `apns-expiration`, throttle windows and budgets.
///
/// Three kinds, one type, so one instance can drive both fakes and the client under test:
///
/// ```swift
/// let clock = PushClock(stoppedAt: Date(timeIntervalSince1970: 1_700_000_000))
/// let backend = try FakeBackend.startListening(configuration: .init(clock: clock))
/// clock.advance(by: .seconds(3601))            // an hour later, at once
/// await clock.sleep(for: .seconds(1))          // a Retry-After: the clock moves, nobody waits
/// ```
///
/// - ``init()``: the wall clock. ``sleep(for:)`` really sleeps; ``advance(by:)`` shifts it.
/// - ``init(stoppedAt:)``: stands still until moved; ``sleep(for:)`` moves it at once.
/// - ``init(skippingSleepsFrom:)``: runs with the wall clock, and ``sleep(for:)`` moves it
///   at once. The scenarios' default: a client that sleeps through this clock runs at full
///   speed, and one that sleeps for real still sees time pass.
///
/// Give the same instance to your client's retry and backoff code, so a `Retry-After: 30`
/// costs no wall time and the fakes still see the 30 seconds pass.
public final class PushClock: Sendable {
    private enum Kind {
        case wall, stopped, skippingSleeps
    }

    private struct Reading {
        /// `stopped`: the time itself. Otherwise the shift added to the wall clock.
        var milliseconds: Int64
    }

    private let kind: Kind
    private let reading: Locked<Reading>

    /// The wall clock: `now` is the system's time (plus any ``advance(by:)``), and
    /// ``sleep(for:)`` sleeps for real.
    public init() {
        kind = .wall
        reading = Locked(Reading(milliseconds: 0))
    }

    /// A clock that stands still at `start` (whole milliseconds) until ``advance(by:)``,
    /// ``set(_:)`` or ``sleep(for:)`` moves it.
    public init(stoppedAt start: Date) {
        kind = .stopped
        reading = Locked(Reading(milliseconds: Self.milliseconds(start)))
    }

    /// A clock that stands still at `milliseconds` since 1970 (for tests that need exact values).
    package init(stoppedAtMilliseconds milliseconds: Int64) {
        kind = .stopped
        reading = Locked(Reading(milliseconds: milliseconds))
    }

    /// A clock that runs with the wall clock from `start`, where ``sleep(for:)`` moves it
    /// forward at once instead of waiting.
    public init(skippingSleepsFrom start: Date = Date()) {
        kind = .skippingSleeps
        reading = Locked(Reading(milliseconds: Self.milliseconds(start) &- Self.wallMilliseconds()))
    }

    /// True when ``sleep(for:)`` moves the clock instead of waiting.
    public var skipsSleeps: Bool { kind != .wall }

    /// The clock's current time.
    public var now: Date { Date(timeIntervalSince1970: Double(nowMilliseconds()) / 1000) }

    /// The clock's current time in milliseconds since 1970-01-01T00:00:00Z.
    public func nowMilliseconds() -> Int64 {
        let stored = reading.withLock { $0.milliseconds }
        return kind == .stopped ? stored : Self.wallMilliseconds() &+ stored
    }

    /// Moves the clock forward by `duration` (back, for a negative one), at once.
    public func advance(by duration: Duration) {
        let (seconds, attoseconds) = duration.components
        let delta = seconds.multipliedReportingOverflow(by: 1000)
        let milliseconds = delta.overflow ? (seconds < 0 ? Int64.min / 2 : Int64.max / 2) : delta.partialValue
        reading.withLock { $0.milliseconds = $0.milliseconds &+ milliseconds &+ attoseconds / 1_000_000_000_000_000 }
    }

    /// Moves the clock by `seconds` (fractions allowed), at once.
    public func advance(seconds: Double) {
        let milliseconds = (seconds * 1000).rounded()
        guard milliseconds.isFinite else { return }
        let clamped = Int64(max(-9e15, min(9e15, milliseconds)))
        reading.withLock { $0.milliseconds = $0.milliseconds &+ clamped }
    }

    /// Sets the clock to `date` (whole milliseconds); a running clock goes on from there.
    public func set(_ date: Date) {
        let target = Self.milliseconds(date)
        reading.withLock { $0.milliseconds = kind == .stopped ? target : target &- Self.wallMilliseconds() }
    }

    /// Waits `duration` on this clock: the wall clock sleeps (`Task.sleep`, ending early if
    /// the task is cancelled); the other kinds move forward by `duration` and return after
    /// one yield, so other tasks get their turn.
    public func sleep(for duration: Duration) async {
        guard duration > .zero else { return }
        if kind == .wall {
            try? await Task.sleep(for: duration)
        } else {
            advance(by: duration)
            await Task.yield()
        }
    }

    /// The system's time in whole milliseconds (floored): `clock_gettime(CLOCK_REALTIME)`,
    /// what `Date()` reads beneath ~55 instructions more of Foundation's (callgrind; a fake
    /// reads its clock for every request). The same call on Linux and Darwin, as `TimerQueue.now` reads
    /// `CLOCK_MONOTONIC` (Docs/readme/platforms.md: Darwin's `CLOCK_REALTIME` is likewise a
    /// `clockid_t` case). `tv_nsec` is never negative, so a time before 1970 floors too.
    private static func wallMilliseconds() -> Int64 {
        var time = timespec()
        _ = clock_gettime(CLOCK_REALTIME, &time)  // fails only for an unknown clock or a bad pointer
        return Int64(time.tv_sec) &* 1000 &+ Int64(time.tv_nsec) / 1_000_000
    }

    private static func milliseconds(_ date: Date) -> Int64 {
        let value = (date.timeIntervalSince1970 * 1000).rounded(.down)
        guard value.isFinite else { return 0 }
        return Int64(max(-9e15, min(9e15, value)))
    }
}
