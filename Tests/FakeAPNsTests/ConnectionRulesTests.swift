import Contracts
import Foundation
import LoopbackHTTP
import Testing
@testable import FakeAPNs

/// FakeAPNs behaves as APNs on the connection (Docs/readme/fake-apns.md, "On the
/// connection"): one stream on a new token connection until a request with a valid provider
/// token was answered, then the usual limit; a GOAWAY that leaves the streams above its
/// last-stream-id unanswered and undelivered. Peers that are not installed skip their test.
@Suite(.serialized) struct ConnectionRulesTests {
    typealias T = APNsTestbed

    static func push(stream: UInt32, connection: UInt64, token: String = T.token) -> HTTPRequest {
        var request = T.push(token: token, connection: connection)
        request.streamID = stream
        return request
    }

    @Test func anAnswerAfterAVerifiedTokenLiftsTheLimitAndOthersDoNot() {
        let bed = T()
        #expect(bed.fake.handle(T.push()).liftsStreamLimit)
        let forged = T.push(headers: [("authorization", "bearer " + T.providerToken(signature: [1, 2, 3]))])
        #expect(!bed.fake.handle(forged).liftsStreamLimit)
        // Any answer after the token verified lifts it, a refused push too.
        #expect(bed.fake.handle(T.push(headers: [("apns-topic", "com.example.other")])).liftsStreamLimit)
    }

    /// The `goAway` fault at stream 3: stream 5, handled after it on the same connection, is
    /// journaled unprocessed and not delivered; stream 1 (opened before) and other
    /// connections go on.
    @Test func streamsAboveAGoAwayAreJournaledUnprocessedAndNotDelivered() {
        let bed = T()
        bed.fake.addFault(.next(1, .goAway(reason: "Shutdown")))
        guard case .goAway = bed.fake.handle(Self.push(stream: 3, connection: 9)).disposition else {
            Issue.record("the fault did not answer with GOAWAY")
            return
        }
        guard case .goAway = bed.fake.handle(Self.push(stream: 5, connection: 9)).disposition else {
            Issue.record("stream 5 was answered after the GOAWAY at stream 3")
            return
        }
        #expect(bed.fake.handle(Self.push(stream: 1, connection: 9)).status == .ok)
        #expect(bed.fake.handle(Self.push(stream: 5, connection: 10)).status == .ok)
        let journal = bed.fake.journal
        #expect(journal.map(\.status) == [0, 0, 200, 200])
        #expect(journal[1].detail?.contains("not processed: stream 5 is above the last-stream-id") == true, "\(journal[1])")
        #expect(journal[1].delivery == nil)
        #expect(bed.fake.deliveredNotifications(for: T.token).count == 2)
    }

    /// nghttp sends 20 pushes at once on a new token connection: the first SETTINGS says 1,
    /// a later one (after the first 200) says 1000, and all 20 are delivered on that connection.
    @Test(.enabled(if: Peer.find("nghttp") != nil, "nghttp is not installed: run scripts/install-peers.sh"))
    func nghttpSendsTwentyPushesAtOnceAndAllAreDelivered() async throws {
        let bed = try await T.started()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("limit-\(UUID().uuidString).json")
        try Data(T.payload).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let url = "http://127.0.0.1:\(bed.fake.port)/3/device/\(T.token)"
        let output = try Peer.run(Peer.find("nghttp") ?? "nghttp",
                                  ["-v", "--no-dep", "-t", "20", "-d", file.path,
                                   "-H", "authorization: bearer \(T.providerToken())", "-H", "apns-topic: \(T.topic)",
                                   "-H", "apns-push-type: alert"] + (1...20).map { "\(url)?n=\($0)" })
        let records = bed.fake.connections
        await bed.fake.stop()
        let one = output.range(of: "SETTINGS_MAX_CONCURRENT_STREAMS(0x03):1]")
        let firstOK = output.range(of: ":status: 200")
        let raised = output.range(of: "SETTINGS_MAX_CONCURRENT_STREAMS(0x03):1000]")
        #expect(one != nil && firstOK != nil && raised != nil, "\(output)")
        if let one, let firstOK, let raised {
            #expect(one.upperBound < firstOK.lowerBound && firstOK.upperBound < raised.lowerBound, "\(output)")
        }
        let journal = bed.fake.journal
        #expect(journal.map(\.status) == Array(repeating: 200, count: 20), "\(journal.map { ($0.status, $0.detail ?? "") })")
        #expect(Set(journal.map(\.connectionID)).count == 1)
        #expect(bed.fake.deliveredNotifications(for: T.token).count == 20)
        #expect(records.map(\.streamLimits) == [[1, 1000]])
        #expect(records.first?.authentication == .token)
        #expect(records.first?.goAways == [])
    }

