import Foundation
import Dispatch
import Testing
@testable import ContractCheckCLI
import PushTestSupport

/// `contract-check serve --tls`: https URLs for the fakes, plain admin, a `ca PATH` line and
/// ready-file member, a CA kept in `--tls-ca-dir` between runs, and curl trusting only it.
@Suite struct ServeTLSTests {
    static let curl = ExternalPeer.find("curl")

    /// curl's HTTP version and status code for `url`, trusting only `caFile`.
    static func status(_ url: String, caFile: String) throws -> String {
        try ServeRun.curl(["-sS", "--max-time", "20", "--cacert", caFile, "-o", "/dev/null", "-w", "%{http_version} %{http_code}", url])
    }

    @Test(.enabled(if: curl != nil, "curl is not installed"))
    func servesTLSWithACAKeptBetweenRuns() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("serve-tls-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var certificates: [String] = []
        for _ in 0..<2 {
            let run = try await ServeRun(["--tls", "--tls-ca-dir", directory, "--quiet"])
            #expect(run.backend.hasPrefix("https://127.0.0.1:"))
            #expect(run.apns.hasPrefix("https://127.0.0.1:"))
            #expect(run.admin.hasPrefix("http://127.0.0.1:"))
            let caFile = "\(directory)/ca.pem"
            #expect(run.output.output.contains("ca \(caFile)"), "\(run.output.output)")
            let apnsPort = try #require(URL(string: run.apns)?.port)
            // Apple's host name, resolved to the fake: what an /etc/hosts mapping does.
            let apnsAnswer = try Self.status("https://localhost:\(apnsPort)/3/device/ab", caFile: caFile)
            #expect(apnsAnswer.hasPrefix("2 4"), "HTTP/2 over TLS and an APNs error status: \(apnsAnswer)")
            let backendAnswer = try Self.status(run.backend + "/v1/devices/ab", caFile: caFile)
            #expect(backendAnswer.hasPrefix("2 4"), "\(backendAnswer)")
            certificates.append(try String(contentsOfFile: caFile, encoding: .utf8))
            #expect(run.stop() == 0)
        }
        #expect(certificates[0] == certificates[1], "the second run reuses the CA")
        #expect(certificates[0].hasPrefix("-----BEGIN CERTIFICATE-----"))
    }

    @Test func anUnusableCADirectoryExits64() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("not-a-dir-\(UUID().uuidString)").path
        _ = FileManager.default.createFile(atPath: file, contents: Data("x".utf8))
        defer { try? FileManager.default.removeItem(atPath: file) }
        let output = ServeCommandTests.Collected()
        #expect(ServeCommand.serve(["--tls", "--tls-ca-dir", file], output: output, until: ServeCommandTests.stopAtOnce()) == 64)
        #expect(output.errorOutput.first?.contains("is not a directory") == true, "\(output.errorOutput)")
    }

    @Test func caDirectoryWithoutTLSIsAUsageError() {
        let output = ServeCommandTests.Collected()
        #expect(ServeCommand.serve(["--tls-ca-dir", "/tmp"], output: output, until: ServeCommandTests.stopAtOnce()) == 64)
        #expect(output.errorOutput.first?.contains("add --tls") == true, "\(output.errorOutput)")
    }
}
