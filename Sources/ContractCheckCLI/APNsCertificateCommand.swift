import FakeAPNs
import Foundation

/// `contract-check apns-certificate --topic BUNDLE_ID`: issues an APNs client certificate from
/// the CA that serve with TLS keeps in its CA folder (`ServeOption.tls`, `ServeOption.tlsCADir`) uses, so a sender configured for certificate
/// authentication connects to that serve unchanged but for the host and the CA it trusts.
///
/// ```
/// $ contract-check apns-certificate --topic com.example.app --out certs --password secret
/// wrote certs/com.example.app.cert.pem (Apple Push Services: com.example.app, development, valid until 2027-12-02)
/// ```
enum APNsCertificateCommand: Subcommand {
    static let name = "apns-certificate"

    static let help = CommandHelp(
        abstract: "Issue an APNs client certificate (PEM, key, .p12) from serve \(ServeOption.tls.name)'s CA.",
        usage: "apns-certificate --topic BUNDLE_ID [--environment development|production|both] [--out DIR] [--password P] [\(ServeOption.tlsCADir.name) DIR] [--days N]",
        options: [
            OptionSpec("--topic", valueName: "BUNDLE_ID", help: "The app's bundle id: the subject UID and the certificate's topics."),
            OptionSpec("--environment", valueName: "ENV", allowedValues: APNsClientCertificate.Environment.allCases.map(\.rawValue),
                       help: "development (default), production or both: which APNs the certificate is for."),
            OptionSpec("--out", valueName: "DIR", help: "Write the three files in DIR (default: the current folder; created if absent)."),
            OptionSpec("--password", valueName: "P", help: "Encrypt the .p12 with P (default: an empty password)."),
            OptionSpec(ServeOption.tlsCADir.name, valueName: "DIR", help: "The CA to sign with, as given to serve \(ServeOption.tls.name) \(ServeOption.tlsCADir.name) (default: the --out folder; created on first use)."),
            OptionSpec("--days", valueName: "N", help: "Valid for N days from now, 1 to 3650 (default 365)."),
        ],
        discussion: """
            FILES: BUNDLE_ID.cert.pem (the certificate), BUNDLE_ID.key.pem (its P-256 key,
            unencrypted PKCS#8, mode 0600) and BUNDLE_ID.p12 (both, PBES2 AES-256-CBC with an
            HMAC-SHA256 MAC, as OpenSSL 3 writes). Existing files of those names are replaced.
            The certificate is shaped like Apple's: subject UID = BUNDLE_ID, CN "Apple Push
            Services: BUNDLE_ID", topics BUNDLE_ID, BUNDLE_ID.voip, BUNDLE_ID.complication, and
            the development and/or production markers. Test-only: keys are written in the clear.

            EXIT STATUS: 0 written, 64 usage error (no --topic, a topic that is not a bundle id,
            --days out of range), 1 a file or the CA could not be written or read.

            EXAMPLE:
              contract-check apns-certificate --topic com.example.app --out certs --password secret
              contract-check serve \(ServeOption.tls.name) \(ServeOption.tlsCADir.name) certs
              curl --cacert certs/ca.pem --cert certs/com.example.app.cert.pem --key certs/com.example.app.key.pem ...
            """)

    static func run(_ arguments: [String], io: CommandIO) -> Int32 {
        let parsed: ParsedArguments
        switch parse(arguments, io: io) {
        case .run(let arguments): parsed = arguments
        case .exit(let code): return code
        }
        if let extra = parsed.positionals.first {
            return reportUsageError(.unexpectedArgument(extra, hint: "give the bundle id with --topic."), io: io)
        }
        guard let topic = parsed.value(for: "--topic") else { return reportUsageError(.missingArgument("--topic BUNDLE_ID"), io: io) }
        if let problem = APNsClientCertificate.topicProblem(topic) {
            return reportUsageError(.unusableValue(topic, option: "--topic", reason: problem), io: io)
        }
        let environment = parsed.value(for: "--environment").flatMap(APNsClientCertificate.Environment.init(rawValue:)) ?? .development
        var days = APNsClientCertificate.defaultValidDays
        if let text = parsed.value(for: "--days") {
            guard let value = Int(text), (1...APNsClientCertificate.maximumValidDays).contains(value) else {
                return reportUsageError(.invalidValue(text, option: "--days", expected: "a whole number of days from 1 to 3650, e.g. 365",
                                                      outOfRange: Int(text) != nil), io: io)
            }
            days = value
        }
        for option in ["--out", ServeOption.tlsCADir.name] {
            if let value = parsed.value(for: option), value.isEmpty {
                return reportUsageError(.unusableValue(value, option: option, reason: "give a directory"), io: io)
            }
        }
        let shownOut = parsed.value(for: "--out") ?? "."
        let out = TextFiles.resolve(shownOut, in: io.currentDirectory)
        let shownCA = parsed.value(for: ServeOption.tlsCADir) ?? shownOut
        let caDirectory = TextFiles.resolve(shownCA, in: io.currentDirectory)
        do {
            try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        } catch {
            io.writeErrorLine("Error: cannot create \(shownOut): \(error.localizedDescription)")
            return ExitCode.findings
        }
        let certificate: APNsClientCertificate
        do {
            certificate = try APNsClientCertificate.issue(topic: topic, environment: environment, caDirectory: caDirectory,
                                                          validDays: days, pkcs12Password: parsed.value(for: "--password") ?? "")
        } catch {
            io.writeErrorLine("Error: \(ServeOption.tlsCADir.name) \(shownCA): \(error.message)")
            return ExitCode.findings
        }
        let files: [(name: String, bytes: [UInt8], secret: Bool)] = [
            ("\(topic).cert.pem", Array(certificate.certificatePEM.utf8), false),
            ("\(topic).key.pem", Array(certificate.privateKeyPEM.utf8), true),
            ("\(topic).p12", certificate.pkcs12, true),
        ]
        for file in files {
            let path = TextFiles.resolve(file.name, in: out)
            // Replace, then restrict before anything is written: the key is never world-readable.
            try? FileManager.default.removeItem(atPath: path)
            guard FileManager.default.createFile(atPath: path, contents: Data(file.bytes),
                                                 attributes: [.posixPermissions: file.secret ? 0o600 : 0o644]) else {
                io.writeErrorLine("Error: cannot write \(TextFiles.resolve(file.name, in: shownOut)); is \(shownOut) writable?")
                return ExitCode.findings
            }
        }
        let until = ISO8601DateFormatter.string(from: certificate.notAfter, timeZone: TimeZone(identifier: "UTC") ?? .current,
                                                formatOptions: [.withFullDate])
        io.writeLine("wrote \(TextFiles.resolve(files[0].name, in: shownOut)) (Apple Push Services: \(topic), \(environment.rawValue), valid until \(until))")
        io.writeLine("wrote \(TextFiles.resolve(files[1].name, in: shownOut))")
        io.writeLine("wrote \(TextFiles.resolve(files[2].name, in: shownOut)) (password: \(parsed.value(for: "--password").map { $0.isEmpty ? "empty" : "as given" } ?? "empty"))")
        io.writeLine("signed by \(TextFiles.resolve("ca.pem", in: shownCA)); 'contract-check serve \(ServeOption.tls.name) \(ServeOption.tlsCADir.name) \(shownCA)' trusts it")
        return ExitCode.success
    }
}
