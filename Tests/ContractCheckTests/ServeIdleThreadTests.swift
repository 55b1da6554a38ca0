import Foundation
import Testing
@testable import ContractCheckCLI
import PushTestSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Issue 27, idle footprint: an idle `serve` keeps no thread that only waits. The main thread
/// waits for the stop signal itself (`sigwait`, no dispatch signal source and the manager
/// thread libdispatch kept for it), and the live log's writer thread starts with the first
/// line. What is left: the main thread and one loop thread per server.
@Suite struct ServeIdleThreadTests {
    #if os(Linux)
    /// The names of the process's threads (`/proc/PID/task/*/comm`), sorted.
    static func threadNames(of pid: Int32) -> [String] {
        let folder = "/proc/\(pid)/task"
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return tasks.compactMap { task in
            (try? String(contentsOfFile: "\(folder)/\(task)/comm", encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines)
        }.sorted()
    }

    /// Idle serve with its defaults (both fakes, the admin API, the live log): the main thread
    /// and three loop threads. A request starts the log's writer, which writes its line; then
    /// SIGTERM, waited for by the main thread, stops serve cleanly (exit 0, ready file removed).
    @Test(.enabled(if: NewcomerEdgeTests.builtTool != nil, "needs .build/debug/contract-check"))
    func idleServeRunsOnlyItsLoopThreadsAndTheMainThread() async throws {
        let folder = try ScratchFolder(prefix: "contract-check-tests")
        defer { folder.remove() }
        let readyFile = folder.path + "/ready.json"
        let logFile = folder.path + "/serve.log"
        #expect(FileManager.default.createFile(atPath: logFile, contents: nil))
        let log = try #require(FileHandle(forWritingAtPath: logFile))
        defer { try? log.close() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(NewcomerEdgeTests.builtTool))
        process.arguments = ["serve", "--ready-file", readyFile]
        process.standardOutput = log
        process.standardError = log
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        let pid = process.processIdentifier
        let ready = runTool(["wait-ready", readyFile, "--timeout", "60", "--pid", String(pid)])
        try #require(ready.status == 0, "\(ready.error)")

        let idle = Self.threadNames(of: pid)
        #expect(idle.count == 4, "\(idle)")
        #expect(idle.filter { $0 == "LoopbackHTTP" }.count == 3, "\(idle)")  // LoopThread.threadName

        // The first request's log line starts the writer thread, and is written.
        let readyText = try String(contentsOfFile: readyFile, encoding: .utf8)
        let backend = try #require(readyText.firstMatch(of: /"backend":"([^"]+)"/)?.1)
        let status = try await ServeRun.curl(["-s", "--max-time", "10", "-o", "/dev/null", "-w", "%{http_code}", "\(backend)/v1/nothing-here"])
        #expect(status == "404", "curl: \(status)")
        var logged = false
        // The writer names its thread from inside, so the name is not checked here: once, in
        // the full suite on the poll backend, the fifth thread still read "LoopbackHTTP" after
        // 10 s (see LiveLogWriterTests for the writer's start).
        for _ in 0..<3000 {
            let text = (try? String(contentsOfFile: logFile, encoding: .utf8)) ?? ""
            if text.contains("/v1/nothing-here") && Self.threadNames(of: pid).count == 5 {
                logged = true
                break
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(logged, "the request's line and a fifth thread (the log writer): \(Self.threadNames(of: pid))")

        try await NewcomerEdgeTests.expectCleanStop(process, after: SIGTERM, readyFile: readyFile)
    }
    #endif
}
