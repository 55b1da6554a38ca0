@testable import FakeSupport
import Foundation
import Testing

/// The one clock of both fakes and the scenarios: which kinds stand still, which skip sleeps.
@Suite struct PushClockTests {
    static let start = Date(timeIntervalSince1970: 1_700_000_000)

    @Test func aStoppedClockMovesOnlyWhenTold() {
        let clock = PushClock(stoppedAt: Self.start)
        #expect(clock.nowMilliseconds() == 1_700_000_000_000)
        #expect(clock.now == Self.start)
        clock.advance(by: .seconds(3601))
        #expect(clock.nowMilliseconds() == 1_700_003_601_000)
        clock.advance(seconds: 0.25)
        #expect(clock.nowMilliseconds() == 1_700_003_601_250)
        clock.advance(by: .milliseconds(-250))
        #expect(clock.nowMilliseconds() == 1_700_003_601_000)
        clock.set(Self.start)
        #expect(clock.now == Self.start)
        #expect(clock.skipsSleeps)
    }

    @Test func sleepingOnAStoppedClockMovesItByTheDurationExactly() async {
        let clock = PushClock(stoppedAt: Self.start)
        await clock.sleep(for: .seconds(30))
        await clock.sleep(for: .milliseconds(500))
        await clock.sleep(for: .zero)
        await clock.sleep(for: .seconds(-5))  // nothing to wait: the clock stays
        #expect(clock.nowMilliseconds() == 1_700_000_030_500)
    }

    @Test func aSkippingClockRunsWithTheWallClockAndSkipsSleeps() async {
        let wallBefore = Date()
        let clock = PushClock(skippingSleepsFrom: Self.start)
        let before = clock.nowMilliseconds()
        #expect(before >= 1_700_000_000_000 && before < 1_700_000_060_000)
        // An hour's sleep returns at once, and the clock has moved by at least the hour.
        await clock.sleep(for: .seconds(3600))
        #expect(clock.nowMilliseconds() - before >= 3_600_000)
        #expect(Date().timeIntervalSince(wallBefore) < 600, "the sleep was skipped, not waited")
        #expect(clock.skipsSleeps)
    }

    @Test func theWallClockReadsTheSystemTimeAndCanBeShifted() {
        let clock = PushClock()
        #expect(!clock.skipsSleeps)
        // Read between two readings of `Date()`, the same system clock, in whole milliseconds
        // (floored): within them, give or take a second the system clock may be stepped by.
        let before = (Date().timeIntervalSince1970 * 1000).rounded(.down)
        let read = Double(clock.nowMilliseconds())
        let after = (Date().timeIntervalSince1970 * 1000).rounded(.down)
        #expect(read >= before - 1_000 && read <= after + 1_000, "\(before) ≤ \(read) ≤ \(after)")
        let system = Date().timeIntervalSince1970 * 1000
        clock.advance(by: .seconds(86_400))
        #expect(Double(clock.nowMilliseconds()) - system >= 86_399_000)  // whole milliseconds
    }

    @Test func hugeMovesSaturateInsteadOfTrapping() {
        let clock = PushClock(stoppedAt: Self.start)
        clock.advance(by: .seconds(Int64.max))
        clock.advance(seconds: .infinity)
        clock.advance(seconds: -.greatestFiniteMagnitude)
        clock.set(Date.distantFuture)
        _ = clock.now
    }
}
