@testable import FakeSupport
@testable import PushCrypto
@testable import LoopbackHTTP
import Contracts
import Foundation
import Testing
@testable import FakeAPNs

/// What FakeAPNs answers on a certificate connection (issue 25), request by request: the
/// certificate is set on the request as the TLS layer sets it, with the verdict it reached.
/// CertificateInteropTests drives the same answers through real TLS handshakes.
@Suite struct CertificateAuthenticationTests {
    static let authority = TestCertificateAuthority.generate(commonName: "Certificate tests CA")
    static let topic = APNsTestbed.topic

    /// A client certificate as the TLS layer hands it over.
    static func presented(_ der: [UInt8], trust: TLSClientCertificate.Trust = .trusted) throws -> TLSClientCertificate {
        TLSClientCertificate(certificate: try X509Certificate(der: der), presentedChain: [], trust: trust)
    }

    static func pushCertificate(_ environment: ApplePushEnvironment = .development, trust: TLSClientCertificate.Trust = .trusted) throws -> TLSClientCertificate {
        try presented(authority.issueApplePushCertificate(topic: topic, environment: environment).certificateDER, trust: trust)
    }

    /// A push on a certificate connection: no authorization header unless `headers` sets one.
    static func push(_ certificate: TLSClientCertificate, headers: [(String, String?)] = [], authority host: String = "127.0.0.1") -> HTTPRequest {
        var request = APNsTestbed.push(headers: [("authorization", nil)] + headers)
        request.authority = host
        request.tlsClientCertificate = certificate
        return request
    }

    static func testbed(anyIssuer: Bool = false) -> APNsTestbed {
        APNsTestbed { $0.clientCertificates = APNsClientCertificates(acceptsAnyIssuer: anyIssuer) }
    }

    @Test func aTrustedPushCertificateNeedsNoTokenAndIsJournaled() throws {
        let bed = Self.testbed()
        let certificate = try Self.pushCertificate()
        let response = bed.fake.handle(Self.push(certificate))
        #expect(response.status == .ok)
        let entry = try #require(bed.fake.journal.last)
        #expect(entry.certificate == APNsCertificateIdentity(subject: Self.topic, serial: certificate.serialHex, environment: "development"))
        #expect(entry.logLine.contains("certificate=\(Self.topic)/\(certificate.serialHex)/development"))
        #expect(bed.fake.deliveredNotifications(for: APNsTestbed.token).count == 1)
    }

    @Test func aTokenOnACertificateConnectionIsNotRead() throws {
        let bed = Self.testbed()
        let response = bed.fake.handle(Self.push(try Self.pushCertificate(), headers: [("authorization", "bearer not.a.token")]))
        #expect(response.status == .ok)
        #expect(bed.fake.journal.last?.detail?.contains("authorization ignored") == true)
    }

    @Test func noCertificateAndNoTokenIsMissingProviderToken() {
        let bed = Self.testbed()
        let response = bed.fake.handle(APNsTestbed.push(headers: [("authorization", nil)]))
        #expect(response.status.code == 403)
        #expect(reason(of: response) == "MissingProviderToken")
    }

    @Test func aTopicTheCertificateDoesNotNameIsTopicDisallowed() throws {
        let bed = Self.testbed()
        let other = bed.fake.handle(Self.push(try Self.pushCertificate(), headers: [("apns-topic", "com.example.other")]))
        #expect(other.status.code == 400)
        #expect(reason(of: other) == "TopicDisallowed")
        // The certificate names bundle.voip: a VoIP push to it is accepted.
        bed.fake.register(token: APNsTestbed.token, topic: Self.topic + ".voip")
        let voip = bed.fake.handle(Self.push(try Self.pushCertificate(), headers: [("apns-topic", Self.topic + ".voip"), ("apns-push-type", "voip")]))
        #expect(voip.status == .ok, "\(reason(of: voip) ?? "")")
    }

