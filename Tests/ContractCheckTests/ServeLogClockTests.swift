@testable import PushCore
import Foundation
import Testing
@testable import ContractCheckCLI

/// The live log's `HH:MM:SS.mmm` (UTC), computed from the milliseconds since 1970 on every
/// request line, against the C library's `gmtime_r` it replaced.
@Suite struct ServeLogClockTests {
    @Test func agreesWithGmtimeOnEveryKindOfInstant() {
        var random = SplitMix64(seed: 7)
        var instants: [Int64] = [0, 999, 1000, 59_999, 3_599_999, 86_399_999, 86_400_000, 1_764_561_599_999]
        for _ in 0..<2_000 { instants.append(Int64.random(in: 0...4_102_444_800_000, using: &random)) }
        for milliseconds in instants {
            let date = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
            #expect(ServeLog.clock(date) == Self.reference(date), "\(milliseconds)")
        }
        #expect(ServeLog.clock(Date(timeIntervalSince1970: 1_764_563_343.789)) == "04:29:03.789")
    }

    /// A batch's clock keeps `HH:MM:SS.` while the lines stay in one second: in order, out of
    /// order, across seconds, days and 1970, each line reads as ``ServeLog/clock(_:)`` has it.
    @Test func aBatchClockReadsAsTheClockLineByLine() {
        var random = SplitMix64(seed: 11)
        var instants: [Int64] = [-1_001, -1_000, -999, -1, 0, 1, 999, 1000, 1001, 59_999, 60_000, 86_399_999, 86_400_000, 999, 1_764_563_343_789]
        var now: Int64 = 1_764_563_340_000
        for _ in 0..<2_000 {
            now += Int64.random(in: 0...150, using: &random)
            instants.append(now)
            if Int.random(in: 0..<50, using: &random) == 0 { instants.append(now - 1_000) }
        }
        var clock = ServeLog.Clock()
        for milliseconds in instants {
            let date = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
            var line: [UInt8] = []
            clock.append(date, to: &line)
            #expect(String(decoding: line, as: UTF8.self) == ServeLog.clock(date), "\(milliseconds)")
        }
    }

    /// The `gmtime_r` version.
    static func reference(_ date: Date) -> String {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
        var seconds = time_t(milliseconds / 1000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return String(format: "%02d:%02d:%02d.%03d", parts.tm_hour, parts.tm_min, parts.tm_sec, Int(milliseconds % 1000))
    }
}
