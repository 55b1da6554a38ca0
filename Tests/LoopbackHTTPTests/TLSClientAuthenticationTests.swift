@testable import PushCrypto
import Foundation
import Testing
@testable import LoopbackHTTP

/// TLS 1.3 client authentication without sockets: the server asks (CertificateRequest) only
/// when configured; a client proves its certificate with CertificateVerify or gets
/// decrypt_error; no certificate still connects; the chain's trust and dates are recorded
/// for the handler, not turned into alerts.
@Suite struct TLSClientAuthenticationTests {
    static let authority = TestCertificateAuthority.generate(commonName: "Client CA")
    static let otherAuthority = TestCertificateAuthority.generate(commonName: "Client CA")  // same name, other key

    /// A server identity asking for client certificates issued by `authority`.
    static func identity(clock: @escaping @Sendable () -> Date = { Date() }) throws -> TLSServerIdentity {
        var identity = TLSTestSupport.identity
        identity.clientAuthentication = try TLSClientAuthentication(trustedAuthorities: [authority.certificateDER], clock: clock)
        return identity
    }

    /// A P-256 signer for `key`: ecdsa_secp256r1_sha256 over the content, optionally corrupted.
    static func p256Signer(_ key: P256KeyPair, corrupt: Bool = false) -> ([UInt8]) -> (UInt16, [UInt8]) {
        { content in
            var signed = content
            if corrupt { signed[signed.count - 1] ^= 1 }
            return (0x0403, key.signatureDER(for: signed))
        }
    }

    /// Runs the handshake: ClientHello, the server's flight (must carry a CertificateRequest
    /// iff asked), then the client's Certificate/CertificateVerify/Finished fed in `chunk`-byte pieces.
    static func handshake(identity: TLSServerIdentity, chain: [[UInt8]], sign: @escaping ([UInt8]) throws -> (UInt16, [UInt8]),
                          chunk: Int = Int.max) throws -> (server: TLSServerConnection, events: [TLSEvent]) {
        var server = TLSServerConnection(identity: identity, applicationProtocols: ["h2", "http/1.1"])
        var client = TLSSessionTests.Client()
        let (flight, _) = TLSTestSupport.feed(&server, client.hello())
        guard case .write(let bytes)? = flight.first else { throw TLSAlert(.internalError, "no flight: \(flight)") }
        let finished = try client.finish(bytes, certificate: (chain, sign))
        #expect(client.sawCertificateRequest == (identity.clientAuthentication != nil))
        let (events, _) = TLSTestSupport.feed(&server, finished, chunk: chunk)
        return (server, events)
    }

    @Test(arguments: [Int.max, 1, 7])
    func aProvenCertificateFromTheTrustedCAReachesTheConnection(chunk: Int) throws {
        let leaf = Self.authority.issueClientCertificate(commonName: "Provider", userID: "com.example.app")
        let (server, events) = try Self.handshake(identity: try Self.identity(), chain: [leaf.certificateDER],
                                                  sign: Self.p256Signer(leaf.key), chunk: chunk)
        #expect(events == [.handshakeCompleted])
        let certificate = try #require(server.clientCertificate)
        #expect(certificate.trust == .trusted)
        #expect(certificate.subjectUserID == "com.example.app")
        #expect(certificate.subjectCommonName == "Provider")
        #expect(certificate.certificate.der == leaf.certificateDER)
        #expect(certificate.serialHex.count == 32)
        #expect(certificate.certificate.extensionValue("2.5.29.37") != nil)  // extKeyUsage clientAuth
    }

    @Test func aCertificateVerifyThatDoesNotVerifyIsDecryptError() throws {
        let leaf = Self.authority.issueClientCertificate(commonName: "Provider")
        let (server, events) = try Self.handshake(identity: try Self.identity(), chain: [leaf.certificateDER],
                                                  sign: Self.p256Signer(leaf.key, corrupt: true))
        #expect(server.sentAlert == TLSAlert(.decryptError))
        #expect(!events.contains(.handshakeCompleted))
        #expect(events.last == .close)
        #expect(server.clientCertificate == nil)
    }

    @Test func aSignatureByAnotherKeyIsDecryptError() throws {
        let leaf = Self.authority.issueClientCertificate(commonName: "Provider")
        let (server, _) = try Self.handshake(identity: try Self.identity(), chain: [leaf.certificateDER],
                                             sign: Self.p256Signer(P256KeyPair.generate()))
        #expect(server.sentAlert == TLSAlert(.decryptError))
    }

    @Test func aSchemeThatDoesNotFitTheKeyIsIllegalParameter() throws {
        let leaf = Self.authority.issueClientCertificate(commonName: "Provider")
        let (server, _) = try Self.handshake(identity: try Self.identity(), chain: [leaf.certificateDER]) { content in
            (0x0804, leaf.key.signatureDER(for: content))  // claims RSA-PSS with a P-256 key
        }
        #expect(server.sentAlert == TLSAlert(.illegalParameter))
    }

