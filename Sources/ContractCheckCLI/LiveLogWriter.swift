import Foundation
import FakeAPNs
import FakeBackend
import PushCore

/// Writes `serve`'s live log off the request path. A fake's loop thread hands over a line
/// unformatted (the journal entry itself: a lock and an append, nothing allocated), and a
/// dedicated thread formats what has gathered and writes it at most ``batchDelayMicroseconds``
/// after the first line of a batch — so the log stays live (a line is on its way within
/// ~10 ms, well inside 50 ms) while a busy server neither formats lines nor makes a
/// `write(2)` per request. A batch is formatted into the output buffer under one lock, with
/// one clock (`HH:MM:SS.` computed once a second), and written with one `write(2)`.
///
/// Lines keep their order with each other and with everything else written to the same
/// ``CommandIO``: its ``CommandIO/writeLineNow(_:)``, ``CommandIO/flush()`` and captured
/// output first format the pending lines, in arrival order, into its buffer. At
/// most ``maxPending`` lines wait; past that a loop thread formats its own line (after the
/// waiting ones), so a writer that falls behind slows the server instead of growing memory.
///
/// The writer thread starts with the first line handed over, not before: an idle `serve` (or
/// a `ServeOption.quiet` one, which hands over none) has no thread that only waits.
final class LiveLogWriter: Sendable {
    /// How long the first line of a batch waits for company before the batch is written.
    static let batchDelayMicroseconds: UInt32 = 10_000
    /// Lines that may wait unformatted (at 10 ms a batch, 400,000 requests/s).
    static let maxPending = 4_096

    /// Appends one line's UTF-8 (without the newline) to the buffer being written.
    typealias Format = @Sendable (inout [UInt8]) -> Void

    /// A line handed over and not yet formatted.
    enum Line: Sendable {
        /// A FakeBackend request, formatted by ``ServeLog/append(_:clock:to:)-(BackendJournalEntry,_,_)``.
        case backend(BackendJournalEntry)
        /// A FakeAPNs request, formatted by ``ServeLog/append(_:clock:to:)-(APNsJournalEntry,_,_)``.
        /// Boxed: the entry is a struct of many fields, and inline it would make every line
        /// that large to copy (a backend line is handed over with one retain).
        indirect case apns(APNsJournalEntry)
        /// Any other line, formatted by its closure.
        case other(Format)
    }

    private struct State {
        /// The writer thread was woken and will write; later lines ride along.
        var scheduled = false
        var stopped = false
        /// The writer thread was started (by the first line handed over).
        var started = false
        /// Lines handed over and not yet formatted, in arrival order.
        var pending: [Line] = []
    }

    private let output: CommandIO
    /// How request lines look (colour or not).
    private let log: ServeLog
    /// The clock of the batches, held by the thread formatting one (under `formatting`).
    private let clock = Locked(ServeLog.Clock())
    private let state = Locked(State())
    /// Held while pending lines are taken, formatted and appended to `output`, so that two
    /// threads doing so (the writer, a note, a backlogged loop thread) keep the lines' order.
    /// A bare lock: it guards an order, not a value (a `Locked<Void>`'s empty value is
    /// reported by the thread sanitizer as raced).
    private let formatting = NSLock()
    private let wake = DispatchSemaphore(value: 0)

    init(output: CommandIO, log: ServeLog = ServeLog(colour: false)) {
        self.output = output
        self.log = log
        output.formatsPendingLines { [weak self] in self?.formatHandedOver() }
    }

    /// Hands over a line to be formatted by `format` on the writer thread, which writes it
    /// (and a newline) within ~10 ms. After ``stop()``, or with ``maxPending`` lines waiting,
    /// the line is formatted here, after the waiting ones.
    func writeLine(formatting format: @escaping Format) {
        writeLine(.other(format))
    }

    /// Hands over a FakeBackend request's line (see ``writeLine(formatting:)``).
    func writeLine(_ entry: BackendJournalEntry) {
        writeLine(.backend(entry))
    }

    /// Hands over a FakeAPNs request's line (see ``writeLine(formatting:)``).
    func writeLine(_ entry: APNsJournalEntry) {
        writeLine(.apns(entry))
    }

    private func writeLine(_ line: Line) {
        let (wakeWriter, here, stopped, start) = state.withLock { state -> (Bool, Bool, Bool, Bool) in
            if state.stopped || state.pending.count >= Self.maxPending { return (false, true, state.stopped, false) }
            state.pending.append(line)
            if state.scheduled { return (false, false, false, false) }
            state.scheduled = true
            defer { state.started = true }
            return (true, false, false, !state.started)
        }
        if start { startWriter() }
        if wakeWriter { wake.signal() }
        guard here else { return }
        inFormattingOrder { formatPending(then: line) }
        if stopped { output.flush() }
    }

    /// Starts the writer thread (once, for the first line handed over).
    private func startWriter() {
        Thread { [self] in
            // Named from inside: a name set before `start()` does not reach the system thread
            // on Linux, which would keep the name of the thread that started it (a server's
            // loop thread, "LoopbackHTTP", for the first request's line).
            Thread.current.name = Self.threadName
            run()
        }.start()
    }

    /// The writer thread's name, as `/proc/PID/task/*/comm` and a debugger show it.
    static let threadName = "serve-log"

    /// Whether the writer thread was started (for tests: not before the first line).
    var writerStarted: Bool { state.withLock { $0.started } }

    /// Lines handed over and not yet formatted (for tests).
    var pendingCount: Int { state.withLock { $0.pending.count } }

    /// Writes what is pending and ends the writer thread; later lines are written at once.
    func stop() {
        let wasStopped = state.withLock { state -> Bool in
            defer { state.stopped = true }
            return state.stopped
        }
        guard !wasStopped else { return }
        wake.signal()
        output.flush()
    }

    /// Formats the lines handed over so far into `output`'s buffer (``CommandIO`` calls this
    /// before it writes or is read).
    private func formatHandedOver() {
        inFormattingOrder { formatPending() }
    }

    /// Runs `body` holding `formatting`.
    private func inFormattingOrder(_ body: () -> Void) {
        formatting.lock()
        defer { formatting.unlock() }
        body()
    }

    /// Formats the pending lines, then `last` if given, into `output`'s buffer, under one of
    /// its locks; the caller holds `formatting`.
    private func formatPending(then last: Line? = nil) {
        var lines = state.withLock { state -> [Line] in
            // Cleared with the take: a line handed over from here on schedules the next batch.
            state.scheduled = false
            defer { state.pending.removeAll(keepingCapacity: true) }
            return state.pending
        }
        if let last { lines.append(last) }
        guard !lines.isEmpty else { return }
        // Taken out for the batch (and put back after), so its buffer is not shared.
        var clock = self.clock.withLock { clock in
            defer { clock = ServeLog.Clock() }
            return clock
        }
        output.writeLines(lines.count) { index, buffer in
            switch lines[index] {
            case .backend(let entry): log.append(entry, clock: &clock, to: &buffer)
            case .apns(let entry): log.append(entry, clock: &clock, to: &buffer)
            case .other(let format): format(&buffer)
            }
        }
        self.clock.withLock { $0 = clock }
    }

    private func run() {
        while true {
            wake.wait()
            if state.withLock({ $0.stopped }) { return }
            usleep(Self.batchDelayMicroseconds)
            output.flush()
        }
    }
}
