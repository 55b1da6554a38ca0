import Foundation
import Dispatch
import Testing
@testable import ContractCheckCLI
import PushTestSupport

/// `contract-check wait-ready`: returns with the ready file once serve wrote it, and never
/// hangs when serve did not (timeout, or serve's process gone, with serve's own error shown).
@Suite struct WaitReadyCommandTests {
    /// The real thing: serve started in-process, wait-ready on its ready file.
    @Test func printsTheReadyFileOnceServeListens() async throws {
        let folder = try ScratchFolder(prefix: "contract-check-tests")
        defer { folder.remove() }
        let readyFile = folder.path + "/ready.json"
        let output = ServeCommandTests.Collected()
        let stop = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            _ = ServeCommand.serve(["--quiet", "--ready-file", readyFile], output: output, until: stop)
            finished.signal()
        }
        let result = runTool(["wait-ready", readyFile, "--timeout", "20", "--pid", String(getpid())])
        stop.signal()
        finished.wait()
        #expect(result.status == 0, "\(result.error)")
        let ready = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        #expect((ready["backend"] as? String)?.hasPrefix("http://127.0.0.1:") == true, "\(result.output)")
        #expect(ready["pid"] as? Int == Int(getpid()))
        #expect(output.output.contains("backend \(ready["backend"] as? String ?? "?")"))
    }

    @Test func aFileThatNeverAppearsTimesOutWithExit1() throws {
        let folder = try ScratchFolder(prefix: "contract-check-tests")
        defer { folder.remove() }
        let started = Date()
        let result = runTool(["wait-ready", folder.path + "/never.json", "--timeout", "0.3"])
        #expect(result.status == 1)
        #expect(Date().timeIntervalSince(started) < 10)
        #expect(result.errorLines.first == "Error: \(folder.path)/never.json was not ready after 0.3 s; the file does not exist (serve has not written it)",
                "\(result.error)")
        #expect(result.error.contains("Give --pid $!"))
    }

    @Test func halfAFileIsNotReady() throws {
        let folder = try ScratchFolder(prefix: "contract-check-tests")
        defer { folder.remove() }
        let path = try folder.write("ready.json", #"{"backend":"http://127.0.0.1:1"#)
        let result = runTool(["wait-ready", path, "--timeout", "0.2"])
        #expect(result.status == 1)
        #expect(result.error.contains("the file is not a complete JSON object"), "\(result.error)")
    }

    /// Serve failed to start: wait-ready stops at once (not at the timeout) and shows serve's error.
    @Test func serveThatExitedEndsTheWaitAndItsLogIsShown() throws {
        let folder = try ScratchFolder(prefix: "contract-check-tests")
        defer { folder.remove() }
        let log = try folder.write("serve.log", "Error: cannot start FakeBackend on 127.0.0.1:8080: bind(127.0.0.1:8080) failed: Address already in use (errno 98); give another --backend-port, or 0 for a free port\n")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "exit 1"]
        try process.run()
        process.waitUntilExit()
        let started = Date()
        let result = runTool(["wait-ready", folder.path + "/ready.json", "--timeout", "60",
                              "--pid", String(process.processIdentifier), "--log", log])
        #expect(result.status == 1)
        #expect(Date().timeIntervalSince(started) < 30, "did not wait for the timeout")
        #expect(result.errorLines.first?.hasPrefix("Error: serve (pid \(process.processIdentifier)) exited before \(folder.path)/ready.json was ready") == true,
                "\(result.error)")
        #expect(result.error.contains("serve.log ends with:\n    Error: cannot start FakeBackend on 127.0.0.1:8080"), "\(result.error)")
    }

    /// A file left behind by a serve that was killed names a pid that is gone: not ready.
    @Test func aStaleFileFromAnEarlierServeIsNotReady() throws {
        let folder = try ScratchFolder(prefix: "contract-check-tests")
        defer { folder.remove() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "exit 0"]
        try process.run()
        process.waitUntilExit()
        let path = try folder.write("ready.json", #"{"backend":"http://127.0.0.1:1","pid":\#(process.processIdentifier)}"#)
        let result = runTool(["wait-ready", path, "--timeout", "0.2"])
        #expect(result.status == 1)
        #expect(result.error.contains("the file names pid \(process.processIdentifier), which is not running"), "\(result.error)")
        let fresh = try folder.write("fresh.json", #"{"backend":"http://127.0.0.1:1","pid":\#(getpid())}"#)
        #expect(runTool(["wait-ready", fresh, "--timeout", "0.2"]).status == 0)
    }

    /// A `sleep` running for the test: a live process that is not serve.
    static func liveProcess() throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sleep")
        process.arguments = ["30"]
        try process.run()
        return process
    }

    /// Issue 39: with --pid, a file another running serve wrote is not ready (a reused path
    /// held an older server's file and wait-ready returned it at once).
    @Test func withPidAFileAnotherServeWroteIsNotReady() throws {
        let folder = try ScratchFolder(prefix: "contract-check-tests")
        defer { folder.remove() }
        let other = try Self.liveProcess()
        defer { kill(other.processIdentifier, SIGKILL); other.waitUntilExit() }
        // The file names this test's process; --pid names the sleep (not its parent).
        let path = try folder.write("ready.json", #"{"backend":"http://127.0.0.1:1","pid":\#(getpid())}"#)
        let result = runTool(["wait-ready", path, "--timeout", "0.3", "--pid", String(other.processIdentifier)])
        #expect(result.status == 1, "\(result.output)")
        #expect(result.error.contains("the file names pid \(getpid()), another serve than --pid \(other.processIdentifier)"), "\(result.error)")
        #expect(runTool(["wait-ready", path, "--timeout", "0.3", "--pid", String(getpid())]).status == 0)
    }

    /// Issue 39: serve removes its ready file on exit only while it is still its own.
    @Test func serveLeavesAReadyFileAnotherServeWroteSince() async throws {
        let folder = try ScratchFolder(prefix: "contract-check-tests")
        defer { folder.remove() }
        let readyFile = folder.path + "/ready.json"
        let run = try await ServeRun(["--quiet", "--no-apns"], readyFile: readyFile)
        let other = try Self.liveProcess()
        defer { kill(other.processIdentifier, SIGKILL); other.waitUntilExit() }
        let newer = #"{"backend":"http://127.0.0.1:1","pid":\#(other.processIdentifier)}"#
        _ = try folder.write("ready.json", newer)
        #expect(run.stop() == 0)
        #expect(FileManager.default.contents(atPath: readyFile).map { String(decoding: $0, as: UTF8.self) } == newer,
                "the newer serve's file is left in place")
    }

    /// Issue 39, as a script meets it: two serve processes on one ready-file path.
    /// `wait-ready --pid` of the second prints the second's file; after the first exits, the
    /// file is still there.
    @Test(.enabled(if: NewcomerEdgeTests.builtTool != nil, "needs .build/debug/contract-check"))
    func twoServesOnOneReadyFilePath() async throws {
        let folder = try ScratchFolder(prefix: "contract-check-tests")
        defer { folder.remove() }
        let readyFile = folder.path + "/ready.json"
        func start() throws -> Process {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: try #require(NewcomerEdgeTests.builtTool))
            process.arguments = ["serve", "--quiet", "--no-apns", "--ready-file", readyFile]
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            return process
        }
        let first = try start()
        defer { if first.isRunning { kill(first.processIdentifier, SIGKILL) } }
        #expect(runTool(["wait-ready", readyFile, "--timeout", "60", "--pid", String(first.processIdentifier)]).status == 0)
        let second = try start()
        defer { if second.isRunning { kill(second.processIdentifier, SIGKILL) } }
        let ready = runTool(["wait-ready", readyFile, "--timeout", "60", "--pid", String(second.processIdentifier)])
        #expect(ready.status == 0, "\(ready.error)")
        #expect(ready.output.contains("\"pid\":\(second.processIdentifier)"), "\(ready.output)")
        kill(first.processIdentifier, SIGTERM)
        first.waitUntilExit()
        let left = FileManager.default.contents(atPath: readyFile).map { String(decoding: $0, as: UTF8.self) }
        #expect(left?.contains("\"pid\":\(second.processIdentifier)") == true, "the second serve's file is still there: \(left ?? "gone")")
        try await NewcomerEdgeTests.expectCleanStop(second, after: SIGTERM, readyFile: readyFile)
    }

    @Test(arguments: [
        (["wait-ready"], "Error: missing expected argument 'FILE'"),
        (["wait-ready", "a.json", "b.json"], "Error: unexpected argument 'b.json'; wait-ready waits for one file."),
        (["wait-ready", "a.json", "--timeout", "soon"], "Error: invalid value 'soon' for '--timeout': expected a number of seconds from 0 to 86400, e.g. 10"),
        (["wait-ready", "a.json", "--pid", "0"], "Error: invalid value '0' for '--pid': out of range; expected a process id"),
    ])
    func usageErrorsExit64(arguments: [String], expected: String) {
        let result = runTool(arguments)
        #expect(result.status == 64)
        #expect(result.errorLines.first?.hasPrefix(expected) == true, "\(result.error)")
        #expect(result.errorLines.dropFirst().first == "Usage: contract-check wait-ready FILE [--timeout SECONDS] [--pid PID] [--log FILE]")
    }
}