    @Test func noCertificateStillConnects() throws {
        let (server, events) = try Self.handshake(identity: try Self.identity(), chain: []) { _ in
            Issue.record("no CertificateVerify without a certificate")
            return (0, [])
        }
        #expect(events == [.handshakeCompleted])
        #expect(server.clientCertificate == nil)
    }

    @Test func aCertificateFromAnotherCAConnectsButIsUntrusted() throws {
        let leaf = Self.otherAuthority.issueClientCertificate(commonName: "Provider")
        let (server, events) = try Self.handshake(identity: try Self.identity(), chain: [leaf.certificateDER],
                                                  sign: Self.p256Signer(leaf.key))
        #expect(events == [.handshakeCompleted])
        #expect(server.clientCertificate?.trust == .untrustedIssuer)
    }

    @Test func datesAreCheckedAgainstTheInjectedClock() throws {
        let now = Date()
        let leaf = Self.authority.issueClientCertificate(commonName: "Provider", validity: (now - 3600)...(now + 3600))
        for (offset, expected) in [(-7200.0, TLSClientCertificate.Trust.notYetValid), (0, .trusted), (7200, .expired)] {
            let (server, events) = try Self.handshake(identity: try Self.identity(clock: { now + offset }), chain: [leaf.certificateDER],
                                                      sign: Self.p256Signer(leaf.key))
            #expect(events == [.handshakeCompleted])
            #expect(server.clientCertificate?.trust == expected, "clock now + \(offset) s")
        }
    }

    @Test func aRootTheClientSendsItselfIsNotTrusted() throws {
        // leaf ← other CA (self-signed, presented by the client): the chain never reaches a
        // CA the server trusts, however it is followed.
        let leaf = Self.otherAuthority.issueClientCertificate(commonName: "Provider")
        let (server, _) = try Self.handshake(identity: try Self.identity(),
                                             chain: [leaf.certificateDER, Self.otherAuthority.certificateDER],
                                             sign: Self.p256Signer(leaf.key))
        #expect(server.clientCertificate?.trust == .untrustedIssuer)
        #expect(server.clientCertificate?.presentedChain == [Self.otherAuthority.certificateDER])
    }

    @Test func garbageInPlaceOfACertificateIsBadCertificate() throws {
        let (server, _) = try Self.handshake(identity: try Self.identity(), chain: [[0x30, 0x03, 0x02, 0x01, 0x01]]) { _ in (0x0403, [0]) }
        #expect(server.sentAlert == TLSAlert(.badCertificate))
    }

    @Test func withoutClientAuthenticationACertificateMessageIsUnexpected() throws {
        let leaf = Self.authority.issueClientCertificate(commonName: "Provider")
        let (server, events) = try Self.handshake(identity: TLSTestSupport.identity, chain: [leaf.certificateDER],
                                                  sign: Self.p256Signer(leaf.key))
        #expect(server.sentAlert == TLSAlert(.unexpectedMessage))
        #expect(!events.contains(.handshakeCompleted))
    }
}

/// The certificate reader under the client's Certificate: bounded, never trapping, and
/// reading back the times DERWriter writes.
@Suite struct X509CertificateReaderTests {
    @Test func everyPrefixAndMutationOfACertificateThrowsOrReads() throws {
        let leaf = TLSClientAuthenticationTests.authority.issueClientCertificate(commonName: "Provider", userID: "com.example.app")
        let parsed = try X509Certificate(der: leaf.certificateDER)
        #expect(parsed.isSigned(by: try X509Certificate(der: TLSClientAuthenticationTests.authority.certificateDER)))
        for length in 0..<leaf.certificateDER.count {
            #expect(throws: CryptoEncodingError.self) { try X509Certificate(der: Array(leaf.certificateDER.prefix(length))) }
        }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            var mutated = leaf.certificateDER
            let index = Int.random(in: 0..<mutated.count, using: &generator)
            mutated[index] = UInt8.random(in: 0...255, using: &generator)
            if let certificate = try? X509Certificate(der: mutated), certificate.signedPart != parsed.signedPart {
                // A changed signed part no longer verifies under the CA.
                #expect(!certificate.isSigned(by: try X509Certificate(der: TLSClientAuthenticationTests.authority.certificateDER)))
            }
        }
    }

    @Test(arguments: [-631_152_000.0, 0, 951_782_400, 1_767_225_599, 2_524_608_000, 4_102_444_800])
    func timesReadBackAsWritten(secondsSince1970: Double) throws {
        // 1950-01-01, 1970-01-01, 2000-02-29, 2025-12-31 23:59:59, 2050-01-01 (GeneralizedTime), 2100-01-01.
        var reader = DERReader(DERWriter.time(Date(timeIntervalSince1970: secondsSince1970)))
        #expect(try reader.readTime("t") == Date(timeIntervalSince1970: secondsSince1970))
    }
}
