// serve's options for certificate-based provider authentication on FakeAPNs (issue 25):
// ServeOption.apnsClientCertificates, ServeOption.apnsTrustClientCA FILE, ServeOption.apnsAnyClientCertificate.
import FakeAPNs
import Foundation
import PushCrypto

extension ServeCommand.Options {
    /// The options that turn certificate authentication on (each needs `ServeOption.tls`).
    static let certificateOptions = ServeOption.certificateOptions.map(\.name)

    /// Reads the certificate options of `parsed` into `self`.
    /// - Throws: ``UsageError`` when one is given without `ServeOption.tls`, or a CA file path is empty.
    mutating func readCertificateOptions(_ parsed: ParsedArguments) throws(UsageError) {
        apnsClientCertificates = parsed.has(ServeOption.apnsClientCertificates)
        apnsAnyClientCertificate = parsed.has(ServeOption.apnsAnyClientCertificate)
        apnsTrustedClientCAs = parsed.values(for: ServeOption.apnsTrustClientCA)
        if let empty = apnsTrustedClientCAs.first(where: \.isEmpty) {
            throw UsageError.unusableValue(empty, option: ServeOption.apnsTrustClientCA.name, reason: "give a PEM file of CA certificates")
        }
        if !tls, let given = Self.certificateOptions.first(where: { parsed.flags.contains($0) || parsed.values[$0] != nil }) {
            throw UsageError(code: .missingArgument, message: "\(given) needs \(ServeOption.tls.name): a client certificate is asked for in the TLS handshake; add \(ServeOption.tls.name)")
        }
    }

}

extension ServeCommand {
    /// FakeAPNs' certificate authentication as the options ask, the CA files read and
    /// checked before any server starts. Under `ServeOption.tls` it is always on, trusting serve's own
    /// CA, as APNs asks every client for an optional certificate: a certificate a sender
    /// presents is always judged (issue 39); nil without `ServeOption.tls`.
    /// - Throws: ``UsageError`` naming the file and what is wrong with it (exit 64).
    static func loadClientCertificates(_ options: Options) throws(UsageError) -> APNsClientCertificates? {
        guard options.tls else { return nil }
        var authorities: [String] = []
        for path in options.apnsTrustedClientCAs {
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
                throw UsageError.unusableValue(path, option: ServeOption.apnsTrustClientCA.name, reason: "cannot read it; give a PEM file of CA certificates")
            }
            let certificates = ((try? PEMDocument.parseAll(text)) ?? []).filter { $0.label == "CERTIFICATE" }
            guard !certificates.isEmpty, certificates.allSatisfy({ (try? X509Certificate(der: $0.der)) != nil }) else {
                throw UsageError.unusableValue(path, option: ServeOption.apnsTrustClientCA.name,
                                               reason: "it holds no PEM CERTIFICATE this tool reads (P-256 or RSA); give the CA that issued the client certificates")
            }
            authorities.append(text)
        }
        return APNsClientCertificates(trustedAuthoritiesPEM: authorities, acceptsAnyIssuer: options.apnsAnyClientCertificate)
    }

}