    /// Python's h2 gets its first push answered, then sends three at once; a `goAway` fault
    /// hits the first of them: GOAWAY names stream 1, streams 3, 5 and 7 stay unanswered and
    /// nothing of them is delivered, so a sender resends each once.
    @Test(.enabled(if: EarlyAnswerInteropTests.python("h2"), "python3 h2 is not installed: run scripts/install-peers.sh"))
    func aGoAwayFaultLeavesTheLaterInFlightStreamsUnanswered() async throws {
        let bed = try await T.started()
        let other = String(repeating: "cd", count: 32)
        bed.fake.register(token: other, topic: T.topic)
        bed.fake.addFault(.next(1, .goAway(reason: "Shutdown"), deviceToken: T.token))
        let (result, output) = try Self.runH2(bed, mode: "goaway", other)
        let records = bed.fake.connections
        await bed.fake.stop()
        #expect(result.limits == [1, 1000], "\(output)")
        #expect(result.statuses == ["1": "200"], "\(output)")
        #expect(result.goaway == GoAway(last: 1, code: 0, debug: #"{"reason":"Shutdown"}"#), "\(output)")
        #expect(bed.fake.deliveredNotifications(for: T.token).isEmpty)
        let journal = bed.fake.journal.filter { $0.deviceToken == T.token }
        #expect(journal.count == 3 && journal.allSatisfy { $0.delivery == nil })
        #expect(journal.filter { $0.detail?.hasPrefix("not processed") == true }.count == 2, "\(journal.map { $0.detail ?? "" })")
        #expect(records.first?.goAways.map(\.lastStreamID) == [1])
    }
}

