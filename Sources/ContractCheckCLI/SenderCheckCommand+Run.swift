import Foundation
import FakeAPNs
import FakeSupport
import LoopbackHTTP
import PushScenarios

extension SenderCheckCommand {
    /// The key id and team id the sender's `.p8` is registered under.
    static let keyID = "SENDCHECK1"
    static let teamID = "SENDERTEAM"

    /// Starts FakeAPNs and the sender, runs the cases, writes the report.
    /// - Returns: 0 every case passed or was skipped, 1 otherwise (or when something could not start).
    static func check(_ options: Options, io: CommandIO) async -> Int32 {
        let started = Date()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pushcontracts-sender-check-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let key = APNsSigningKey.generate()
        let environment: [String: String]
        let apns: FakeAPNs
        var tlsToRemove: LoopbackTLS?
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let tls = options.tls ? try LoopbackTLS.generated() : nil
            tlsToRemove = tls
            var configuration = FakeAPNs.Configuration()
            configuration.topics = [topic]
            configuration.tls = tls
            configuration.clientCertificates = options.authentication == .certificate ? APNsClientCertificates() : nil
            configuration.providerTokens = .verify
            configuration.payloadContract = .recordOnly
            configuration.clock = PushClock()
            apns = try await FakeAPNs.start(configuration: configuration)
            apns.registerSigningKey(key.publicKey, keyID: keyID, teamID: teamID)
            environment = try senderEnvironment(options, apns: apns, tls: tls, key: key, folder: folder)
        } catch {
            io.writeErrorLine("Error: sender-check could not start FakeAPNs: \(error)")
            return ExitCode.findings
        }
        defer { if let tlsToRemove { ServeCommand.removeGeneratedCA(tlsToRemove) } }
        let sender: SenderProcess
        do {
            sender = try SenderProcess(command: options.sender, environment: environment, timeout: options.timeout)
        } catch {
            await apns.stop()
            io.writeErrorLine("Error: cannot run /bin/sh -c '\(options.sender)': \(error)")
            return ExitCode.findings
        }
        let setup = SenderCheckSetup(apns: apns, clock: apns.configuration.clock, topic: topic,
                                     authentication: options.authentication, keyID: keyID, teamID: teamID, signingKey: key)
        let run = await SenderCheck.run(options.cases, sender: sender, setup: setup)
        sender.stop()
        await apns.stop()
        let report = SenderCheckReport(sender: options.sender, authentication: options.authentication, tls: options.tls,
                                       run: run, log: sender.log, seconds: Date().timeIntervalSince(started))
        let text: String = switch options.format {
        case "json": report.json()
        case "junit": report.junit()
        default: report.text()
        }
        if let output = options.output {
            do {
                try TextFiles.write(text, to: TextFiles.resolve(output, in: io.currentDirectory), shown: output)
            } catch {
                io.writeErrorLine("Error: cannot write \(output): \(error.reason)")
                return ExitCode.findings
            }
            if options.format != "text" { io.write(report.text()) }
        } else {
            io.write(text)
        }
        return run.passed ? ExitCode.success : ExitCode.findings
    }

    /// The variables the sender gets; writes the key, and for certificate auth the certificate, into `folder`.
    static func senderEnvironment(_ options: Options, apns: FakeAPNs, tls: LoopbackTLS?, key: APNsSigningKey,
                                  folder: String) throws -> [String: String] {
        let url = apns.baseURL.absoluteString
        var environment = ["APNS_URL": url.hasSuffix("/") ? String(url.dropLast()) : url,
                           "APNS_CA_FILE": tls?.caCertificatePath ?? "", "APNS_TOPIC": topic]
        switch options.authentication {
        case .token:
            let path = folder + "/AuthKey_\(keyID).p8"
            try writeSecret(Array(key.pemRepresentation.utf8), to: path)
            environment["APNS_KEY_FILE"] = path
            environment["APNS_KEY_ID"] = keyID
            environment["APNS_TEAM_ID"] = teamID
        case .certificate:
            guard let tls else { break }
            let certificate = try APNsClientCertificate.issue(topic: topic, environment: .development, signedBy: tls)
            let base = folder + "/" + topic
            try writeSecret(Array(certificate.certificatePEM.utf8), to: base + ".cert.pem")
            try writeSecret(Array(certificate.privateKeyPEM.utf8), to: base + ".key.pem")
            try writeSecret(certificate.pkcs12, to: base + ".p12")
            environment["APNS_CERT_FILE"] = base + ".cert.pem"
            environment["APNS_CERT_KEY_FILE"] = base + ".key.pem"
            environment["APNS_P12_FILE"] = base + ".p12"
        }
        return environment
    }

    private static func writeSecret(_ bytes: [UInt8], to path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes), attributes: [.posixPermissions: 0o600]) else {
            throw SenderMisbehaviour("cannot write \(path)")
        }
    }
}
