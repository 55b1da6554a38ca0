import Contracts
import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `contract-check wait-ready FILE --timeout SECONDS [--pid PID] [--log FILE]`: the way a
/// script waits for serve's ready file (`ServeOption.readyFile`) that cannot hang. It returns as soon as the file
/// holds a complete JSON object written by a running serve, and fails (exit 1) when the time
/// is up or when serve's process has exited, showing the end of serve's log when given.
///
/// ```
/// $ contract-check serve … > "$TMP/serve.log" 2>&1 &   # writing its ready file to "$TMP/ready.json"
/// $ contract-check wait-ready "$TMP/ready.json" --timeout 10 --pid $! --log "$TMP/serve.log"
/// {"admin":"http://127.0.0.1:40915","apns":"http://127.0.0.1:43311","backend":"http://127.0.0.1:41237","pid":1234}
/// ```
enum WaitReadyCommand: Subcommand {
    static let name = "wait-ready"

    /// Used when `--timeout` is not given: long enough for a cold `swift run`, never forever.
    static let defaultTimeout = 30.0

    static let help = CommandHelp(
        abstract: "Wait, with a timeout, until serve's \(ServeOption.readyFile.name) is written; print it.",
        usage: "wait-ready FILE [--timeout SECONDS] [--pid PID] [--log FILE]",
        arguments: [("FILE", "The path given to serve \(ServeOption.readyFile.name).")],
        options: [
            OptionSpec("--timeout", valueName: "SECONDS", help: "Give up after this many seconds (default 30; 0.5 works too)."),
            OptionSpec("--pid", valueName: "PID", help: "serve's process id ($! after starting it with &): wait for the file this serve writes (not an older one's), and stop waiting as soon as it exits."),
            OptionSpec("--log", valueName: "FILE", help: "Where serve's output goes: its last lines are shown when serve does not get ready."),
        ],
        discussion: """
            READY: FILE holds a complete JSON object whose "pid" is a running process (a file
            left by an earlier serve that was killed does not count; with --pid, only the file
            of that serve, or of a process it started, counts). It is printed as is, so a
            script can read the URLs from the output or from FILE.

            EXIT STATUS: 0 ready (FILE printed), 1 timed out or serve exited first (the reason,
            and the end of --log, on standard error), 64 usage error (a FILE whose folder does
            not exist is one: serve cannot write it there).

            EXAMPLE:
              contract-check serve \(ServeOption.readyFile.name) "$TMP/ready.json" > "$TMP/serve.log" 2>&1 &
              contract-check wait-ready "$TMP/ready.json" --timeout 10 --pid $! --log "$TMP/serve.log"
            """)

    /// How often the file and the process are looked at.
    static let pollInterval: useconds_t = 50_000

    static func run(_ arguments: [String], io: CommandIO) -> Int32 {
        let parsed: ParsedArguments
        switch parse(arguments, io: io) {
        case .exit(let code): return code
        case .run(let arguments): parsed = arguments
        }
        guard let file = parsed.positionals.first else { return reportUsageError(.missingArgument("FILE"), io: io) }
        if let extra = parsed.positionals.dropFirst().first {
            return reportUsageError(.unexpectedArgument(extra, hint: "wait-ready waits for one file."), io: io)
        }
        var timeout = defaultTimeout
        if let text = parsed.value(for: "--timeout") {
            guard let seconds = Double(text), seconds.isFinite, seconds >= 0, seconds <= 86_400 else {
                return reportUsageError(.invalidValue(text, option: "--timeout", expected: "a number of seconds from 0 to 86400, e.g. 10",
                                                      outOfRange: Double(text)?.isFinite == true), io: io)
            }
            timeout = seconds
        }
        var pid: pid_t?
        if let text = parsed.value(for: "--pid") {
            guard let value = pid_t(text), value > 0 else {
                return reportUsageError(.invalidValue(text, option: "--pid", expected: "a process id, e.g. $! after starting serve with &",
                                                      outOfRange: Int(text) != nil), io: io)
            }
            pid = value
        }
        let log = parsed.value(for: "--log").map { TextFiles.resolve($0, in: io.currentDirectory) }
        let location = TextFiles.resolve(file, in: io.currentDirectory)
        // serve needs the folder to exist before it starts: without it the file never comes.
        let folder = TextFiles.folder(of: location)
        if !folder.isEmpty, !TextFiles.isExistingFolder(folder) {
            return reportUsageError(.unusableValue(file, option: "FILE", reason: "the folder \(TextFiles.folder(of: file)) does not exist, so serve cannot write the file there; give the path given to serve \(ServeOption.readyFile.name)"), io: io)
        }

        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(timeout * 1_000_000_000)
        var state = ReadyState.absent
        while true {
            state = ReadyState.of(location, expecting: pid)
            if case .ready(let text) = state {
                io.write(text.hasSuffix("\n") ? text : text + "\n")
                return ExitCode.success
            }
            if let pid, !isRunning(pid) {
                io.writeErrorLine("Error: serve (pid \(pid)) exited before \(file) was ready" + (state.reason.map { "; \($0)" } ?? ""))
                writeLogTail(log, shown: parsed.value(for: "--log"), io: io)
                return ExitCode.findings
            }
            guard DispatchTime.now().uptimeNanoseconds < deadline else { break }
            usleep(pollInterval)
        }
        io.writeErrorLine("Error: \(file) was not ready after \(formatted(timeout)) s; \(state.reason ?? "it is not complete")")
        writeLogTail(log, shown: parsed.value(for: "--log"), io: io)
        if pid == nil, log == nil {
            io.writeErrorLine("  Is serve running? Give --pid $! to stop waiting when it exits, and --log FILE to see what it said.")
        }
        return ExitCode.findings
    }

