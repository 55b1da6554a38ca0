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

extension ThroughputProbe {
    /// Median time from `start()` to a listening, serving server, over 200 starts.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["LOOPBACK_HTTP_PROBE"] == "1"))
    func startToReady() throws {
        var samples: [Double] = []
        for _ in 0..<200 {
            let began = DispatchTime.now().uptimeNanoseconds
            let server = try HTTPServer.start(handler: echoHandler)
            samples.append(Double(DispatchTime.now().uptimeNanoseconds - began) / 1e6)
            server.stop()
        }
        samples.sort()
        print("HTTPServer.start median \(samples[samples.count / 2]) ms, p90 \(samples[samples.count * 9 / 10]) ms")
        #expect(samples.count == 200)
    }
}
