import Foundation
import Dispatch
import Testing
@testable import ContractCheckCLI

/// `contract-check serve --tls --apns-client-certificates` (issue 25): curl presenting a
/// certificate that openssl issued from the CA in `--tls-ca-dir` reaches FakeAPNs without a
/// provider token; the admin journal and the log name the certificate; the options' misuse
/// exits 64.
@Suite struct ServeCertificateTests {
    static let tools = ["curl", "openssl"].allSatisfy { tool in
        ["/usr/bin/", "/usr/local/bin/"].contains { FileManager.default.isExecutableFile(atPath: $0 + tool) }
    }

    static func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [executable] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// An Apple-style push certificate for com.example.app (one topic, UID, the given
    /// environment marker), issued by openssl from the serve's CA; returns (cert, key) paths.
    static func issue(in directory: String, name: String, marker: String) throws -> (String, String) {
        let cert = "\(directory)/\(name).pem", key = "\(directory)/\(name)-key.pem"
        let topics = "30110c0f" + Array("com.example.app".utf8).map { String(format: "%02x", $0) }.joined()
        let result = try run("openssl", [
            "req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", key,
            "-subj", "/UID=com.example.app/CN=Apple Push Services: com.example.app", "-x509",
            "-CA", "\(directory)/ca.pem", "-CAkey", "\(directory)/ca-key.pem", "-days", "30",
            "-addext", "extendedKeyUsage=clientAuth", "-addext", "\(marker)=DER:0500",
            "-addext", "1.2.840.113635.100.6.3.6=DER:\(topics)", "-out", cert,
        ])
        #expect(result.status == 0, "\(result.output)")
        return (cert, key)
    }

    /// curl's status and body for a push presenting `cert`/`key`, no authorization, no topic.
    static func push(_ apns: String, cert: String, key: String, caFile: String) throws -> String {
        try ServeRun.curl(["-sS", "--max-time", "20", "--cacert", caFile, "--cert", cert, "--key", key,
                           "-w", " %{http_code}", "-H", "apns-push-type: alert", "-d", #"{"aps":{"alert":"hi"}}"#,
                           apns + "/3/device/" + String(repeating: "c4", count: 32)])
    }

    @Test(.enabled(if: tools, "curl or openssl is not installed"))
    func curlWithACertificateReachesFakeAPNsWithoutAToken() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("serve-cert-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // --apns-key makes tokens checked: the certificate is what lets the push in.
        let keyFile = "\(directory)-AuthKey.p8"
        #expect(try Self.run("openssl", ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", keyFile]).status == 0)
        defer { try? FileManager.default.removeItem(atPath: keyFile) }
        let run = try await ServeRun(["--tls", "--tls-ca-dir", directory, "--apns-client-certificates", "--apns-any-token",
                                      "--apns-key", "KEY1234567:TEAM123456:\(keyFile)"])
        defer { _ = run.stop() }
        let caFile = "\(directory)/ca.pem"
        let (development, developmentKey) = try Self.issue(in: directory, name: "dev", marker: "1.2.840.113635.100.6.3.1")
        let (production, productionKey) = try Self.issue(in: directory, name: "prod", marker: "1.2.840.113635.100.6.3.2")

        let accepted = try Self.push(run.apns, cert: development, key: developmentKey, caFile: caFile)
        #expect(accepted.hasSuffix(" 200"), "\(accepted)")
        let wrongEnvironment = try Self.push(run.apns, cert: production, key: productionKey, caFile: caFile)
        #expect(wrongEnvironment.contains("BadCertificateEnvironment") && wrongEnvironment.hasSuffix(" 403"), "\(wrongEnvironment)")
        let noCertificate = try await ServeRun.curl(["-sS", "--max-time", "20", "--cacert", caFile, "-w", " %{http_code}",
                                               "-d", "{}", run.apns + "/3/device/" + String(repeating: "c4", count: 32)])
        #expect(noCertificate.contains("MissingProviderToken") && noCertificate.hasSuffix(" 403"), "\(noCertificate)")

        let line = try await run.waitForLine { $0.contains("certificate=com.example.app/") }
        #expect(line?.contains("/development") == true, "\(run.output.output)")
        let journal = try await run.send("GET", run.admin + "/apns/journal")
        let page = try JSONSerialization.jsonObject(with: Data(journal.body.utf8)) as? [String: Any]
        let certificates = (page?["entries"] as? [[String: Any]] ?? []).map { $0["certificate"] as? [String: String] }
        #expect(certificates.count == 3, "\(journal.body)")
        #expect(certificates.first??["subject"] == "com.example.app" && certificates.first??["environment"] == "development", "\(journal.body)")
        #expect(certificates.dropFirst().first??["environment"] == "production", "the refused certificate is journaled too: \(journal.body)")
        #expect(certificates.last == .some(nil), "no certificate, no member: \(journal.body)")
    }

