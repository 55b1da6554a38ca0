import Testing
@testable import LoopbackHTTP

/// The TLS state machine without sockets: ClientHello in, ServerHello (or an alert) out.
@Suite struct TLSHandshakeTests {
    typealias RFC8448 = TLSKeyScheduleTests.RFC8448

    func connection(random: [[UInt8]] = [], protocols: [String] = ["h2", "http/1.1"]) -> TLSServerConnection {
        TLSServerConnection(identity: TLSTestSupport.identity, applicationProtocols: protocols,
                            randomBytes: TLSTestSupport.fixedRandom(random))
    }

    /// With RFC 8448's server key and random, our ServerHello is the trace's, byte for byte,
    /// followed by the compatibility change_cipher_spec and the protected flight.
    @Test func rfc8448ClientHelloGetsTheTracesServerHello() throws {
        var server = connection(random: [RFC8448.serverPrivateKey, RFC8448.serverRandom])
        let (events, plaintext) = TLSTestSupport.feed(&server, TLSTestSupport.record(RFC8448.clientHello))
        #expect(plaintext.isEmpty)
        guard case .write(let bytes)? = events.first, events.count == 1 else {
            Issue.record("expected one write, got \(events)")
            return
        }
        let expectedPrefix = [22, 3, 3, 0, 90] + RFC8448.serverHello + [20, 3, 3, 0, 1, 1]
        #expect(Array(bytes.prefix(expectedPrefix.count)) == expectedPrefix)
        #expect(bytes[expectedPrefix.count] == 23, "the rest of the flight is protected")
        #expect(server.serverName == "server")
        #expect(server.applicationProtocol == nil)
        #expect(server.negotiatedGroup == .x25519)
        #expect(server.sentAlert == nil)
    }

    @Test func onlyAnUnsupportedShareGetsAHelloRetryRequest() throws {
        var server = connection()
        let hello = TLSTestSupport.clientHello(groups: [0x0018, 0x0017], shares: [(0x0018, [UInt8](repeating: 4, count: 97))],
                                                sessionID: [1, 2, 3])
        let (events, _) = TLSTestSupport.feed(&server, TLSTestSupport.record(hello))
        guard case .write(let bytes)? = events.first, events.count == 1 else {
            Issue.record("expected one write, got \(events)")
            return
        }
        var expected: [UInt8] = [2, 0, 0, 0x37, 3, 3] + TLSProtocol.helloRetryRequestRandom + [3, 1, 2, 3, 0x13, 0x01, 0]
        expected += [0, 12, 0, 0x2b, 0, 2, 3, 4, 0, 0x33, 0, 2, 0, 0x17]
        #expect(bytes == [22, 3, 3, 0, UInt8(expected.count)] + expected + [20, 3, 3, 0, 1, 1])
        #expect(server.state == .awaitingRetriedClientHello(.secp256r1))

        // A second ClientHello still without the requested share is refused.
        let again = TLSTestSupport.clientHello(groups: [0x0018, 0x0017], shares: [(0x0018, [UInt8](repeating: 4, count: 97))])
        let (second, _) = TLSTestSupport.feed(&server, TLSTestSupport.record(again))
        #expect(second == [.write([21, 3, 3, 0, 2, 2, 47]), .close])
    }

    @Test func noShareAtAllGetsAHelloRetryRequestForTheClientsFirstGroup() {
        var server = connection()
        let (events, _) = TLSTestSupport.feed(&server, TLSTestSupport.record(TLSTestSupport.clientHello(groups: [0x0017, 0x001d], shares: [])))
        #expect(server.state == .awaitingRetriedClientHello(.secp256r1))
        #expect(events.count == 1)
    }

    @Test func tls12OnlyClientGetsProtocolVersion() {
        for hello in [TLSTestSupport.clientHello(versions: nil), TLSTestSupport.clientHello(versions: [0x0303, 0x0302])] {
            var server = connection()
            let (events, _) = TLSTestSupport.feed(&server, TLSTestSupport.record(hello))
            #expect(events == [.write([21, 3, 3, 0, 2, 2, 70]), .close])
            #expect(server.sentAlert == TLSAlert(.protocolVersion))
        }
        // A ClientHello with no extensions at all (SSL 3.0 to TLS 1.2 without any).
        var server = connection()
        let bare = TLSByteWriter.handshakeMessage(.clientHello) { body in
            body.append(UInt16(0x0303)); body.append([UInt8](repeating: 0, count: 32)); body.append(UInt8(0))
            body.append([0, 2, 0x00, 0x2f, 1, 0])
        }
        #expect(TLSTestSupport.feed(&server, TLSTestSupport.record(bare)).events == [.write([21, 3, 3, 0, 2, 2, 70]), .close])
    }

    @Test(arguments: [
        (TLSTestSupport.clientHello(suites: [0x1302]), TLSAlertDescription.handshakeFailure),
        (TLSTestSupport.clientHello(signatureAlgorithms: [0x0804]), .handshakeFailure),
        (TLSTestSupport.clientHello(signatureAlgorithms: nil), .missingExtension),
        (TLSTestSupport.clientHello(alpn: ["spdy/3"]), .noApplicationProtocol),
        (TLSTestSupport.clientHello(groups: [0x0018], shares: []), .handshakeFailure),
        (TLSTestSupport.clientHello(shares: [(0x001d, [1, 2, 3])]), .illegalParameter),
        (TLSTestSupport.clientHello(shares: [(0x0017, [UInt8](repeating: 4, count: 65))]), .illegalParameter),
    ])
    func refusedClientHellos(hello: [UInt8], alert: TLSAlertDescription) {
        var server = connection()
        let (events, _) = TLSTestSupport.feed(&server, TLSTestSupport.record(hello))
        #expect(events == [.write([21, 3, 3, 0, 2, 2, alert.rawValue]), .close], "\(server.sentAlert.map(String.init(describing:)) ?? "no alert")")
    }

    @Test func garbageGetsAnAlertNotATrap() {
        let inputs: [[UInt8]] = [
            Array("GET / HTTP/1.1\r\nHost: x\r\n\r\n".utf8),
            [22, 3, 1, 0xff, 0xff],                      // record longer than 2^14+256
            [22, 3, 1, 0, 4, 1, 0xff, 0xff, 0xff],        // handshake message over 64 KiB
            [22, 3, 1, 0, 0],                             // empty handshake record
            [23, 3, 3, 0, 20] + [UInt8](repeating: 0, count: 20),  // protected record before keys
            [20, 3, 3, 0, 1, 1],                          // change_cipher_spec before ClientHello
            TLSTestSupport.record([1, 0, 0, 2, 3, 3]),   // truncated ClientHello
            TLSTestSupport.record([2, 0, 0, 0]),          // a ServerHello sent to the server
        ]
        for input in inputs {
            var server = connection()
            let (events, _) = TLSTestSupport.feed(&server, input)
            #expect(events.last == .close, "\(input)")
            #expect(server.sentAlert != nil, "\(input)")
        }
    }

    @Test func splittingTheInputNeverChangesTheOutcome() {
        let input = TLSTestSupport.record(TLSTestSupport.clientHello(groups: [0x0018, 0x0017], shares: []))
        var whole = connection()
        let expected = TLSTestSupport.feed(&whole, input).events
        for chunk in [1, 2, 3, 5, 7, 64] {
            var split = connection()
            #expect(TLSTestSupport.feed(&split, input, chunk: chunk).events == expected, "chunks of \(chunk)")
        }
    }
}
