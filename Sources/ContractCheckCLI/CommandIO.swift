import PushCore
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a command writes, and what it knows about its environment.
///
/// Commands never call `print`: everything goes through one buffered writer per stream, so a
/// run over 10,000 files makes a handful of `write` calls, and tests run commands in-process
/// and read what they wrote with ``capturedOutput`` and ``capturedError``. The buffers sit in
/// one lock-protected box, so a long-running command (`serve`) writes its log from the
/// fakes' loop threads through the same writer, a line and a ``flush()`` at a time.
///
/// ```swift
/// let io = CommandIO.capturing()
/// let status = ContractCheck.main(["validate", "Fixtures/valid"], io: io)
/// print(io.capturedOutput)
/// ```
package final class CommandIO: Sendable {
    private enum Sink: Sendable {
        case fileDescriptor(Int32)
        case capture
    }

    /// The environment variables the command sees (`NO_COLOR`, …).
    package let environment: [String: String]
    /// The directory relative paths are resolved against, as an absolute path.
    package let currentDirectory: String
    /// True when ``currentDirectory`` is the process's own working directory, so relative
    /// paths can be opened as given (shorter kernel path lookups than absolute ones).
    package let isProcessDirectory: Bool
    /// True when standard output is a terminal; colour is used only then (and without `NO_COLOR`).
    package let outputIsTerminal: Bool
    /// True for the process's own standard streams (``standardStreams()``): the command is
    /// the process, not a call inside a test's process.
    package let isProcessStreams: Bool

    /// One stream: where it goes, what waits to be written, and (capturing) what was written.
    private struct Stream: Sendable {
        let sink: Sink
        var buffer: [UInt8] = []
        var captured: [UInt8] = []

        mutating func append(_ text: String, newline: Bool) {
            append(utf8: text.utf8, newline: newline)
        }

        mutating func append<Bytes: Collection<UInt8>>(utf8 bytes: Bytes, newline: Bool) {
            buffer.append(contentsOf: bytes)
            if newline { buffer.append(UInt8(ascii: "\n")) }
            if buffer.count >= CommandIO.flushThreshold { flush() }
        }

        mutating func flush() {
            guard !buffer.isEmpty else { return }
            CommandIO.drain(&buffer, to: sink, capture: &captured)
        }
    }

    private let output: Locked<Stream>
    private let error: Locked<Stream>
    /// Formats the lines a ``LiveLogWriter`` holds unformatted into the output buffer: run
    /// before anything is written now or read back, so those lines keep their place.
    private let pendingLines = Locked<(@Sendable () -> Void)?>(nil)
    private static let flushThreshold = 64 * 1024

    private init(environment: [String: String], currentDirectory: String?, outputIsTerminal: Bool, output: Sink, error: Sink) {
        self.environment = environment
        self.currentDirectory = currentDirectory ?? Self.workingDirectory()
        self.isProcessDirectory = currentDirectory == nil
        self.outputIsTerminal = outputIsTerminal
        if case .fileDescriptor = output { isProcessStreams = true } else { isProcessStreams = false }
        var outputStream = Stream(sink: output)
        outputStream.buffer.reserveCapacity(Self.flushThreshold)
        self.output = Locked(outputStream)
        self.error = Locked(Stream(sink: error))
    }

    /// The process's standard output and standard error, environment and working directory.
    package static func standardStreams() -> CommandIO {
        CommandIO(
            environment: processEnvironment(),
            currentDirectory: nil,
            outputIsTerminal: isatty(1) == 1,
            output: .fileDescriptor(1),
            error: .fileDescriptor(2)
        )
    }

    /// Keeps everything written in memory, for tests.
    /// - Parameters:
    ///   - environment: the environment the command sees (empty by default, so no `NO_COLOR` surprises).
    ///   - currentDirectory: the directory relative paths resolve against (the process's by default).
    ///   - outputIsTerminal: pretend standard output is a terminal (to test colour).
    package static func capturing(environment: [String: String] = [:], currentDirectory: String? = nil, outputIsTerminal: Bool = false) -> CommandIO {
        CommandIO(
            environment: environment,
            currentDirectory: currentDirectory,
            outputIsTerminal: outputIsTerminal,
            output: .capture,
            error: .capture
        )
    }

    /// True when output may use ANSI colour: a terminal, and `NO_COLOR` unset or empty.
    package var usesColor: Bool {
        outputIsTerminal && (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb"
    }

    /// Appends `text` to standard output (buffered).
    package func write(_ text: String) {
        output.withLock { $0.append(text, newline: false) }
    }

    /// Appends `text` and a newline to standard output (buffered).
    package func writeLine(_ text: String) {
        output.withLock { $0.append(text, newline: true) }
    }

    /// Appends `bytes` (UTF-8 text, lines already ended) to standard output (buffered).
    func write(bytes: [UInt8]) {
        output.withLock { $0.append(utf8: bytes, newline: false) }
    }

    /// Appends `count` lines, each built by `build` (given its index) straight into the output
    /// buffer and followed by a newline, under one lock: a batch of ``LiveLogWriter``'s lines.
    func writeLines(_ count: Int, building build: (Int, inout [UInt8]) -> Void) {
        output.withLock { stream in
            for index in 0..<count {
                build(index, &stream.buffer)
                stream.append(utf8: EmptyCollection(), newline: true)
            }
        }
    }

    /// Sets what formats the lines held unformatted (``LiveLogWriter``'s): called before each
    /// ``writeLineNow(_:)``, ``flush()`` and read of the captured output. It must not call
    /// those itself; it appends with ``writeLines(_:building:)``.
    func formatsPendingLines(with format: (@Sendable () -> Void)?) {
        pendingLines.withLock { $0 = format }
    }

    private func formatPendingLines() {
        pendingLines.snapshot?()
    }

    /// Appends `text` and a newline to standard error (buffered).
    package func writeErrorLine(_ text: String) {
        error.withLock { $0.append(text, newline: true) }
    }

    /// Writes `text` and a newline to standard output now, with anything buffered before it:
    /// a long-running command's log line, seen at once by a script reading a file or a pipe.
    package func writeLineNow(_ text: String) {
        formatPendingLines()
        output.withLock { stream in
            stream.append(text, newline: true)
            stream.flush()
        }
    }

    /// Writes `text` and a newline to standard error now (see ``writeLineNow(_:)``).
    package func writeErrorLineNow(_ text: String) {
        error.withLock { stream in
            stream.append(text, newline: true)
            stream.flush()
        }
    }

    /// Writes out everything buffered so far. ``ContractCheck/main(_:)`` flushes at exit; a
    /// long-running command (`serve`) flushes after each line a script waits for.
    package func flush() {
        formatPendingLines()
        output.withLock { $0.flush() }
        error.withLock { $0.flush() }
    }

    /// Everything written to standard output (capturing mode only; flushes first).
    package var capturedOutput: String {
        formatPendingLines()
        return output.withLock { stream in
            stream.flush()
            return String(decoding: stream.captured, as: UTF8.self)
        }
    }

    /// What reached standard output so far (capturing mode), without flushing: what a
    /// reader of the real stream would have seen (tests of the live log's batching).
    var writtenOutput: String {
        formatPendingLines()
        return output.withLock { String(decoding: $0.captured, as: UTF8.self) }
    }

    /// Everything written to standard error (capturing mode only; flushes first).
    package var capturedError: String {
        error.withLock { stream in
            stream.flush()
            return String(decoding: stream.captured, as: UTF8.self)
        }
    }

    private static func drain(_ buffer: inout [UInt8], to sink: Sink, capture: inout [UInt8]) {
        switch sink {
        case .capture:
            capture.append(contentsOf: buffer)
        case .fileDescriptor(let fd):
            buffer.withUnsafeBytes { raw in
                guard let base = raw.baseAddress else { return }
                var written = 0
                while written < raw.count {
                    let result = systemWrite(fd, base + written, raw.count - written)
                    if result > 0 {
                        written += result
                    } else if result < 0 && errno == EINTR {
                        continue
                    } else {
                        return  // EPIPE or a closed stream: nothing more we can say.
                    }
                }
            }
        }
        buffer.removeAll(keepingCapacity: true)
    }

    private static func systemWrite(_ fd: Int32, _ pointer: UnsafeRawPointer, _ count: Int) -> Int {
        #if canImport(Glibc)
        return Glibc.write(fd, pointer, count)
        #else
        return Darwin.write(fd, pointer, count)
        #endif
    }

    private static func processEnvironment() -> [String: String] {
        ProcessInfo.processInfo.environment
    }

    private static func workingDirectory() -> String {
        FileManager.default.currentDirectoryPath
    }
}
