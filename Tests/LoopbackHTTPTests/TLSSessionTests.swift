@testable import PushCrypto
import Testing
@testable import LoopbackHTTP

/// A whole TLS 1.3 session without sockets, against a minimal client written from RFC 8446
/// in this file: handshake, application data both ways, KeyUpdate, close_notify, and a
/// forged Finished.
@Suite struct TLSSessionTests {
    /// The client side, just enough to drive the server: x25519 share, the key schedule,
    /// and the server's Finished checked.
    struct Client {
        let privateKey = [UInt8](repeating: 0x11, count: 32)
        var transcript = SHA256.Hasher()
        var read: TLSRecordCipher?
        var write: TLSRecordCipher?

        mutating func hello(alpn: [String]? = ["h2"], serverName: String? = "localhost") -> [UInt8] {
            let message = TLSTestSupport.clientHello(shares: [(0x001d, X25519.publicKey(privateKey: privateKey))],
                                                     alpn: alpn, serverName: serverName)
            transcript.update(message)
            return TLSTestSupport.record(message)
        }

        /// What the server's flight asked: whether it held a CertificateRequest.
        var sawCertificateRequest = false

        /// Reads the server's flight and returns the client's Finished record (forged on
        /// request), preceded, when `certificate` is given, by the client's Certificate and
        /// (unless the chain is empty) a CertificateVerify made by `certificate.sign` from the
        /// signed content: (scheme, signature).
        mutating func finish(_ flight: [UInt8], forge: Bool = false,
                             certificate: (chain: [[UInt8]], sign: ([UInt8]) throws -> (UInt16, [UInt8]))? = nil) throws -> [UInt8] {
            var reader = TLSByteReader(flight)
            var handshake: [UInt8] = []
            var handshakeReader: TLSRecordCipher?
            var secrets: TLSKeySchedule.Secrets?
            while !reader.isEmpty {
                let header = try reader.readBytes(5)
                let body = try reader.readBytes(Int(header[header.startIndex + 3]) << 8 | Int(header[header.startIndex + 4]))
                switch header.first {
                case 22:  // ServerHello
                    transcript.update(body)
                    let keyShare = try #require(body.firstRange(of: [0x00, 0x33, 0x00, 0x24, 0x00, 0x1d, 0x00, 0x20]))
                    let serverKey = Array(body[keyShare.upperBound..<(keyShare.upperBound + 32)])
                    let shared = try #require(X25519.sharedSecret(privateKey: privateKey, peerPublicKey: serverKey))
                    let derived = TLSKeySchedule.Secrets(sharedSecret: shared, helloHash: transcript.currentHash)
                    secrets = derived
                    handshakeReader = TLSRecordCipher(trafficSecret: derived.serverHandshake)
                case 20: continue
                default:
                    var cipher = try #require(handshakeReader)
                    let (type, content) = try cipher.open(body, header: header)
                    #expect(type == .handshake)
                    handshakeReader = nil  // one record holds the whole flight here
                    handshake += content
                }
            }
            let secretsFound = try #require(secrets)
            // EncryptedExtensions, Certificate, CertificateVerify into the transcript; then Finished.
            var messages = TLSByteReader(handshake)
            var serverFinished: [UInt8] = []
            while !messages.isEmpty {
                let type = try messages.readUInt8()
                let body = try messages.readVector(lengthBytes: 3, allowed: 0...65536)
                if type == TLSHandshakeType.finished.rawValue {
                    serverFinished = Array(body)
                    #expect(serverFinished == TLSKeySchedule.finishedVerifyData(trafficSecret: secretsFound.serverHandshake,
                                                                                transcriptHash: transcript.currentHash))
                }
                if type == TLSHandshakeType.certificateRequest.rawValue { sawCertificateRequest = true }
                transcript.update([type, 0, UInt8(body.count >> 8), UInt8(body.count & 0xff)] + Array(body))
            }
            #expect(serverFinished.count == 32)
            let finishedHash = transcript.currentHash
            var clientFlight: [UInt8] = []
            if let certificate {
                let message = TLSByteWriter.handshakeMessage(.certificate) { body in
                    body.append(UInt8(0))
                    body.appendVector(lengthBytes: 3) { list in
                        for der in certificate.chain { list.appendVector(lengthBytes: 3) { $0.append(der) }; list.append(UInt16(0)) }
                    }
                }
                transcript.update(message)
                clientFlight += message
                if !certificate.chain.isEmpty {
                    let content = [UInt8](repeating: 0x20, count: 64) + Array("TLS 1.3, client CertificateVerify".utf8) + [0] + transcript.currentHash
                    let (scheme, signature) = try certificate.sign(content)
                    let verify = TLSByteWriter.handshakeMessage(.certificateVerify) { body in
                        body.append(scheme)
                        body.appendVector(lengthBytes: 2) { $0.append(signature) }
                    }
                    transcript.update(verify)
                    clientFlight += verify
                }
            }
            var verifyData = TLSKeySchedule.finishedVerifyData(trafficSecret: secretsFound.clientHandshake, transcriptHash: transcript.currentHash)
            if forge { verifyData[0] ^= 1 }
            var handshakeWriter = try #require(TLSRecordCipher(trafficSecret: secretsFound.clientHandshake))
            var record: [UInt8] = []
            handshakeWriter.seal((clientFlight + [20, 0, 0, 32] + verifyData)[...], type: .handshake, into: &record)
            let application = secretsFound.applicationSecrets(serverFinishedHash: finishedHash)
            read = TLSRecordCipher(trafficSecret: application.server)
            write = TLSRecordCipher(trafficSecret: application.client)
            return record
        }

        mutating func seal(_ bytes: [UInt8], type: TLSContentType = .applicationData) -> [UInt8] {
            var record: [UInt8] = []
            write?.seal(bytes[...], type: type, into: &record)
            return record
        }

        /// Opens every record in `bytes`, returning (type, content) pairs.
        mutating func open(_ bytes: [UInt8]) throws -> [(TLSContentType, [UInt8])] {
            var reader = TLSByteReader(bytes)
            var result: [(TLSContentType, [UInt8])] = []
            while !reader.isEmpty {
                let header = try reader.readBytes(5)
                let body = try reader.readBytes(Int(header[header.startIndex + 3]) << 8 | Int(header[header.startIndex + 4]))
                guard var cipher = read else { throw TLSAlert(.internalError, "no read key") }
                result.append(try cipher.open(body, header: header))
                read = cipher
            }
            return result
        }
    }

    static func handshake(alpn: [String]? = ["h2"]) throws -> (server: TLSServerConnection, client: Client) {
        var server = TLSServerConnection(identity: TLSTestSupport.identity, applicationProtocols: ["h2", "http/1.1"])
        var client = Client()
        let (flight, _) = TLSTestSupport.feed(&server, client.hello(alpn: alpn))
        guard case .write(let bytes)? = flight.first else { throw TLSAlert(.internalError, "no flight: \(flight)") }
        let finished = try client.finish(bytes)
        #expect(!client.sawCertificateRequest, "client authentication is off by default")
        let (events, _) = TLSTestSupport.feed(&server, finished)
        #expect(events == [.handshakeCompleted])
        return (server, client)
    }

    @Test func handshakeThenDataBothWays() throws {
        var (server, client) = try Self.handshake()
        #expect(server.isEstablished)
        #expect(server.applicationProtocol == "h2")
        #expect(server.serverName == "localhost")
        let big = [UInt8](repeating: 0x61, count: 40_000)  // three records
        let (_, plaintext) = TLSTestSupport.feed(&server, client.seal(Array("hello".utf8)) + client.seal(big), chunk: 1000)
        #expect(plaintext == Array("hello".utf8) + big)
        var records: [UInt8] = []
        server.sealApplicationData(big[...], into: &records)
        let opened = try client.open(records)
        #expect(opened.count == 3)
        #expect(opened.flatMap(\.1) == big)
    }

    @Test func keyUpdateRequestedIsAnsweredAndBothKeysMove() throws {
        var (server, client) = try Self.handshake()
        let keyUpdate: [UInt8] = [24, 0, 0, 1, 1]
        var input = client.seal(keyUpdate, type: .handshake)
        client.write = client.write?.updated()
        input += client.seal(Array("after".utf8))
        let (events, plaintext) = TLSTestSupport.feed(&server, input)
        #expect(plaintext == Array("after".utf8), "read under the client's next key")
        guard case .write(let answer)? = events.first, events.count == 1 else {
            Issue.record("expected the server's KeyUpdate, got \(events)")
            return
        }
        let answered = try client.open(answer)
        #expect(answered.count == 1)
        #expect(answered.first?.0 == .handshake)
        #expect(answered.first?.1 == [24, 0, 0, 1, 0], "update_not_requested, under the old key")
        client.read = client.read?.updated()
        var records: [UInt8] = []
        server.sealApplicationData(Array("next".utf8)[...], into: &records)
        #expect(try client.open(records).first?.1 == Array("next".utf8), "the server writes under its next key")
    }

    @Test func closeNotifyEndsTheSession() throws {
        var (server, client) = try Self.handshake()
        let (events, _) = TLSTestSupport.feed(&server, client.seal([1, 0], type: .alert))
        #expect(events == [.peerClosed])
        #expect(try client.open(server.closeNotify()).first?.1 == [1, 0])
    }

    @Test func aForgedFinishedIsDecryptError() throws {
        var server = TLSServerConnection(identity: TLSTestSupport.identity, applicationProtocols: ["h2"])
        var client = Client()
        let (flight, _) = TLSTestSupport.feed(&server, client.hello())
        guard case .write(let bytes)? = flight.first else { throw TLSAlert(.internalError, "no flight") }
        let (events, _) = TLSTestSupport.feed(&server, try client.finish(bytes, forge: true))
        #expect(events.last == .close)
        #expect(server.sentAlert == TLSAlert(.decryptError))
        #expect(!server.isEstablished)
    }

    @Test func applicationDataBeforeFinishedIsRefused() throws {
        var server = TLSServerConnection(identity: TLSTestSupport.identity, applicationProtocols: ["h2"])
        var client = Client()
        let (flight, _) = TLSTestSupport.feed(&server, client.hello())
        guard case .write(let bytes)? = flight.first else { throw TLSAlert(.internalError, "no flight") }
        _ = try client.finish(bytes)
        // Sealed under the application key: the server still reads with the handshake key.
        let (events, plaintext) = TLSTestSupport.feed(&server, client.seal(Array("early".utf8)))
        #expect(plaintext.isEmpty)
        #expect(events.last == .close)
        #expect(server.sentAlert == TLSAlert(.badRecordMAC))
    }
}

extension TLSRecordCipher {
    /// One record's inner type and content, for the tests' client.
    mutating func open(_ body: ArraySlice<UInt8>, header: ArraySlice<UInt8>) throws(TLSAlert) -> (TLSContentType, [UInt8]) {
        var content: [UInt8] = []
        let type = try open(body, header: header, appendingTo: &content)
        return (type, content)
    }
}
