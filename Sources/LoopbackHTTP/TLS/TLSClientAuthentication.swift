// TLS 1.3 client authentication (RFC 8446 §4.3.2, §4.4.2, §4.4.3), as APNs uses it for
// certificate-based providers: the server asks, the client may answer with no certificate
// (it then uses tokens), and a certificate that is presented must be proven by
// CertificateVerify. Whether the chain is trusted does not end the handshake here: it is
// recorded in ``TLSClientCertificate/trust`` so the application answers as APNs does
// (403 BadCertificate) rather than with an alert.
import Foundation
import PushCrypto

/// Asks TLS clients for a certificate, and what to trust it against. Off unless set on
/// ``TLSServerIdentity/clientAuthentication``.
///
/// ```swift
/// var identity = tls.identity
/// identity.clientAuthentication = try TLSClientAuthentication(trustedAuthorities: [ca.certificateDER])
/// ```
package struct TLSClientAuthentication: Sendable, Hashable {
    /// The CA certificates a client certificate may chain to, parsed once.
    package let trustedAuthorities: [X509Certificate]
    /// The time validity dates are checked against (tests inject a fixed one).
    package let clock: @Sendable () -> Date

    /// - Parameters:
    ///   - trustedAuthorities: DER certificates of the CAs trusted to issue client
    ///     certificates (the fake's own CA, a team's Apple intermediate…).
    ///   - clock: the current time, for notBefore/notAfter.
    /// - Throws: ``CryptoEncodingError`` if one of them is not a certificate this package reads.
    package init(trustedAuthorities: [[UInt8]], clock: @escaping @Sendable () -> Date = { Date() }) throws(CryptoEncodingError) {
        var parsed: [X509Certificate] = []
        for der in trustedAuthorities {
            parsed.append(try X509Certificate(der: der))
        }
        self.trustedAuthorities = parsed
        self.clock = clock
    }

    package static func == (lhs: Self, rhs: Self) -> Bool { lhs.trustedAuthorities == rhs.trustedAuthorities }
    package func hash(into hasher: inout Hasher) { hasher.combine(trustedAuthorities) }

    /// How far up a presented chain is followed, and how many presented certificates are read.
    static let maximumChainLength = 4

    /// The trust verdict for a leaf and the intermediates the client sent after it.
    func evaluate(_ leaf: X509Certificate, intermediates: [X509Certificate]) -> TLSClientCertificate.Trust {
        let now = clock()
        var current = leaf
        for _ in 0..<Self.maximumChainLength {
            if now < current.notBefore { return .notYetValid }
            if now > current.notAfter { return .expired }
            if trustedAuthorities.contains(where: { current.isSigned(by: $0) }) { return .trusted }
            guard let next = intermediates.first(where: { current.isSigned(by: $0) }) else { return .untrustedIssuer }
            current = next
        }
        return .untrustedIssuer
    }
}

/// The certificate a TLS client presented and proved it holds the key of (its
/// CertificateVerify checked), as a request handler sees it on
/// ``HTTPRequest/tlsClientCertificate``.
///
/// The layer above reads what it needs from ``certificate``'s subject and extensions (FakeAPNs:
/// a push certificate's topics and environment) and decides what an untrusted one gets.
///
/// A class (immutable, so Sendable) so that every request on a connection shares one and
/// ``HTTPRequest`` grows by a pointer only, on plain and TLS connections alike.
package final class TLSClientCertificate: Sendable, Hashable {
    /// Whether the chain reached a trusted CA, and the dates held at the handshake.
    package enum Trust: Sendable, Hashable {
        /// Signed by a trusted CA (directly or through intermediates the client sent), and
        /// every certificate on the way within its dates.
        case trusted
        /// A certificate on the chain is not valid yet.
        case notYetValid
        /// A certificate on the chain has expired.
        case expired
        /// No trusted CA signed the chain.
        case untrustedIssuer
    }

    /// The leaf, parsed (its DER is `certificate.der`).
    package let certificate: X509Certificate
    /// The certificates the client sent after the leaf, DER, in its order.
    package let presentedChain: [[UInt8]]
    /// The verdict at handshake time.
    package let trust: Trust

    package init(certificate: X509Certificate, presentedChain: [[UInt8]], trust: Trust) {
        self.certificate = certificate
        self.presentedChain = presentedChain
        self.trust = trust
    }

    package static func == (lhs: TLSClientCertificate, rhs: TLSClientCertificate) -> Bool {
        lhs.certificate == rhs.certificate && lhs.presentedChain == rhs.presentedChain && lhs.trust == rhs.trust
    }

    package func hash(into hasher: inout Hasher) { hasher.combine(certificate.der) }

    /// The leaf's serial number as lowercase hex (as `openssl x509 -serial` prints it, lowercased).
    package var serialHex: String {
        certificate.serialNumber.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    /// The subject's UID (Apple: the bundle id), if present.
    package var subjectUserID: String? { certificate.subjectAttribute(DEROID.userID) }
    /// The subject's common name, if present.
    package var subjectCommonName: String? { certificate.subjectAttribute(DEROID.commonName) }
}