    @Test func theTopicMayBeOmittedOnlyWhenTheCertificateNamesOne() throws {
        let bed = Self.testbed()
        // Apple's certificates name bundle, .voip and .complication: the header is mandatory.
        let several = bed.fake.handle(Self.push(try Self.pushCertificate(), headers: [("apns-topic", nil)]))
        #expect(several.status.code == 400)
        #expect(reason(of: several) == "MissingTopic")
        // An older certificate with only a subject UID: its subject is the topic.
        let single = Self.authority.issueClientCertificate(
            commonName: "Apple Push Services: \(Self.topic)", userID: Self.topic,
            extraExtensions: [(DEROID.appleDevelopment, false, DERWriter.element(DERTag.null, []))])
        let response = bed.fake.handle(Self.push(try Self.presented(single.certificateDER), headers: [("apns-topic", nil)]))
        #expect(response.status == .ok)
        #expect(bed.fake.journal.last?.topic == Self.topic)
    }

    @Test func aCertificateForTheOtherEnvironmentIsBadCertificateEnvironment() throws {
        let bed = Self.testbed()
        let production = bed.fake.handle(Self.push(try Self.pushCertificate(.production)))
        #expect(production.status.code == 403)
        #expect(reason(of: production) == "BadCertificateEnvironment")
        let development = bed.fake.handle(Self.push(try Self.pushCertificate(.development), authority: "api.push.apple.com"))
        #expect(reason(of: development) == "BadCertificateEnvironment")
        // A certificate for both environments passes the check in either.
        let both = bed.fake.handle(Self.push(try Self.pushCertificate(.both)))
        #expect(both.status == .ok)
    }

    @Test(arguments: [TLSClientCertificate.Trust.expired, .notYetValid, .untrustedIssuer])
    func anInvalidCertificateIsBadCertificate(_ trust: TLSClientCertificate.Trust) throws {
        let bed = Self.testbed()
        let response = bed.fake.handle(Self.push(try Self.pushCertificate(trust: trust)))
        #expect(response.status.code == 403)
        #expect(reason(of: response) == "BadCertificate")
    }

    @Test func theAnyIssuerModeAcceptsAnUntrustedIssuerButNotExpiry() throws {
        let bed = Self.testbed(anyIssuer: true)
        #expect(bed.fake.handle(Self.push(try Self.pushCertificate(trust: .untrustedIssuer))).status == .ok)
        #expect(reason(of: bed.fake.handle(Self.push(try Self.pushCertificate(trust: .expired)))) == "BadCertificate")
    }

    @Test func aCertificateThatIsNotAPushCertificateIsBadCertificate() throws {
        let bed = Self.testbed()
        // Client authentication allowed, but no Apple topics, UID or environment marker.
        let plain = Self.authority.issueClientCertificate(commonName: "Not a push certificate")
        let response = bed.fake.handle(Self.push(try Self.presented(plain.certificateDER)))
        #expect(response.status.code == 403)
        #expect(reason(of: response) == "BadCertificate")
        #expect(bed.fake.journal.last?.detail?.contains("not a push certificate") == true)
    }

    @Test func aCertificateWithoutClientAuthUsageIsBadCertificate() throws {
        let bed = Self.testbed()
        // A server certificate: extended key usage serverAuth only.
        let server = Self.authority.issueServerCertificate(dnsNames: ["localhost"], ipAddresses: [])
        let response = bed.fake.handle(Self.push(try Self.presented(server.certificateDER)))
        #expect(reason(of: response) == "BadCertificate")
        #expect(bed.fake.journal.last?.detail?.contains("clientAuth") == true)
    }

    @Test func certificateAuthenticationWithoutTLSDoesNotStart() async {
        var configuration = FakeAPNs.Configuration()
        configuration.clientCertificates = APNsClientCertificates()
        let error = await #expect(throws: FakeAPNsError.self) { _ = try await FakeAPNs.start(configuration: configuration) }
        #expect(error?.message.contains("need TLS") == true)
    }
}
