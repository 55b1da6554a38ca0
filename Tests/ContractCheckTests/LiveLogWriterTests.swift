import Foundation
import Testing
@testable import ContractCheckCLI

/// `serve`'s live log is written off the request path in batches, yet stays live: a line
/// reaches the stream on its own, without anyone flushing, within the batch delay.
@Suite struct LiveLogWriterTests {
    /// Waits (without sleeping on the answer) until `condition` holds or `seconds` pass.
    private func eventually(within seconds: Double, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            usleep(1_000)
        }
        return condition()
    }

    @Test func aLineReachesTheStreamWithoutAFlush() {
        let io = CommandIO.capturing()
        let writer = LiveLogWriter(output: io)
        defer { writer.stop() }
        writer.writeLine(utf8: Array("first".utf8))
        #expect(eventually(within: 5) { io.writtenOutput == "first\n" })
        // The next batch is scheduled again after one was written.
        writer.writeLine(utf8: Array("second".utf8))
        #expect(eventually(within: 5) { io.writtenOutput == "first\nsecond\n" })
    }

    @Test func linesWrittenTogetherLeaveInOneBatchInOrder() {
        let io = CommandIO.capturing()
        let writer = LiveLogWriter(output: io)
        defer { writer.stop() }
        let lines = (0..<1_000).map { "line \($0)" }
        for line in lines { writer.writeLine(utf8: Array(line.utf8)) }
        #expect(eventually(within: 5) { io.writtenOutput.hasSuffix("line 999\n") })
        #expect(io.writtenOutput == lines.map { $0 + "\n" }.joined())
    }

    @Test func stopWritesWhatIsBufferedAndLaterLinesGoAtOnce() {
        let io = CommandIO.capturing()
        let writer = LiveLogWriter(output: io)
        writer.writeLine(utf8: Array("before".utf8))
        writer.stop()
        #expect(io.writtenOutput == "before\n")
        writer.writeLine(utf8: Array("after".utf8))
        #expect(io.writtenOutput == "before\nafter\n")
    }
}
