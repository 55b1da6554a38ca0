@testable import PushCore
import Foundation
import Testing
@testable import ContractCheckCLI
import PushTestSupport

/// `serve`'s live log is written off the request path in batches, yet stays live: a line
/// reaches the stream on its own, without anyone flushing, within the batch delay.
@Suite struct LiveLogWriterTests {
    @Test func aLineReachesTheStreamWithoutAFlush() {
        let io = CommandIO.capturing()
        let writer = LiveLogWriter(output: io)
        defer { writer.stop() }
        writer.writeLine(text: "first")
        #expect(eventually(timeout: 5) { io.writtenOutput == "first\n" })
        // The next batch is scheduled again after one was written.
        writer.writeLine(text: "second")
        #expect(eventually(timeout: 5) { io.writtenOutput == "first\nsecond\n" })
    }

    /// No writer thread until there is a line to write: an idle or `--quiet` serve keeps no
    /// thread that only waits (issue 27). The first line starts it, and it writes that line.
    @Test func theWriterThreadStartsWithTheFirstLine() {
        let io = CommandIO.capturing()
        let writer = LiveLogWriter(output: io)
        defer { writer.stop() }
        #expect(!writer.writerStarted)
        writer.writeLine(text: "first")
        #expect(writer.writerStarted)
        #expect(eventually(timeout: 5) { io.writtenOutput == "first\n" })
    }

    @Test func linesWrittenTogetherLeaveInOneBatchInOrder() {
        let io = CommandIO.capturing()
        let writer = LiveLogWriter(output: io)
        defer { writer.stop() }
        let lines = (0..<1_000).map { "line \($0)" }
        for line in lines { writer.writeLine(text: line) }
        #expect(eventually(timeout: 5) { io.writtenOutput.hasSuffix("line 999\n") })
        #expect(io.writtenOutput == lines.map { $0 + "\n" }.joined())
    }

    @Test func stopWritesWhatIsBufferedAndLaterLinesGoAtOnce() {
        let io = CommandIO.capturing()
        let writer = LiveLogWriter(output: io)
        writer.writeLine(text: "before")
        writer.stop()
        #expect(io.writtenOutput == "before\n")
        writer.writeLine(text: "after")
        #expect(io.writtenOutput == "before\nafter\n")
    }

    @Test func linesAreFormattedOffTheCallingThread() {
        let io = CommandIO.capturing()
        let writer = LiveLogWriter(output: io)
        defer { writer.stop() }
        let caller = ObjectIdentifier(Thread.current)
        let formattedOn = Locked<[ObjectIdentifier]>([])
        for index in 0..<3 {
            writer.writeLine { line in
                formattedOn.withLock { $0.append(ObjectIdentifier(Thread.current)) }
                line.append(contentsOf: "line \(index)".utf8)
            }
        }
        // Formatted by the writer's thread, not the one that handed the lines over (waited for
        // without reading the output, which would format them here).
        #expect(eventually(timeout: 5) { formattedOn.snapshot.count == 3 })
        #expect(!formattedOn.snapshot.contains(caller))
        #expect(io.writtenOutput == "line 0\nline 1\nline 2\n")
    }

    @Test func aNoteComesAfterTheLinesHandedOverBeforeIt() {
        let io = CommandIO.capturing()
        let writer = LiveLogWriter(output: io)
        defer { writer.stop() }
        for index in 0..<100 { writer.writeLine { $0.append(contentsOf: "request \(index)".utf8) } }
        io.writeLineNow("note")
        writer.writeLine { $0.append(contentsOf: "request 100".utf8) }
        let expected = (0..<100).map { "request \($0)\n" }.joined() + "note\nrequest 100\n"
        #expect(eventually(timeout: 5) { io.writtenOutput == expected })
        #expect(io.writtenOutput == expected)
    }

    @Test func aBackloggedWriterIsOvertakenInOrderAndMemoryStaysBounded() {
        let io = CommandIO.capturing()
        let writer = LiveLogWriter(output: io)
        defer { writer.stop() }
        // More lines than may wait, handed over faster than the writer's first batch.
        let count = LiveLogWriter.maxPending * 2 + 10
        let pendingSeen = Locked(0)
        for index in 0..<count {
            writer.writeLine { $0.append(contentsOf: "line \(index)".utf8) }
            pendingSeen.withLock { $0 = max($0, writer.pendingCount) }
        }
        #expect(pendingSeen.snapshot <= LiveLogWriter.maxPending)
        let expected = (0..<count).map { "line \($0)\n" }.joined()
        #expect(eventually(timeout: 5) { io.writtenOutput == expected })
        #expect(io.writtenOutput == expected)
    }
}

private extension LiveLogWriter {
    /// Hands over `text` as a line, as serve hands over a journal entry.
    func writeLine(text: String) {
        writeLine { $0.append(contentsOf: text.utf8) }
    }
}
