import Foundation
import LoopbackHTTP
import PushCore
import PushCrypto

/// An APNs client certificate ("Apple Push Services") issued by the fake's own CA, for senders
/// that authenticate with a certificate instead of a provider token.
///
/// It carries what Apple's certificates carry: subject `UID` = the bundle id, CN
/// `Apple Push Services: <bundle id>`, the topics extension (1.2.840.113635.100.6.3.6) naming
/// the bundle id, `<bundle id>.voip` and `<bundle id>.complication`, and the development
/// (…6.3.1) and/or production (…6.3.2) markers. The key is P-256 (Apple's are RSA 2048).
/// Signed by the CA of a `LoopbackTLS` (or the one kept in a `--tls-ca-dir` directory), so a
/// FakeAPNs serving that TLS trusts it. **Test-only**: the key is written in the clear.
///
/// ```swift
/// let certificate = try APNsClientCertificate.issue(topic: "com.example.app", environment: .development,
///                                                   caDirectory: "/tmp/pushcontracts-ca", pkcs12Password: "secret")
/// try certificate.certificatePEM.write(toFile: "com.example.app.cert.pem", atomically: true, encoding: .utf8)
/// try Data(certificate.pkcs12).write(to: URL(fileURLWithPath: "com.example.app.p12"))
/// ```
public struct APNsClientCertificate: Sendable {
    /// Which APNs environments a certificate is for. Apple issues development ("Apple
    /// Development IOS Push Services") and production-and-development ("Apple Push Services")
    /// certificates; `both` sets both markers.
    public enum Environment: String, Sendable, Hashable, CaseIterable {
        /// `development` (sandbox only), `production` (production only) or `both`.
        case development, production, both
    }

    /// The bundle id: the subject UID and the first of ``topics``.
    public let topic: String
    /// The environments the certificate's markers name.
    public let environment: Environment
    /// The topics the certificate's topics extension names: the bundle id, `.voip`, `.complication`.
    public let topics: [String]
    /// The certificate, DER.
    public let certificateDER: [UInt8]
    /// The certificate, PEM (`CERTIFICATE`): curl `--cert`, `openssl s_client -cert`.
    public let certificatePEM: String
    /// The private key, unencrypted PKCS#8 PEM (`PRIVATE KEY`): curl `--key`.
    public let privateKeyPEM: String
    /// Certificate and key in one PKCS#12 file (PBES2 with PBKDF2-HMAC-SHA256 and
    /// AES-256-CBC, HMAC-SHA256 MAC, as OpenSSL 3 writes), encrypted with the password given
    /// to `issue` (empty by default); its friendlyName is the certificate's CN.
    public let pkcs12: [UInt8]
    /// The start of the validity period.
    public let notBefore: Date
    /// The end of the validity period.
    public let notAfter: Date

    /// The longest validity ``issue(topic:environment:signedBy:validDays:now:pkcs12Password:)`` accepts: ten years.
    public static let maximumValidDays = 3650
    /// How long a certificate is valid by default: 365 days, like Apple's.
    public static let defaultValidDays = 365

    /// Issues a certificate for `topic`, signed by the CA of `tls` (a FakeAPNs serving `tls`
    /// trusts it).
    /// - Parameters:
    ///   - topic: a bundle id (letters, digits, `.`, `-`; 1–155 characters, so
    ///     `.complication` still fits Apple's limits and the name is a safe file name).
    ///   - environment: the environments the certificate is for.
    ///   - tls: the fake's TLS, whose certificate authority signs the certificate.
    ///   - validDays: notAfter = `now` + this many days (1…``maximumValidDays``).
    ///   - now: the issue time; notBefore is one day earlier. An old `now` gives an expired
    ///     certificate, a future one a not-yet-valid one (for tests of `BadCertificate`).
    ///   - pkcs12Password: encrypts ``pkcs12`` (may be empty).
    /// - Throws: ``APNsClientCertificateError`` for a topic or validity out of range.
    public static func issue(
        topic: String, environment: Environment = .development, signedBy tls: LoopbackTLS,
        validDays: Int = defaultValidDays, now: Date = Date(), pkcs12Password: String = ""
    ) throws(APNsClientCertificateError) -> APNsClientCertificate {
        try check(topic: topic, validDays: validDays)
        let marker: ApplePushEnvironment = switch environment {
        case .development: .development
        case .production: .production
        case .both: .both
        }
        let notBefore = now - TestCertificateAuthority.backdating
        let notAfter = now + Double(validDays) * 86_400
        let (der, key) = tls.authority.issueApplePushCertificate(topic: topic, environment: marker, validity: notBefore...notAfter, now: now)
        let privateKeyInfo = ECPrivateKeyDER.pkcs8(scalar: key.privateKey, publicKeyX963: key.publicKeyX963)
        guard let archive = PKCS12.archive(certificateDER: der, privateKeyInfo: privateKeyInfo,
                                           friendlyName: "Apple Push Services: \(topic)", password: pkcs12Password) else {
            throw APNsClientCertificateError(.unusableValue, "the PKCS#12 file could not be written")
        }
        return APNsClientCertificate(
            topic: topic, environment: environment, topics: [topic, "\(topic).voip", "\(topic).complication"],
            certificateDER: der, certificatePEM: PEMDocument(label: "CERTIFICATE", der: der).text,
            privateKeyPEM: PEMDocument(label: "PRIVATE KEY", der: privateKeyInfo).text, pkcs12: archive,
            notBefore: notBefore, notAfter: notAfter)
    }

