import Foundation
import Testing
import PushTestSupport

/// h2spec (the public HTTP/2 conformance suite) against the in-process server. h2spec is
/// not part of the project: build it yourself and point `H2SPEC` at the binary, e.g.
/// `H2SPEC=/tmp/h2spec swift test --filter HTTP2ConformanceTests`.
///
/// Every case passes, 3.5/2 included: it sends `INVALID CONNECTION PREFACE\r\n\r\n`, which on
/// a port shared with HTTP/1.1 reaches the HTTP/1.1 codec; its version token is not
/// `HTTP/<digit>.<digit>`, so the connection closes without a response, as h2spec expects.
@Suite struct HTTP2ConformanceTests {
    static let h2spec = ProcessInfo.processInfo.environment["H2SPEC"].flatMap { ExternalPeer.find($0) }

    @Test(.enabled(if: h2spec != nil, "set H2SPEC to an h2spec binary to run the conformance suite"))
    func h2specPassesEveryTest() throws {
        let server = try ExternalPeer.EchoServer(maxConcurrentStreams: 100)
        defer { server.stop() }
        let result = try ExternalPeer.run(Self.h2spec ?? "h2spec",
                                          ["-S", "-h", "127.0.0.1", "-p", "\(server.server.port)", "-P", "/echo", "-o", "2", "-j",
                                           FileManager.default.temporaryDirectory.appendingPathComponent("h2spec-report.xml").path],
                                          timeout: 300)
        let summary = result.output.split(separator: "\n").first { $0.contains("tests,") } ?? "no summary"
        print("h2spec: \(summary)")
        #expect(!result.timedOut)
        let failures = result.output.components(separatedBy: "Failures:").dropFirst().first ?? ""
        #expect(!failures.contains("× "), "\(failures)")
        #expect(summary.contains("147 passed") && summary.contains("0 failed"), "\(summary)")
    }
}
