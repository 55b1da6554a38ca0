import Foundation

/// Runs another program and collects its exit status and output: `git` for
/// `breaking --against git:REF:PATH`, `xcrun simctl` for `serve ServeOption.forwardToSimulator`.
///
/// The one place the CLI starts processes. `Foundation.Process` exists on macOS and Linux but
/// not on iOS, tvOS, watchOS or visionOS, where the package's libraries must still build;
/// there this answers with status 127 and says why (the CLI is a macOS and Linux tool).
enum ChildProcess {
    struct Outcome: Sendable {
        var status: Int32
        var output: String
        var error: String
    }

    /// Runs `arguments[0]` (looked up on `PATH` by `/usr/bin/env`) and waits for it.
    /// - Parameters:
    ///   - directory: the working directory; nil keeps the current one.
    ///   - environment: the child's environment; nil inherits this process's.
    static func run(_ arguments: [String], in directory: String? = nil,
                    environment: [String: String]? = nil) -> Outcome {
        #if os(macOS) || os(Linux)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        if let environment { process.environment = environment }
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        do { try process.run() } catch {
            return Outcome(status: 127, output: "", error: "cannot run \(arguments.first ?? "a program"): \(error)")
        }
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Outcome(status: process.terminationStatus, output: String(decoding: outputData, as: UTF8.self),
                       error: String(decoding: errorData, as: UTF8.self))
        #else
        return Outcome(status: 127, output: "", error: "cannot run \(arguments.first ?? "a program"): this platform has no child processes")
        #endif
    }

    /// The full path of the executable `name` on `environment`'s `PATH`, or nil when none of
    /// its folders holds one: asked once up front, so a missing tool is said once.
    static func find(_ name: String, environment: [String: String]) -> String? {
        let path = environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":", omittingEmptySubsequences: true) {
            let candidate = String(folder) + (folder.hasSuffix("/") ? "" : "/") + name
            if access(candidate, X_OK) == 0, !TextFiles.isExistingFolder(candidate) { return candidate }
        }
        return nil
    }
}
