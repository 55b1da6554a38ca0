@testable import PushCrypto
import Testing
@testable import LoopbackHTTP

/// The TLS stage holds the codec's writes until the loop flushes the connection and seals
/// them then, together: the responses to one read's requests share a record instead of
/// taking one each (bytes on the wire change, what the peer reads does not). A close still
/// sends what was held, then close_notify; a reset drops it. Driven with the session tests'
/// client (TLSSessionTests), no sockets.
@Suite struct TLSStageCoalescingTests {
    static func establishedStage() throws -> (TLSStage, TLSSessionTests.Client) {
        let (server, client) = try TLSSessionTests.handshake()
        var stage = TLSStage(identity: TLSTestSupport.identity, offersHTTP2: true)
        stage.tls = server
        stage.handshakeCompleted = true
        return (stage, client)
    }

    @Test func writesOfSeveralCallsShareOneRecordAtTheFlush() throws {
        var (stage, client) = try Self.establishedStage()
        let responses = (0..<32).map { index in [UInt8](repeating: UInt8(index), count: 40 + index) }
        for response in responses {
            var actions: [ConnectionAction] = [.write(response)]
            stage.protect(&actions, from: 0)
            #expect(actions.isEmpty, "held, not sealed per call")
        }
        #expect(stage.heldBytes == responses.joined().count)
        var output: [UInt8] = [9, 9]
        stage.sealHeldOutput(into: &output)
        #expect(stage.heldBytes == 0)
        #expect(output.prefix(2) == [9, 9], "appended after what the output held")
        let opened = try client.open(Array(output.dropFirst(2)))
        #expect(opened.count == 1, "one record for all 32 responses")
        #expect(opened.first?.0 == .applicationData)
        #expect(opened.first?.1 == Array(responses.joined()))
        var empty: [UInt8] = []
        stage.sealHeldOutput(into: &empty)
        #expect(empty.isEmpty, "nothing held, nothing sealed")
    }

    /// Requests among the writes stay, in order, tagged with the SNI name; the writes around
    /// them are held in order.
    @Test func requestsAreTaggedWhereTheyLie() throws {
        var (stage, client) = try Self.establishedStage()
        let request = HTTPRequest(method: "POST", path: "/3/device/ab", authority: "localhost", headers: [:], body: [1], connectionID: 3)
        var actions: [ConnectionAction] = [.write([7]), .write([1]), .dispatch(request, stream: 1), .write([2]),
                                           .dispatch(request, stream: 3), .write([3])]
        stage.protect(&actions, from: 1)
        guard actions.count == 3, case .dispatch(let first, 1) = actions[1], case .dispatch(let second, 3) = actions[2] else {
            Issue.record("expected the two requests after the first action, got \(actions)")
            return
        }
        #expect(actions[0] == .write([7]), "actions before `from` are left alone")
        #expect(first.tlsServerName == "localhost" && second.tlsServerName == "localhost")
        var output: [UInt8] = []
        stage.sealHeldOutput(into: &output)
        #expect(try client.open(output).map(\.1) == [[1, 2, 3]])
    }

    @Test func closeSendsWhatWasHeldThenCloseNotify() throws {
        var (stage, client) = try Self.establishedStage()
        var actions: [ConnectionAction] = [.write(Array("first".utf8))]
        stage.protect(&actions, from: 0)
        actions = [.write(Array("last".utf8)), .close, .write(Array("after the close".utf8))]
        stage.protect(&actions, from: 0)
        guard actions.count == 3, case .write(let data) = actions[0], case .write(let alert) = actions[1] else {
            Issue.record("expected data, close_notify and close, got \(actions)")
            return
        }
        #expect(actions[2] == .close)
        #expect(try client.open(data).map(\.1) == [Array("firstlast".utf8)])
        #expect(try client.open(alert).map(\.1) == [[1, 0]])
        #expect(stage.heldBytes == 0, "nothing is sent after close_notify")
    }

    @Test func resetDropsWhatWasHeld() throws {
        var (stage, _) = try Self.establishedStage()
        var actions: [ConnectionAction] = [.write([1, 2, 3])]
        stage.protect(&actions, from: 0)
        actions = [.reset]
        stage.protect(&actions, from: 0)
        #expect(actions == [.reset])
        #expect(stage.heldBytes == 0)
    }
}
