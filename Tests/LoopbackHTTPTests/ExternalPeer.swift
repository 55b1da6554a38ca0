@testable import PushCore
import Foundation
@testable import LoopbackHTTP

/// Runs a real HTTP/2 peer (curl, nghttp, python, node, h2spec) as a child process with a
/// deadline, for the interop and conformance suites. Output goes to a temporary file so a
/// chatty peer cannot block on a full pipe.
enum ExternalPeer {
    struct Result {
        var status: Int32
        var output: String
        var timedOut: Bool
    }

    /// The absolute path of `tool` on PATH, or nil (the suite is then skipped).
    static func find(_ tool: String) -> String? {
        if tool.hasPrefix("/") { return FileManager.default.isExecutableFile(atPath: tool) ? tool : nil }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(tool)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// True when `python3 -c "import <module>"` succeeds.
    static func pythonHas(_ module: String) -> Bool {
        guard let python = find("python3") else { return false }
        return (try? run(python, ["-c", "import \(module)"], timeout: 30).status) == 0
    }

    static func run(_ executable: String, _ arguments: [String], timeout: Double) throws -> Result {
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

    /// A server whose handler echoes `path:body` and records which connections carried requests.
    final class EchoServer: Sendable {
        let server: HTTPServer
        let connections = Locked<[UInt64: Int]>([:])

        init(maxConcurrentStreams: Int = 1000) throws {
            var configuration = HTTPServerConfiguration()
            configuration.http2.maxConcurrentStreams = maxConcurrentStreams
            let connections = self.connections
            server = try HTTPServer.start(configuration: configuration) { request in
                connections.withLock { $0[request.connectionID, default: 0] += 1 }
                let body = request.method == "POST" ? request.body : Array("hello".utf8)
                return HTTPResponse(status: .ok, headers: ["content-type": "text/plain", "x-version": request.version.rawValue],
                                    body: Array("\(request.pathWithoutQuery):".utf8) + body + [0x0a])
            }
        }

        var url: String { "http://127.0.0.1:\(server.port)" }
        func stop() { server.stop() }
    }
}
