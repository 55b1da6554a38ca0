import Foundation
import LoopbackHTTP

/// Writes `serve`'s live log off the request path: a request's line is appended to the
/// output buffer (a lock and a copy on the fakes' loop threads), and a dedicated thread
/// writes what has gathered at most ``batchDelayMicroseconds`` after the first line of a
/// batch — so the log stays live (a line is on its way within ~10 ms, well inside 50 ms)
/// while a busy server makes one `write(2)` per batch instead of one per request.
///
/// Lines keep their order with everything else written to the same ``CommandIO``: they share
/// its output buffer, and ``CommandIO/writeLineNow(_:)`` flushes what is buffered before it.
final class LiveLogWriter: Sendable {
    /// How long the first line of a batch waits for company before the batch is written.
    static let batchDelayMicroseconds: UInt32 = 10_000

    private struct State {
        /// The writer thread was woken and will write; later lines ride along.
        var scheduled = false
        var stopped = false
    }

    private let output: CommandIO
    private let state = Locked(State())
    private let wake = DispatchSemaphore(value: 0)

    init(output: CommandIO) {
        self.output = output
        let thread = Thread { [self] in run() }
        thread.name = "serve-log"
        thread.start()
    }

    /// Buffers `line` (UTF-8) and a newline; the writer thread writes it within ~10 ms.
    func writeLine(utf8 line: [UInt8]) {
        output.writeLine(utf8: line)
        let (wakeWriter, stopped) = state.withLock { state -> (Bool, Bool) in
            if state.stopped || state.scheduled { return (false, state.stopped) }
            state.scheduled = true
            return (true, false)
        }
        if wakeWriter { wake.signal() }
        if stopped { output.flush() }
    }

    /// Writes what is buffered and ends the writer thread; later lines are written at once.
    func stop() {
        let wasStopped = state.withLock { state -> Bool in
            defer { state.stopped = true }
            return state.stopped
        }
        guard !wasStopped else { return }
        wake.signal()
        output.flush()
    }

    private func run() {
        while true {
            wake.wait()
            if state.withLock({ $0.stopped }) { return }
            usleep(Self.batchDelayMicroseconds)
            // Cleared before writing: a line appended from here on schedules the next batch.
            state.withLock { $0.scheduled = false }
            output.flush()
        }
    }
}
