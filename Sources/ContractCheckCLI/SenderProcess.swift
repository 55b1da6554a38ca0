import Foundation
import PushCore
import PushScenarios

/// The sender under test as a child process (`/bin/sh -c COMMAND`) speaking `sender-check`'s
/// JSON lines: calls on its stdin, answers on its stdout (matched by `id`); any other stdout
/// line, and stderr, is its log.
///
/// Every misbehaviour is sticky: once the child exited early, left a call unanswered past the
/// timeout, or wrote a line that is not the protocol, every pending and later call throws the
/// same ``SenderMisbehaviour``.
final class SenderProcess: SenderUnderTest, @unchecked Sendable {
    private struct Pending {
        var call: String
        var continuation: CheckedContinuation<Result<SenderAnswer, SenderMisbehaviour>, Never>
    }

    private struct State {
        var nextID = 1
        var pending: [Int: Pending] = [:]
        var misbehaviour: SenderMisbehaviour?
        var finishing = false
        var exitStatus: Int32?
        var log: [String] = []
        var droppedLogLines = 0
    }

    /// At most this many log lines are kept (the newest), each cut at ``maximumLineBytes``.
    static let keptLogLines = 400
    /// A stdout or stderr line longer than this is cut (the rest dropped) so memory stays bounded.
    static let maximumLineBytes = 16 * 1024

    private let state = Locked(State())
    private let timeout: Double
    #if os(macOS) || os(Linux)
    private let process = Process()
    #endif
    private let input = Pipe()
    private let output = Pipe()
    private let errors = Pipe()
    private let exited = DispatchSemaphore(value: 0)

    /// Starts `command` through `/bin/sh -c` with `environment` added to this process's.
    /// - Parameter timeout: seconds a call may stay unanswered.
    /// - Throws: when the shell cannot be started.
    init(command: String, environment: [String: String], timeout: Double) throws {
        self.timeout = timeout
        #if os(macOS) || os(Linux)
        signal(SIGPIPE, SIG_IGN)  // a child that exits with its stdin open must not kill us
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        process.terminationHandler = { [weak self] process in self?.childExited(process.terminationStatus) }
        try process.run()
        readLines(from: output.fileHandleForReading, isStdout: true)
        readLines(from: errors.fileHandleForReading, isStdout: false)
        #else
        throw SenderMisbehaviour("this platform has no child processes")
        #endif
    }

    /// The child's log: its stderr and the stdout lines that were not answers, oldest first.
    var log: [String] {
        state.withLock { s in (s.droppedLogLines > 0 ? ["(\(s.droppedLogLines) earlier lines dropped)"] : []) + s.log }
    }

    /// How the child broke the protocol, if it did.
    var misbehaviour: SenderMisbehaviour? { state.withLock { $0.misbehaviour } }

