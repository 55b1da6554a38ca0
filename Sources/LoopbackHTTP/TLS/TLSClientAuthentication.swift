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
    /// Chains seen before, parsed and with their signatures checked (shared by copies).
    let chains = TLSCertificateChainCache()

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
        TLSCertificateChainCache.Walk(leaf, intermediates: intermediates, trusted: trustedAuthorities).verdict(at: clock())
    }

    /// The parsed leaf of a presented chain (leaf first, DER) and its verdict now. Parsing and
    /// signature checks are done once per distinct chain (a client reconnecting presents the
    /// same one); the dates are checked on every call.
    /// - Throws: the leaf's ``CryptoEncodingError`` when it is not a certificate this package reads.
    func check(_ certificates: [[UInt8]]) throws(CryptoEncodingError) -> (leaf: X509Certificate, trust: TLSClientCertificate.Trust) {
        let walk = try chains.walk(certificates, trusted: trustedAuthorities)
        return (walk.leaf, walk.verdict(at: clock()))
    }
}

/// The signature walks of client chains seen before, at most `capacity` of them (emptied when
/// full), only for chains of at most `maximumBytes`: bounded in memory.
final class TLSCertificateChainCache: @unchecked Sendable {  // every access holds `lock`
    static let capacity = 64
    static let maximumBytes = 32 * 1024
    private let lock = NSLock()
    private var walks: [[[UInt8]]: Walk] = [:]

    /// How many chains are kept now.
    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return walks.count
    }

    /// A chain followed up by signatures: the certificates whose dates count, in order, and
    /// what the walk ends in once all of them are within their dates.
    struct Walk {
        let leaf: X509Certificate
        let path: [X509Certificate]
        let end: TLSClientCertificate.Trust

        /// Follows `leaf` up through `intermediates` to a trusted CA, at most
        /// `TLSClientAuthentication.maximumChainLength` certificates.
        init(_ leaf: X509Certificate, intermediates: [X509Certificate], trusted: [X509Certificate]) {
            self.leaf = leaf
            var path: [X509Certificate] = []
            var current = leaf
            var end = TLSClientCertificate.Trust.untrustedIssuer
            for _ in 0..<TLSClientAuthentication.maximumChainLength {
                path.append(current)
                if trusted.contains(where: { current.isSigned(by: $0) }) {
                    end = .trusted
                    break
                }
                guard let next = intermediates.first(where: { current.isSigned(by: $0) }) else { break }
                current = next
            }
            self.path = path
            self.end = end
        }

        /// The verdict at `now`: the first certificate on the path outside its dates decides.
        func verdict(at now: Date) -> TLSClientCertificate.Trust {
            for certificate in path {
                if now < certificate.notBefore { return .notYetValid }
                if now > certificate.notAfter { return .expired }
            }
            return end
        }
    }

    /// The walk for `certificates` (leaf first), from the cache or computed and kept.
    func walk(_ certificates: [[UInt8]], trusted: [X509Certificate]) throws(CryptoEncodingError) -> Walk {
        lock.lock()
        let known = walks[certificates]
        lock.unlock()
        if let known { return known }
        let leaf = try X509Certificate(der: certificates.first ?? [])
        let intermediates = certificates.dropFirst().compactMap { try? X509Certificate(der: $0) }
        let walk = Walk(leaf, intermediates: intermediates, trusted: trusted)
        guard certificates.reduce(0, { $0 + $1.count }) <= Self.maximumBytes else { return walk }
        lock.lock()
        if walks.count >= Self.capacity { walks.removeAll() }
        walks[certificates] = walk
        lock.unlock()
        return walk
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
    /// Whether the chain reached a trusted CA, and the dates held at the handshake:
    /// `trusted` — signed by a trusted CA (directly or through intermediates the client
    /// sent), every certificate on the way within its dates; `notYetValid` / `expired` — a
    /// certificate on the chain is not valid yet / has expired; `untrustedIssuer` — no
    /// trusted CA signed the chain.
    package enum Trust: Sendable, Hashable { case trusted, notYetValid, expired, untrustedIssuer }

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