    /// What the ready file holds now.
    enum ReadyState: Equatable {
        case absent
        case incomplete(String)
        case stale(pid_t)
        /// Written by another running serve than `--pid` (an older one on the same path).
        case otherServer(pid_t, expected: pid_t)
        case ready(String)

        /// Why it is not ready, as the end of an error line.
        var reason: String? {
            switch self {
            case .absent: return "the file does not exist (serve has not written it)"
            case .incomplete(let why): return "the file is not a complete JSON object (\(why))"
            case .stale(let pid): return "the file names pid \(pid), which is not running (left by an earlier serve?)"
            case .otherServer(let pid, let expected):
                return "the file names pid \(pid), another serve than --pid \(expected) (an earlier serve on the same path?)"
            case .ready: return nil
            }
        }

        /// The state of the file at `path`; with `expecting` (`--pid`), a file another
        /// serve wrote is not ready (issue 39: a reused path held an older server's file).
        static func of(_ path: String, expecting expected: pid_t? = nil) -> ReadyState {
            let bytes: [UInt8]
            switch FileReader.read(path) {
            case .bytes(let read): bytes = read
            case .folder: return .incomplete("it is a folder")
            case .problem(let finding): return finding.ruleID == "file.not-found" ? .absent : .incomplete(finding.message)
            }
            guard !bytes.isEmpty else { return .incomplete("it is empty") }
            let document: JSONNode
            do throws(JSONSyntaxError) {
                document = try JSONReader.parse(bytes)
            } catch {
                return .incomplete("\(error)")
            }
            guard case .object(let members) = document.value else { return .incomplete("expected an object") }
            if let pid = pid(in: members) {
                if !WaitReadyCommand.isRunning(pid) { return .stale(pid) }
                if let expected, !WaitReadyCommand.isProcess(pid, startedBy: expected) { return .otherServer(pid, expected: expected) }
            }
            return .ready(String(decoding: bytes, as: UTF8.self))
        }

        /// The "pid" member of a ready file's object, if it is a process id.
        static func pid(in members: [JSONMember]) -> pid_t? {
            guard let member = members.first(where: { $0.key == "pid" }), case .number(let literal) = member.value.value else { return nil }
            return pid_t(literal.literal)
        }

        /// The "pid" the complete ready file at `path` names, nil when there is none.
        static func pid(inFile path: String) -> pid_t? {
            guard case .bytes(let bytes) = FileReader.read(path), let document = try? JSONReader.parse(bytes),
                  case .object(let members) = document.value else { return nil }
            return pid(in: members)
        }
    }

    /// True while `pid` is a live process (a zombie, exited but not yet reaped, is not).
    static func isRunning(_ pid: pid_t) -> Bool {
        guard kill(pid, 0) == 0 || errno == EPERM else { return false }
        #if os(Linux)
        // "PID (name) S …": the state letter follows the last ')'.
        if case .bytes(let stat) = FileReader.read("/proc/\(pid)/stat"),
           let close = stat.lastIndex(of: UInt8(ascii: ")")), close + 2 < stat.count {
            return stat[close + 2] != UInt8(ascii: "Z")
        }
        #endif
        return true
    }

    /// True when `pid` is `ancestor`, or (on Linux, through /proc) one of its descendants:
    /// `swift run contract-check serve … &` gives `$!` = swift's pid, and serve is its child.
    static func isProcess(_ pid: pid_t, startedBy ancestor: pid_t) -> Bool {
        var current = pid
        for _ in 0..<16 {
            if current == ancestor { return true }
            #if os(Linux)
            // "PID (name) S PPID …": the parent follows the state letter after the last ')'.
            guard case .bytes(let stat) = FileReader.read("/proc/\(current)/stat"),
                  let close = stat.lastIndex(of: UInt8(ascii: ")")), close + 4 < stat.count else { return false }
            let digits = stat[(close + 4)...].prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
            guard let parent = pid_t(String(decoding: digits, as: UTF8.self)), parent > 1 else { return false }
            current = parent
            #else
            return false
            #endif
        }
        return false
    }

    /// The last lines of serve's log, where its `Error: …` line is when it could not start.
    static func writeLogTail(_ location: String?, shown: String?, io: CommandIO) {
        guard let location, let shown else { return }
        guard case .bytes(let bytes) = FileReader.read(location) else {
            io.writeErrorLine("  (\(shown) cannot be read)")
            return
        }
        let lines = String(decoding: bytes.suffix(8 * 1024), as: UTF8.self).split(separator: "\n").suffix(10)
        guard !lines.isEmpty else {
            io.writeErrorLine("  (\(shown) is empty)")
            return
        }
        io.writeErrorLine("  \(shown) ends with:")
        for line in lines { io.writeErrorLine("    \(line)") }
    }

    private static func formatted(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }
}