    func perform(_ call: SenderCall) async throws(SenderMisbehaviour) -> SenderAnswer {
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<SenderAnswer, SenderMisbehaviour>, Never>) in
            let id: Int? = state.withLock { s in
                if let misbehaviour = s.misbehaviour {
                    continuation.resume(returning: .failure(misbehaviour))
                    return nil
                }
                let id = s.nextID
                s.nextID += 1
                s.pending[id] = Pending(call: call.name, continuation: continuation)
                if case .finish = call { s.finishing = true }
                return id
            }
            guard let id else { return }
            let line = Array((SenderCallEncoding.line(call, id: id) + "\n").utf8)
            if !writeAll(line) {
                fail(SenderMisbehaviour("the sender closed its stdin before call \(id) (\(call.name)); "
                                        + "read one JSON call a line from stdin until finish"))
                return
            }
            let seconds = timeout
            DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [weak self] in
                self?.timedOut(id, seconds: seconds)
            }
        }
        return try result.get()
    }

    /// After `finish` was answered: closes stdin and waits up to the timeout for the child to
    /// exit; a child that does not is terminated.
    func stop() {
        try? input.fileHandleForWriting.close()
        #if os(macOS) || os(Linux)
        if exited.wait(timeout: .now() + timeout) == .timedOut {
            process.terminate()
            _ = exited.wait(timeout: .now() + 5)
        }
        #endif
    }

    private func writeAll(_ bytes: [UInt8]) -> Bool {
        let fd = input.fileHandleForWriting.fileDescriptor
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { raw in
                write(fd, raw.baseAddress.map { $0 + offset }, bytes.count - offset)
            }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return false }
            offset += written
        }
        return true
    }

    private func timedOut(_ id: Int, seconds: Double) {
        let call = state.withLock { $0.pending[id]?.call }
        guard let call else { return }
        fail(SenderMisbehaviour("the sender left call \(id) (\(call)) unanswered for \(Self.seconds(seconds)) s (--timeout); answer each call "
                                + "with one line {\"id\":\(id),…} on stdout once it is done with it"))
    }

    private func childExited(_ status: Int32) {
        let waiting: (ids: [Int], finishing: Bool) = state.withLock { s in
            s.exitStatus = status
            return (s.pending.keys.sorted(), s.finishing)
        }
        exited.signal()
        if let first = waiting.ids.first {
            let call = state.withLock { $0.pending[first]?.call } ?? "a call"
            fail(SenderMisbehaviour("the sender exited (status \(status)) before answering call \(first) (\(call)); "
                                    + "keep it running and answer every call until finish"))
        } else if !waiting.finishing {
            fail(SenderMisbehaviour("the sender exited (status \(status)) before the run finished; "
                                    + "keep it running, reading calls from stdin, until finish"))
        }
    }

    /// Makes `misbehaviour` the run's (the first one wins) and fails every pending call with it.
    private func fail(_ misbehaviour: SenderMisbehaviour) {
        let pending: [Pending] = state.withLock { s in
            if s.misbehaviour == nil { s.misbehaviour = misbehaviour }
            let all = Array(s.pending.values)
            s.pending.removeAll()
            return all
        }
        let sticky = self.misbehaviour ?? misbehaviour
        for waiting in pending { waiting.continuation.resume(returning: .failure(sticky)) }
    }

    private func readLines(from handle: FileHandle, isStdout: Bool) {
        let thread = Thread { [weak self] in
            var buffer: [UInt8] = []
            var cut = false
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                for byte in chunk {
                    if byte == 0x0a {
                        self?.received(String(decoding: buffer, as: UTF8.self), isStdout: isStdout && !cut)
                        buffer.removeAll(keepingCapacity: true)
                        cut = false
                    } else if buffer.count < Self.maximumLineBytes {
                        buffer.append(byte)
                    } else {
                        cut = true
                    }
                }
            }
            if !buffer.isEmpty { self?.received(String(decoding: buffer, as: UTF8.self), isStdout: isStdout && !cut) }
        }
        thread.start()
    }

    private func received(_ line: String, isStdout: Bool) {
        if isStdout, let answer = SenderCallEncoding.answer(line) {
            switch answer {
            case .notAnAnswer: break
            case .answer(let id, let decode):
                let pending: Pending? = state.withLock { $0.pending.removeValue(forKey: id) }
                guard let pending else {
                    fail(SenderMisbehaviour("the sender answered id \(id), which no call is waiting for (\(Self.clip(line))); "
                                            + "answer each call once, with the id it came with"))
                    return
                }
                switch decode(pending.call) {
                case .success(let value): pending.continuation.resume(returning: .success(value))
                case .failure(let problem):
                    pending.continuation.resume(returning: .failure(problem))
                    fail(problem)
                }
                return
            }
        }
        state.withLock { s in
            s.log.append((isStdout ? "" : "stderr: ") + line)
            if s.log.count > Self.keptLogLines {
                s.log.removeFirst()
                s.droppedLogLines += 1
            }
        }
    }

    static func clip(_ line: String) -> String { line.count > 120 ? line.prefix(117) + "…" : line }

    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}
