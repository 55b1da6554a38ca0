// serve's options for certificate-based provider authentication on FakeAPNs (issue 25):
// --apns-client-certificates, --apns-trust-client-ca FILE, --apns-any-client-certificate.
import FakeAPNs
import Foundation
import PushCrypto

extension ServeCommand.Options {
    /// The options that turn certificate authentication on (each needs `--tls`).
    static let certificateOptions = ["--apns-client-certificates", "--apns-trust-client-ca", "--apns-any-client-certificate"]

    /// Reads the certificate options of `parsed` into `self`.
    /// - Throws: ``UsageError`` when one is given without `--tls`, or a CA file path is empty.
    mutating func readCertificateOptions(_ parsed: ParsedArguments) throws(UsageError) {
        apnsClientCertificates = parsed.flags.contains("--apns-client-certificates")
        apnsAnyClientCertificate = parsed.flags.contains("--apns-any-client-certificate")
        apnsTrustedClientCAs = parsed.values["--apns-trust-client-ca"] ?? []
        if let empty = apnsTrustedClientCAs.first(where: \.isEmpty) {
            throw UsageError.unusableValue(empty, option: "--apns-trust-client-ca", reason: "give a PEM file of CA certificates")
        }
        if !tls, let given = Self.certificateOptions.first(where: { parsed.flags.contains($0) || parsed.values[$0] != nil }) {
            throw UsageError(code: .missingArgument, message: "\(given) needs --tls: a client certificate is asked for in the TLS handshake; add --tls")
        }
    }

}

extension ServeCommand {
    /// FakeAPNs' certificate authentication as the options ask, the CA files read and
    /// checked before any server starts. Under `--tls` it is always on, trusting serve's own
    /// CA, as APNs asks every client for an optional certificate: a certificate a sender
    /// presents is always judged (issue 39); nil without `--tls`.
    /// - Throws: ``UsageError`` naming the file and what is wrong with it (exit 64).
    static func loadClientCertificates(_ options: Options) throws(UsageError) -> APNsClientCertificates? {
        guard options.tls else { return nil }
        var authorities: [String] = []
        for path in options.apnsTrustedClientCAs {
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
                throw UsageError.unusableValue(path, option: "--apns-trust-client-ca", reason: "cannot read it; give a PEM file of CA certificates")
            }
            let certificates = ((try? PEMDocument.parseAll(text)) ?? []).filter { $0.label == "CERTIFICATE" }
            guard !certificates.isEmpty, certificates.allSatisfy({ (try? X509Certificate(der: $0.der)) != nil }) else {
                throw UsageError.unusableValue(path, option: "--apns-trust-client-ca",
                                               reason: "it holds no PEM CERTIFICATE this tool reads (P-256 or RSA); give the CA that issued the client certificates")
            }
            authorities.append(text)
        }
        return APNsClientCertificates(trustedAuthoritiesPEM: authorities, acceptsAnyIssuer: options.apnsAnyClientCertificate)
    }

    /// `--help` lines of the certificate options.
    static let certificateOptionSpecs: [OptionSpec] = [
        OptionSpec("--apns-client-certificates",
                   help: "With --tls: the default, kept for scripts: FakeAPNs asks every client for an optional APNs client certificate, trusting the CA of --tls; see Docs/readme/certificates.md."),
        OptionSpec("--apns-trust-client-ca", valueName: "FILE", isRepeatable: true,
                   help: "With --tls: as --apns-client-certificates, also trusting the CA certificates in FILE (PEM), e.g. Apple's for a team's real certificate; repeat for more."),
        OptionSpec("--apns-any-client-certificate",
                   help: "With --tls: as --apns-client-certificates, accepting a certificate from any issuer (local development only; key possession, dates and Apple's topics and markers are still checked)."),
    ]
}