    /// Issue 39: the certificate recipe of certificates.md, its `serve` line with
    /// `--apns-any-token` and no certificate flag. A certificate presented is judged: a
    /// development one to api.push.apple.com → 403 BadCertificateEnvironment, to the sandbox
    /// host → 200; a sender with no certificate goes on with its token (unchecked here).
    @Test(.enabled(if: tools, "curl or openssl is not installed"))
    func theRecipesServeLineJudgesACertificateWithoutACertificateFlag() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("serve-recipe-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let issued = runTool(["apns-certificate", "--topic", "com.example.app", "--environment", "development",
                              "--out", "certs", "--password", "secret"], in: folder)
        #expect(issued.status == 0, "\(issued.error)")
        let certs = "\(folder)/certs"
        let run = try await ServeRun(["--tls", "--tls-ca-dir", certs, "--apns-topic", "com.example.app", "--apns-any-token"])
        defer { _ = run.stop() }
        let port = try #require(URL(string: run.apns)?.port, "\(run.output.output)")
        func push(host: String, certificate: Bool) throws -> String {
            let credentials = certificate ? ["--cert", "\(certs)/com.example.app.cert.pem", "--key", "\(certs)/com.example.app.key.pem"]
                                          : ["-H", "authorization: bearer unchecked"]
            return try ServeRun.curl(["-sS", "--max-time", "20", "--cacert", "\(certs)/ca.pem", "--connect-to", "\(host):\(port):127.0.0.1:\(port)",
                                      "-w", " %{http_code}", "-H", "apns-topic: com.example.app", "-H", "apns-push-type: alert",
                                      "-d", #"{"aps":{"alert":"hi"}}"#] + credentials
                                     + ["https://\(host):\(port)/3/device/" + String(repeating: "c4", count: 32)])
        }
        let production = try push(host: "api.push.apple.com", certificate: true)
        #expect(production.contains("BadCertificateEnvironment") && production.hasSuffix(" 403"), "\(production)")
        let sandbox = try push(host: "api.sandbox.push.apple.com", certificate: true)
        #expect(sandbox.hasSuffix(" 200"), "\(sandbox)")
        let tokenOnly = try push(host: "api.push.apple.com", certificate: false)
        #expect(tokenOnly.hasSuffix(" 200"), "a sender without a certificate goes on with its token: \(tokenOnly)")
    }

    @Test(arguments: ["--apns-client-certificates", "--apns-any-client-certificate"])
    func aCertificateOptionWithoutTLSExits64(_ option: String) {
        let output = ServeCommandTests.Collected()
        #expect(ServeCommand.serve([option], output: output, until: ServeCommandTests.stopAtOnce()) == 64)
        #expect(output.errorOutput.first?.contains("\(option) needs --tls") == true, "\(output.errorOutput)")
    }

    @Test func aClientCAFileThatIsNotACertificateExits64() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("not-a-ca-\(UUID().uuidString).pem").path
        _ = FileManager.default.createFile(atPath: file, contents: Data("not a certificate".utf8))
        defer { try? FileManager.default.removeItem(atPath: file) }
        let output = ServeCommandTests.Collected()
        #expect(ServeCommand.serve(["--tls", "--apns-trust-client-ca", file], output: output, until: ServeCommandTests.stopAtOnce()) == 64)
        #expect(output.errorOutput.first?.contains("holds no PEM CERTIFICATE") == true, "\(output.errorOutput)")
        let missing = ServeCommandTests.Collected()
        #expect(ServeCommand.serve(["--tls", "--apns-trust-client-ca", file + ".absent"], output: missing, until: ServeCommandTests.stopAtOnce()) == 64)
        #expect(missing.errorOutput.first?.contains("cannot read it") == true, "\(missing.errorOutput)")
    }

    @Test func helpListsTheCertificateOptions() {
        let text = ServeCommand.help.rendered(toolName: "contract-check")
        for option in ServeCommand.Options.certificateOptions { #expect(text.contains(option), "\(option)") }
    }
}
