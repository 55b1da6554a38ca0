import Foundation

/// Runs a real HTTP/2 peer (curl, nghttp, python, node, h2spec) as a child process with a
/// deadline, for the interop and conformance suites. Output goes to a temporary file so a
/// chatty peer cannot block on a full pipe.
package enum ExternalPeer {
    /// How a peer ended: its exit status, what it printed (stdout and stderr), whether the deadline ended it.
    package struct Result {
        package var status: Int32
        package var output: String
        package var timedOut: Bool

        /// A result as a peer would give it (tests that stand in for a peer make one).
        package init(status: Int32, output: String, timedOut: Bool) {
            self.status = status
            self.output = output
            self.timedOut = timedOut
        }
    }

    /// The absolute path of `tool` on PATH, or nil (the suite is then skipped).
    package static func find(_ tool: String) -> String? {
        if tool.hasPrefix("/") { return FileManager.default.isExecutableFile(atPath: tool) ? tool : nil }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(tool)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// True when python3 (the first on PATH) runs `import <module>` (one module, or a
    /// comma-separated list as in the statement) without an error. Asked once per list for
    /// the whole test process: the suites' trait conditions ask the same few questions dozens
    /// of times, and each answer costs a python start (and, behind a version manager's shim,
    /// its scripts).
    package static func pythonHas(_ module: String) -> Bool {
        if let known = imports.answer(module) { return known }
        let answer = find("python3").map { python in
            (try? run(python, ["-c", "import \(module)"], timeout: 30).status) == 0
        } ?? false
        imports.record(answer, for: module)
        return answer
    }

    private static let imports = ImportAnswers()

    /// ``pythonHas(_:)``'s answers, under a lock (trait conditions run on any thread).
    private final class ImportAnswers: @unchecked Sendable {
        private let lock = NSLock()
        private var answers: [String: Bool] = [:]

        func answer(_ modules: String) -> Bool? {
            lock.lock()
            defer { lock.unlock() }
            return answers[modules]
        }

        func record(_ answer: Bool, for modules: String) {
            lock.lock()
            defer { lock.unlock() }
            answers[modules] = answer
        }
    }

    /// Runs `executable` with `arguments`, no standard input, ended after `timeout` seconds.
    package static func run(_ executable: String, _ arguments: [String], timeout: Double) throws -> Result {
        let outputURL = FileManager.default.temporaryDirectory.appendingPathComponent("peer-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: outputURL) }
        let handle = try FileHandle(forWritingTo: outputURL)
        defer { try? handle.close() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        var timedOut = false
        if exited.wait(timeout: .now() + timeout) == .timedOut {
            timedOut = true
            process.terminate()
            _ = exited.wait(timeout: .now() + 5)
        }
        let output = (try? String(contentsOf: outputURL, encoding: .utf8)) ?? ""
        return Result(status: process.terminationStatus, output: output, timedOut: timedOut)
    }
}