extension ConnectionRulesTests {
    /// Python's h2 as a sender, in one of two modes.
    ///
    /// `goaway OTHER`: one push to OTHER, answered, then three at once (streams 3, 5, 7) to
    /// TOKEN. `raw STREAMS`: a client that ignores the limit of 1 it acknowledged (Python's h2
    /// with its own check switched off) sends a push to TOKEN on each of STREAMS (e.g. "1,3")
    /// at once; h2 takes a GOAWAY with an error code as the end and drops the events of the
    /// read it fails on, so the GOAWAY is read from the raw frames.
    static let h2Script = #"""
    import json, socket, sys
    import h2.config, h2.connection, h2.events, h2.exceptions, h2.settings
    mode, host, port, token, auth, topic, payload, argument = sys.argv[1:9]
    payload = payload.encode()
    if mode == "raw":
        h2.connection.H2Connection.open_outbound_streams = property(lambda self: 0)  # ignore the limit
    s = socket.create_connection((host, int(port)))
    s.settimeout(10)
    c = h2.connection.H2Connection(h2.config.H2Configuration(client_side=True))
    c.initiate_connection()
    s.sendall(c.data_to_send())
    result = {"limits": [], "statuses": {}, "goaway": None}
    raw = bytearray()
    def send(stream, device):
        c.send_headers(stream, [(":method", "POST"), (":scheme", "http"), (":path", "/3/device/" + device),
                                (":authority", "127.0.0.1"), ("authorization", "bearer " + auth), ("apns-topic", topic),
                                ("apns-push-type", "alert"), ("content-length", str(len(payload)))])
        c.send_data(stream, payload, end_stream=True)
    def pump(done):
        while not done():
            try:
                data = s.recv(65535)
            except socket.timeout:
                return
            if not data:
                return
            raw.extend(data)
            try:
                events = c.receive_data(data)
            except h2.exceptions.ProtocolError:
                return  # h2 takes a GOAWAY with an error as the end: an answer after it is refused
            for e in events:
                if isinstance(e, h2.events.RemoteSettingsChanged):
                    changed = e.changed_settings.get(h2.settings.SettingCodes.MAX_CONCURRENT_STREAMS)
                    if changed:
                        result["limits"].append(changed.new_value)
                elif isinstance(e, h2.events.ResponseReceived):
                    result["statuses"][str(e.stream_id)] = dict(e.headers)[b":status"].decode()
                elif isinstance(e, h2.events.ConnectionTerminated):
                    result["goaway"] = {"last": e.last_stream_id, "code": int(e.error_code), "debug": (e.additional_data or b"").decode()}
            s.sendall(c.data_to_send())
    if mode == "goaway":
        send(1, argument)
        pump(lambda: "1" in result["statuses"] and len(result["limits"]) >= 2)
        streams = (3, 5, 7)
    else:
        pump(lambda: len(result["limits"]) >= 1)
        streams = [int(n) for n in argument.split(",")]
    for stream in streams:
        send(stream, token)
    s.sendall(c.data_to_send())
    pump(lambda: False)
    at = 0
    while mode == "raw" and at + 9 <= len(raw):
        length = int.from_bytes(raw[at:at + 3], "big")
        if raw[at + 3] == 7:
            body = raw[at + 9:at + 9 + length]
            result["goaway"] = {"last": int.from_bytes(body[0:4], "big") & 0x7fffffff,
                                "code": int.from_bytes(body[4:8], "big"), "debug": bytes(body[8:]).decode()}
        at += 9 + length
    print(json.dumps(result))
    """#

    struct GoAway: Decodable, Equatable { var last: Int; var code: Int; var debug: String }
    struct RawResult: Decodable { var limits: [Int]; var statuses: [String: String]; var goaway: GoAway? }

    /// Runs ``h2Script`` in `mode` with its last `argument`.
    static func runH2(_ bed: T, mode: String, _ argument: String) throws -> (RawResult, String) {
        let script = FileManager.default.temporaryDirectory.appendingPathComponent("h2-\(mode)-\(UUID().uuidString).py")
        try Data(h2Script.utf8).write(to: script)
        defer { try? FileManager.default.removeItem(at: script) }
        let output = try Peer.run(Peer.find("python3") ?? "python3",
                                  [script.path, mode, "127.0.0.1", String(bed.fake.port), T.token, T.providerToken(), T.topic,
                                   String(decoding: T.payload, as: UTF8.self), argument])
        let line = output.split(separator: "\n").last.map(String.init) ?? ""
        return (try #require(try? JSONDecoder().decode(RawResult.self, from: Data(line.utf8)), "\(output)"), output)
    }

    /// Runs ``h2Script`` sending a push on each of `streams` (e.g. "1,3") at once, over the
    /// acknowledged limit.
    static func runRaw(_ bed: T, streams: String) throws -> (RawResult, String) {
        try runH2(bed, mode: "raw", streams)
    }

    /// An idle connection ends as APNs ends it: GOAWAY NO_ERROR `{"reason":"IdleTimeout"}`
    /// naming the last stream, which was answered.
    @Test(.enabled(if: EarlyAnswerInteropTests.python("h2"), "python3 h2 is not installed: run scripts/install-peers.sh"))
    func anIdleConnectionGetsGoAwayIdleTimeout() async throws {
        let bed = try await T.started { $0.idleTimeout = 0.5 }
        let (result, output) = try Self.runRaw(bed, streams: "1")
        await bed.fake.stop()
        #expect(result.statuses == ["1": "200"], "\(output)")
        #expect(result.goaway == GoAway(last: 1, code: 0, debug: #"{"reason":"IdleTimeout"}"#), "\(output)")
    }

    /// A client that ignores the limit of 1 it acknowledged opens streams 1 and 3 at once:
    /// GOAWAY REFUSED_STREAM naming 1 with APNs' text; stream 1 is processed (Python's h2
    /// refuses its answer, which follows a GOAWAY with an error code), stream 3 never is.
    @Test(.enabled(if: EarlyAnswerInteropTests.python("h2"), "python3 h2 is not installed: run scripts/install-peers.sh"))
    func aClientOverTheAcknowledgedLimitGetsGoAwayRefusedStream() async throws {
        let bed = try await T.started()
        let (result, output) = try Self.runRaw(bed, streams: "1,3")
        let records = bed.fake.connections
        await bed.fake.stop()
        #expect(result.goaway == GoAway(last: 1, code: 7, debug: "Maximum active streams violated for this endpoint."), "\(output)")
        #expect(result.limits == [1], "\(output)")
        #expect(bed.fake.journal.count == 1)
        #expect(bed.fake.deliveredNotifications(for: T.token).count == 1)
        #expect(records.first?.goAways.map(\.errorCode) == [7])
    }
}

/// Live Activity push tokens and push-to-start tokens as iOS issues them: 160 hex digits
/// (device tokens: 64).
@Suite struct ActivityTokenLengthTests {
    typealias T = APNsTestbed

    @Test func mintedActivityAndPushToStartTokensHave160HexDigits() throws {
        let bed = T()
        let pushToStart = bed.fake.registerPushToStartToken(device: T.token)
        #expect(pushToStart.count == 160 && pushToStart.allSatisfy(\.isHexDigit))
        var generator = SystemRandomNumberGenerator()
        let minted = FakeAPNs.makeActivityToken(using: &generator)
        #expect(minted.count == 160 && minted.allSatisfy { $0.isHexDigit && !$0.isUppercase })
    }
}
