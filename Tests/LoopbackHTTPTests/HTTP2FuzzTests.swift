@testable import PushCore
import Testing
@testable import LoopbackHTTP

/// Mutated and random input never traps HPACK or the HTTP/2 connection. Deterministic
/// (seeded), bounded in size, no timing.
@Suite struct HTTP2FuzzTests {
    @Test func randomHeaderBlocksNeverTrap() {
        var random = SplitMix64(seed: 0x4850_4143_4b21)
        var errors = 0
        for _ in 0..<5_000 {
            var decoder = HPACKDecoder(maximumTableSize: 256, maximumHeaderListSize: 1024)
            let count = Int.random(in: 0..<64, using: &random)
            let block = (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) }
            do { _ = try decoder.decode(block) } catch { errors += 1 }
            #expect(decoder.table.size <= 256)
        }
        #expect(errors > 0)
    }

    /// A valid conversation whose bytes are then flipped, cut and duplicated.
    static func conversation() -> [UInt8] {
        var peer = HTTP2TestPeer()
        var bytes = HTTP2Frame.clientPreface + HTTP2Frame(stream: 0, payload: .settings(ack: false, [.init(4, 100)])).bytes
        bytes += peer.headers(1, HTTP2TestPeer.requestFields(extra: [("content-length", "3")]), endStream: false).bytes
        bytes += HTTP2Frame(stream: 1, payload: .data([1, 2, 3], endStream: true, padding: 2)).bytes
        bytes += HTTP2Frame(stream: 0, payload: .ping(ack: false, opaque: 9)).bytes
        bytes += HTTP2Frame(stream: 3, payload: .headers(block: peer.block(HTTP2TestPeer.requestFields(method: "GET")), endStream: true,
                                                         endHeaders: false, priority: .init(exclusive: true, dependency: 1, weight: 3), padding: nil)).bytes
        bytes += HTTP2Frame(stream: 3, payload: .continuation(block: [], endHeaders: true)).bytes
        bytes += HTTP2Frame(stream: 1, payload: .windowUpdate(increment: 1000)).bytes
        return bytes
    }

    @Test(arguments: 0..<8)
    func mutatedConversationsNeverTrap(_ round: Int) {
        var random = SplitMix64(seed: UInt64(round) &* 0x9E37_79B9)
        let original = Self.conversation()
        for _ in 0..<300 {
            var bytes = original
            for _ in 0..<Int.random(in: 1...6, using: &random) {
                let index = Int.random(in: HTTP2Frame.clientPreface.count..<bytes.count, using: &random)
                switch Int.random(in: 0..<3, using: &random) {
                case 0: bytes[index] = UInt8.random(in: 0...255, using: &random)
                case 1: bytes.removeSubrange(index..<min(bytes.count, index + Int.random(in: 1...8, using: &random)))
                default: bytes.insert(contentsOf: bytes[index..<min(bytes.count, index + 9)], at: index)
                }
                if bytes.count <= HTTP2Frame.clientPreface.count { break }
            }
            var configuration = HTTPServerConfiguration()
            configuration.requestBodyBudget = RequestBodyBudget(limit: 64 * 1024 * 1024)  // not the process's
            var connection = HTTP2Connection(configuration: configuration, connectionID: 1)
            var actions: [ConnectionAction] = []
            connection.start(into: &actions)
            // Deliver in random chunks, answer every dispatch, and check the output parses.
            var offset = 0
            var output = HTTP2FrameDecoder(maximumFrameSize: 1 << 24)
            while offset < bytes.count {
                let end = min(bytes.count, offset + Int.random(in: 1...64, using: &random))
                actions = []
                bytes[offset..<end].withUnsafeBytes { connection.receive($0, into: &actions) }
                offset = end
                for action in actions {
                    switch action {
                    case .write(let written): output.append(written)
                    case .dispatch(_, let stream):
                        var more: [ConnectionAction] = []
                        connection.respond(HTTPResponse(status: .ok, body: [1]), stream: stream, into: &more)
                        for case .write(let written) in more { output.append(written) }
                    case .close, .reset: break
                    }
                }
            }
            while let frame = try? output.nextFrame() { _ = frame }
            #expect(output.bufferedCount == 0, "the server wrote a partial frame")
        }
    }
}
