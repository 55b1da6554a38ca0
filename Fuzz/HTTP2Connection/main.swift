// libFuzzer target for HTTP2Connection: after a valid client preface and SETTINGS, the
// payload arrives in arbitrary chunkings (FuzzInput). Dispatched streams are answered in
// varied ways (respond, reset, lose, answer later, GOAWAY), as the fakes' faults do. The
// connection must never trap, never act after closing, and only ever write whole, valid
// frames. With every answer deferred to the end, the same bytes delivered in one piece
// must dispatch the same requests and send the same RST_STREAM and GOAWAY codes: how TCP
// splits a stream never changes what the server does. Built by
// Fuzz/run.sh HTTP2Connection SECONDS.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTP2Connection(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    var configuration = HTTPServerConfiguration()
    configuration.maxBodyBytes = 4_096
    configuration.requestBodyBudget = RequestBodyBudget(limit: 1 << 40)  // never the limit: not under test here
    configuration.http2.maxConcurrentStreams = 8
    var session = Session(connection: HTTP2Connection(configuration: configuration, connectionID: 3), maxBody: configuration.maxBodyBytes)
    session.run { $0.start(into: &$1) }
    let opening = HTTP2Frame.clientPreface + HTTP2Frame(stream: 0, payload: .settings(ack: false, [])).bytes
    session.run { connection, actions in opening.withUnsafeBytes { connection.receive($0, into: &actions) } }
    for chunk in input.chunks() where !session.closed {
        session.run { connection, actions in chunk.withUnsafeBytes { connection.receive($0, into: &actions) } }
        // Answer the oldest held stream now and then, as a delay fault would.
        if input.next() % 3 == 0, !session.held.isEmpty {
            let stream = session.held.removeFirst()
            session.run { $0.respond(HTTPResponse(status: .ok, body: Array(repeating: 0x61, count: 100)), stream: stream, into: &$1) }
        }
    }
    for stream in session.held where !session.closed {
        session.run { $0.respond(HTTPResponse(status: .noContent), stream: stream, into: &$1) }
    }
    session.run { $0.shutdown(into: &$1) }
    session.run { $0.peerClosed(into: &$1) }

    var again = FuzzInput(data, size)
    let chunked = deferredTranscript(of: again.chunks(), prelude: opening)
    let whole = deferredTranscript(of: [again.payload[...]], prelude: opening)
    if chunked != whole {
        fuzzFailure("chunking changed the outcome:\n  chunked \(chunked)\n  whole   \(whole)")
    }
    return 0
}

/// Dispatched requests and the RST_STREAM / GOAWAY codes written, with no stream answered
/// until every chunk was delivered (answers between chunks would legitimately change
/// which later frames find their stream open). A stream reset by either side is left out
/// of the dispatches: it is not dispatched when the reset arrives in the same read
/// (Rapid Reset), so whether it was depends on the chunking.
func deferredTranscript(of chunks: [ArraySlice<UInt8>], prelude: [UInt8]) -> [String] {
    var configuration = HTTPServerConfiguration()
    configuration.maxBodyBytes = 4_096
    configuration.requestBodyBudget = RequestBodyBudget(limit: 1 << 40)  // never the limit: not under test here
    configuration.http2.maxConcurrentStreams = 10_000
    var connection = HTTP2Connection(configuration: configuration, connectionID: 3)
    var output = HTTP2FrameDecoder(maximumFrameSize: 1 << 24)
    // Kept apart: within one call the codec emits writes before dispatches, so their
    // interleaving legitimately depends on the chunking; each list on its own must not.
    var lines: [String] = []
    var dispatched: [String] = []
    var actions: [ConnectionAction] = []
    connection.start(into: &actions)
    prelude.withUnsafeBytes { connection.receive($0, into: &actions) }
    for chunk in chunks {
        chunk.withUnsafeBytes { connection.receive($0, into: &actions) }
    }
    for action in actions {
        switch action {
        case .write(let bytes):
            output.append(bytes)
            while let frame = try? output.nextFrame() {
                switch frame.payload {
                case .rstStream(let code): lines.append("rst \(frame.stream) \(code.rawValue)")
                case .goAway(let last, let code, _): lines.append("goaway \(last) \(code.rawValue)")
                default: break
                }
            }
        case .dispatch(let request, let stream):
            dispatched.append("dispatch \(stream) \(request.method) \(request.path) \(request.authority ?? "-") \(request.headers) \(request.body)")
        case .close: lines.append("close")
        case .reset: lines.append("reset")
        }
    }
    var resetStreams = Set(lines.compactMap { line -> String? in
        line.hasPrefix("rst ") ? line.split(separator: " ").dropFirst().first.map(String.init) : nil
    })
    var input = HTTP2FrameDecoder(maximumFrameSize: 1 << 24)
    input.append(Array(prelude.dropFirst(HTTP2Frame.clientPreface.count)))
    for chunk in chunks { input.append(Array(chunk)) }
    while let frame = try? input.nextFrame() {
        if case .rstStream = frame.payload { resetStreams.insert(String(frame.stream)) }
    }
    let kept = dispatched.filter { line in
        !resetStreams.contains(line.split(separator: " ").dropFirst().first.map(String.init) ?? "")
    }
    return kept + lines
}

/// The connection plus what the fuzz target checks about its output.
struct Session {
    var connection: HTTP2Connection
    let maxBody: Int
    var output = HTTP2FrameDecoder(maximumFrameSize: 1 << 24)
    var held: [UInt32] = []
    var closed = false
    var dispatched = 0

    /// Runs one codec call, then performs its actions the way the server shell would.
    mutating func run(_ call: (inout HTTP2Connection, inout [ConnectionAction]) -> Void) {
        var actions: [ConnectionAction] = []
        call(&connection, &actions)
        var index = 0
        while index < actions.count {
            let action = actions[index]
            index += 1
            if closed { fuzzFailure("action \(action) after close or reset") }
            switch action {
            case .write(let bytes):
                output.append(bytes)
                do {
                    while try output.nextFrame() != nil {}
                } catch {
                    fuzzFailure("the connection wrote an invalid frame: \(error)")
                }
            case .dispatch(let request, let stream):
                dispatched += 1
                if request.body.count > maxBody { fuzzFailure("body of \(request.body.count) over the limit") }
                if stream % 2 == 0 { fuzzFailure("dispatched even stream \(stream)") }
                var more: [ConnectionAction] = []
                switch (dispatched % 8, stream % 5) {
                case (0, _): connection.abandon(stream: stream, disposition: .reset, into: &more)
                case (1, _): connection.abandon(stream: stream, disposition: .loseResponse, into: &more)
                case (2, _): held.append(stream)
                case (3, 0): connection.abandon(stream: stream, disposition: .goAway(debugData: [1, 2]), into: &more)
                default:
                    connection.respond(HTTPResponse(status: .ok, body: Array(repeating: 0x62, count: Int(stream % 300))), stream: stream, into: &more)
                }
                actions.append(contentsOf: more)
            case .close, .reset:
                closed = true
            }
        }
    }
}
