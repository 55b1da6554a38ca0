@testable import LoopbackHTTP

/// A scripted HTTP/2 client for codec tests: builds frames, feeds them to a connection and
/// reads back the frames and dispatches the connection asked for. No sockets.
struct HTTP2TestPeer {
    var connection: HTTP2Connection
    var encoder = HPACKEncoder(indexing: .incrementalIndexing, huffman: true)
    var decoder = HPACKDecoder()
    var closed = false
    var wasReset = false

    /// What the connection wrote on starting (its SETTINGS, a WINDOW_UPDATE).
    var started = Output()

    /// `acknowledges`: the peer's first bytes include its ACK of the server's SETTINGS (false:
    /// a client that sends before it read them). `clientCertified`: as behind TLS with a
    /// client certificate.
    init(configuration: HTTPServerConfiguration = HTTPServerConfiguration(), settings: [HTTP2Frame.Setting] = [],
         acknowledges: Bool = true, clientCertified: Bool = false) {
        var configuration = configuration
        // Bodies a peer leaves buffered must not fill the process-wide budget of the servers
        // tested beside it: unless the test gives one, a peer has a budget of its own.
        if configuration.requestBodyBudget === RequestBodyBudget.shared {
            configuration.requestBodyBudget = RequestBodyBudget(limit: 64 * 1024 * 1024)
        }
        connection = HTTP2Connection(configuration: configuration, connectionID: 7, clientCertified: clientCertified)
        var actions: [ConnectionAction] = []
        connection.start(into: &actions)
        started = frames(of: actions)
        _ = send(HTTP2Frame.clientPreface + HTTP2Frame(stream: 0, payload: .settings(ack: false, settings)).bytes
                 + (acknowledges ? HTTP2Frame(stream: 0, payload: .settings(ack: true, [])).bytes : []))
    }

    /// What one call produced.
    struct Output {
        var frames: [HTTP2Frame] = []
        var dispatches: [(HTTPRequest, UInt32)] = []
        var closed = false
        var reset = false

        var goAway: (lastStream: UInt32, code: HTTP2ErrorCode, debug: [UInt8])? {
            for frame in frames { if case .goAway(let last, let code, let debug) = frame.payload { return (last, code, debug) } }
            return nil
        }
        /// SETTINGS_MAX_CONCURRENT_STREAMS of each SETTINGS frame (not ACK) that carries it.
        var streamLimits: [UInt32] {
            frames.compactMap { frame -> UInt32? in
                guard case .settings(false, let settings) = frame.payload else { return nil }
                return settings.first { $0.identifier == HTTP2Frame.Setting.maxConcurrentStreams }?.value
            }
        }
        func resets() -> [UInt32: HTTP2ErrorCode] {
            var result: [UInt32: HTTP2ErrorCode] = [:]
            for frame in frames { if case .rstStream(let code) = frame.payload { result[frame.stream] = code } }
            return result
        }
        func data(on stream: UInt32) -> [UInt8] {
            frames.filter { $0.stream == stream }.flatMap { frame -> [UInt8] in
                if case .data(let bytes, _, _) = frame.payload { return bytes }
                return []
            }
        }
        func ended(_ stream: UInt32) -> Bool {
            frames.contains { frame in
                guard frame.stream == stream else { return false }
                switch frame.payload {
                case .data(_, let end, _): return end
                case .headers(_, let end, _, _, _): return end
                default: return false
                }
            }
        }
    }

    mutating func frames(of actions: [ConnectionAction]) -> Output {
        var output = Output()
        var frameDecoder = HTTP2FrameDecoder(maximumFrameSize: 1 << 24)
        for action in actions {
            switch action {
            case .write(let bytes): frameDecoder.append(bytes)
            case .dispatch(let request, let stream): output.dispatches.append((request, stream))
            case .close: output.closed = true; closed = true
            case .reset: output.reset = true; wasReset = true
            }
        }
        while let frame = try? frameDecoder.nextFrame() { output.frames.append(frame) }
        return output
    }

    mutating func send(_ bytes: [UInt8]) -> Output {
        var actions: [ConnectionAction] = []
        bytes.withUnsafeBytes { connection.receive($0, into: &actions) }
        return frames(of: actions)
    }

    mutating func send(_ frames: [HTTP2Frame]) -> Output {
        send(frames.flatMap(\.bytes))
    }

    mutating func respond(_ response: HTTPResponse, stream: UInt32) -> Output {
        var actions: [ConnectionAction] = []
        connection.respond(response, stream: stream, into: &actions)
        return frames(of: actions)
    }

    mutating func abandon(_ stream: UInt32, _ disposition: ResponseDisposition) -> Output {
        var actions: [ConnectionAction] = []
        connection.abandon(stream: stream, disposition: disposition, into: &actions)
        return frames(of: actions)
    }

    mutating func block(_ fields: [(name: String, value: String)]) -> [UInt8] {
        var out: [UInt8] = []
        encoder.encode(fields, into: &out)
        return out
    }

    static func requestFields(method: String = "POST", path: String = "/3/device/abc", extra: [(name: String, value: String)] = []) -> [(name: String, value: String)] {
        [(":method", method), (":scheme", "https"), (":path", path), (":authority", "localhost")] + extra
    }

    mutating func headers(_ stream: UInt32, _ fields: [(name: String, value: String)], endStream: Bool) -> HTTP2Frame {
        HTTP2Frame(stream: stream, payload: .headers(block: block(fields), endStream: endStream, endHeaders: true, priority: nil, padding: nil))
    }

    /// Decodes the response HEADERS of `stream` found in `output`.
    mutating func responseFields(_ output: Output, stream: UInt32) -> [String: String] {
        var result: [String: String] = [:]
        for frame in output.frames where frame.stream == stream {
            if case .headers(let block, _, _, _, _) = frame.payload, let fields = try? decoder.decode(block) {
                for field in fields { result[field.name] = field.value }
            }
        }
        return result
    }
}