    /// ``issue(topic:environment:signedBy:validDays:now:pkcs12Password:)`` with the CA kept in
    /// `caDirectory` (`ca.pem`, `ca-key.pem`), created there if absent: the directory
    /// `contract-check serve --tls --tls-ca-dir` uses, so that serve trusts the certificate.
    /// - Throws: ``APNsClientCertificateError`` for a bad topic or validity, or a directory
    ///   that cannot hold a CA.
    public static func issue(
        topic: String, environment: Environment = .development, caDirectory: String,
        validDays: Int = defaultValidDays, now: Date = Date(), pkcs12Password: String = ""
    ) throws(APNsClientCertificateError) -> APNsClientCertificate {
        try check(topic: topic, validDays: validDays)
        let tls: LoopbackTLS
        do {
            tls = try LoopbackTLS.reusing(caDirectory: caDirectory)
        } catch {
            throw APNsClientCertificateError(.unusableCADirectory, error.message)
        }
        return try issue(topic: topic, environment: environment, signedBy: tls, validDays: validDays, now: now,
                         pkcs12Password: pkcs12Password)
    }

    private static func check(topic: String, validDays: Int) throws(APNsClientCertificateError) {
        if let problem = topicProblem(topic) { throw APNsClientCertificateError(.invalidTopic, problem) }
        guard (1...maximumValidDays).contains(validDays) else {
            throw APNsClientCertificateError(.unusableValue, "validity of \(validDays) days; give 1 to \(maximumValidDays)")
        }
    }

    /// Why `topic` is not a usable bundle id, or nil when it is.
    package static func topicProblem(_ topic: String) -> String? {
        guard !topic.isEmpty else { return "the topic is empty; give a bundle id such as com.example.app" }
        guard topic.utf8.count <= 155 else { return "the topic is \(topic.utf8.count) bytes long; a bundle id has at most 155" }
        let allowed = topic.utf8.allSatisfy { byte in
            (0x30...0x39).contains(byte) || (0x41...0x5a).contains(byte) || (0x61...0x7a).contains(byte) || byte == 0x2e || byte == 0x2d
        }
        guard allowed, topic.first != ".", topic.last != ".", !topic.contains("..") else {
            return "'\(topic)' is not a bundle id (letters, digits, '.' and '-', e.g. com.example.app)"
        }
        return nil
    }
}

/// Why ``APNsClientCertificate/issue(topic:environment:caDirectory:validDays:now:pkcs12Password:)`` failed.
public struct APNsClientCertificateError: Error, Equatable, CustomStringConvertible, CodedError, Sendable {
    /// The kinds of problem.
    public enum Code: Hashable, Sendable {
        /// The topic is not a bundle id.
        case invalidTopic
        /// Another value (validity) is out of range.
        case unusableValue
        /// The CA directory cannot be created, read or written.
        case unusableCADirectory
    }

    /// What went wrong.
    public let code: Code
    /// The details.
    public let message: String

    init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The topic is not a bundle id.
    public static var invalidTopic: Self { Self(.invalidTopic, "") }
    /// A value other than the topic is out of range.
    public static var unusableValue: Self { Self(.unusableValue, "") }
    /// The CA directory cannot be created, read or written.
    public static var unusableCADirectory: Self { Self(.unusableCADirectory, "") }
}
