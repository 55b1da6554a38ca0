import Foundation
import Testing
@testable import LoopbackHTTP

/// A manual throughput probe: `LOOPBACK_HTTP_PROBE=1 swift test --filter ThroughputProbe`
/// runs wrk (if installed) for 5 s against an in-process server and prints its summary.
/// Not part of the normal run: timing belongs in Benchmarks/, not in assertions.
@Suite struct ThroughputProbe {
    @Test(.enabled(if: ProcessInfo.processInfo.environment["LOOPBACK_HTTP_PROBE"] == "1"))
    func wrkAgainstAnInProcessServer() async throws {
        let server = try HTTPServer.start { request in
            HTTPResponse(status: .noContent)
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/wrk")
        process.arguments = ["-t", "1", "-c", "32", "-d", "5s", server.baseURL.absoluteString + "/"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        print(String(decoding: data, as: UTF8.self))
        await server.stop()
        #expect(process.terminationStatus == 0)
    }
}
