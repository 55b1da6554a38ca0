// Certificate-based provider authentication: which client certificates FakeAPNs trusts, and
// what it reads from one (Apple's topics, environment markers, subject UID, serial).
import FakeSupport
import Foundation
import LoopbackHTTP
import PushCrypto

/// Certificate-based provider authentication on FakeAPNs' TLS port (off unless set on
/// ``FakeAPNs/Configuration/clientCertificates``; it needs ``FakeAPNs/Configuration/tls``).
///
/// The fake then asks every TLS client for a certificate, as APNs does. A client that sends
/// none goes on with provider tokens; one that sends a certificate must prove it holds its
/// key (CertificateVerify) and is answered as APNs answers a certificate connection: no
/// `authorization` header needed, topics from the certificate, 403 `BadCertificate` or
/// `BadCertificateEnvironment` when the certificate does not fit. The fake's own CA
/// (`LoopbackTLS.caCertificatePEM`) is always trusted.
///
/// ```swift
/// var configuration = FakeAPNs.Configuration()
/// configuration.tls = try LoopbackTLS.generated()
/// configuration.clientCertificates = APNsClientCertificates()
/// ```
///
/// Test-only: it protects nothing.
public struct APNsClientCertificates: Sendable, Hashable {
    /// More CA certificates (PEM, one or several per string) a client certificate may chain
    /// to: e.g. Apple's "Apple Worldwide Developer Relations" intermediate, so a team's real
    /// (RSA 2048) push certificate connects unchanged.
    public var trustedAuthoritiesPEM: [String]
    /// Accept a certificate whatever CA issued it (local development only). The client must
    /// still prove it holds the key, the dates must hold, and the certificate must look like
    /// a push certificate (topics and environment markers).
    public var acceptsAnyIssuer: Bool

    /// Certificate authentication trusting the fake's CA, `trustedAuthoritiesPEM`, and with
    /// `acceptsAnyIssuer` any issuer at all.
    public init(trustedAuthoritiesPEM: [String] = [], acceptsAnyIssuer: Bool = false) {
        self.trustedAuthoritiesPEM = trustedAuthoritiesPEM
        self.acceptsAnyIssuer = acceptsAnyIssuer
    }

    /// The TLS layer's policy: the fake's CA and the configured ones, dates on `clock`.
    func tlsPolicy(fakeAuthorityPEM: String, clock: PushClock) throws -> TLSClientAuthentication {
        var authorities: [[UInt8]] = []
        for pem in [fakeAuthorityPEM] + trustedAuthoritiesPEM {
            let documents = try PEMDocument.parseAll(pem).filter { $0.label == "CERTIFICATE" }
            guard !documents.isEmpty else {
                throw PushFakeError.cannotListen("a trusted client CA holds no PEM CERTIFICATE block")
            }
            authorities += documents.map(\.der)
        }
        return try TLSClientAuthentication(trustedAuthorities: authorities, clock: { clock.now })
    }
}

/// The client certificate a request came with, as the journal, the admin API and `serve`'s
/// log show it.
public struct APNsCertificateIdentity: Sendable, Hashable, Encodable {
    /// The subject's UID (Apple: the bundle id), or its common name when it has no UID.
    public var subject: String?
    /// The serial number, lowercase hex.
    public var serial: String
    /// `development`, `production` or `both` (Apple's markers), nil when it has neither.
    public var environment: String?
}

/// What FakeAPNs reads from a presented client certificate.
struct APNsProviderCertificate {
    let certificate: TLSClientCertificate

    var identity: APNsCertificateIdentity {
        APNsCertificateIdentity(subject: certificate.subjectUserID ?? certificate.subjectCommonName,
                                serial: certificate.serialHex, environment: certificate.appleEnvironment?.rawValue)
    }

    /// The topics it may push to: its topics extension, else its subject UID (older
    /// single-topic certificates).
    var topics: [String] {
        let listed = certificate.appleTopics
        if !listed.isEmpty { return listed }
        return certificate.subjectUserID.map { [$0] } ?? []
    }

    /// Whether its extended key usage allows TLS client authentication: no extension (RFC
    /// 5280: any use), or one listing clientAuth or anyExtendedKeyUsage.
    var allowsClientAuthentication: Bool {
        guard let value = certificate.certificate.extensionValue("2.5.29.37") else { return true }
        var outer = DERReader(value)
        guard var list = try? DERReader(outer.read(DERTag.sequence, "ExtKeyUsageSyntax")) else { return false }
        while !list.isAtEnd {
            guard let oid = try? list.read(DERTag.objectIdentifier, "KeyPurposeId") else { return false }
            if Array(oid) == DEROID.clientAuthentication || Array(oid) == Self.anyExtendedKeyUsage { return true }
        }
        return false
    }

    static let anyExtendedKeyUsage: [UInt8] = [0x55, 0x1d, 0x25, 0x00]

    /// Step 5 on a certificate connection: 403 `BadCertificate` for a certificate that is
    /// not trusted, out of its dates or not a push certificate, then 403
    /// `BadCertificateEnvironment` for one of the other environment. Nil: it authenticates.
    func check(environment: APNsEnvironment, acceptsAnyIssuer: Bool) -> FakeAPNs.Rejection? {
        switch certificate.trust {
        case .trusted: break
        case .untrustedIssuer where acceptsAnyIssuer: break
        case .untrustedIssuer:
            return FakeAPNs.Rejection(.badCertificate, "the client certificate (serial \(certificate.serialHex)) is not issued by a trusted CA")
        case .expired:
            return FakeAPNs.Rejection(.badCertificate, "the client certificate (serial \(certificate.serialHex)) or its issuer has expired")
        case .notYetValid:
            return FakeAPNs.Rejection(.badCertificate, "the client certificate (serial \(certificate.serialHex)) or its issuer is not valid yet")
        }
        guard allowsClientAuthentication else {
            return FakeAPNs.Rejection(.badCertificate, "the client certificate's extended key usage does not include clientAuth")
        }
        guard !topics.isEmpty, let marked = certificate.appleEnvironment else {
            return FakeAPNs.Rejection(.badCertificate, "not a push certificate: it names no topic (Apple's extension 1.2.840.113635.100.6.3.6 or a subject UID) or no environment (1.2.840.113635.100.6.3.1 / .3.2)")
        }
        let fits = switch marked {
        case .both: true
        case .development: environment == .sandbox
        case .production: environment == .production
        }
        guard fits else {
            return FakeAPNs.Rejection(.badCertificateEnvironment, "the client certificate is for \(marked.rawValue); this request is for \(environment.displayName)")
        }
        return nil
    }
}
