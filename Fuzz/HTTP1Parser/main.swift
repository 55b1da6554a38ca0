// libFuzzer target for HTTP1Codec: arbitrary bytes in arbitrary chunkings (FuzzInput) must
// give dispatches, writes and a close, never a trap or a sanitizer report. Every dispatch
// is answered, so pipelined requests behind it are parsed too. Small limits make the
// 413/431 paths reachable. The same bytes delivered in one piece must give the same
// transcript (requests, responses, close): how TCP splits a stream never changes what
// the server does. Built by Fuzz/run.sh HTTP1Parser SECONDS.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTP1Parser(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let chunked = transcript(of: input.chunks())
    let whole = transcript(of: [input.payload[...]])
    if chunked != whole {
        fuzzFailure("chunking changed the outcome:\n  chunked \(chunked)\n  whole   \(whole)")
    }
    return 0
}

/// What the codec did with `chunks`, as comparable lines. `100 Continue` is left out: it
/// is sent only when the body has not arrived with the head, which depends on chunking.
func transcript(of chunks: [ArraySlice<UInt8>]) -> [String] {
    var configuration = HTTPServerConfiguration()
    configuration.maxHeaderBytes = 512
    configuration.maxBodyBytes = 1_024
    var codec = HTTP1Codec(configuration: configuration, connectionID: 7)
    var lines: [String] = []
    var actions: [ConnectionAction] = []
    codec.start(into: &actions)
    var closed = false
    var answered = 0
    for chunk in chunks {
        actions = []
        chunk.withUnsafeBytes { codec.receive($0, into: &actions) }
        // Answer dispatches until the codec stops producing them (pipelining).
        var index = 0
        while index < actions.count {
            let action = actions[index]
            index += 1
            if closed { fuzzFailure("action \(action) after close") }
            switch action {
            case .dispatch(let request, let stream):
                if request.body.count > configuration.maxBodyBytes { fuzzFailure("body of \(request.body.count) over the limit") }
                if !HTTP1Codec.allowedMethods.contains(request.method) { fuzzFailure("dispatched method \(request.method)") }
                if codec.activity != .awaitingResponse { fuzzFailure("dispatch without awaitingResponse") }
                lines.append("dispatch \(stream) \(request.method) \(request.path) \(request.authority ?? "-") \(request.headers) \(request.body)")
                answered += 1
                let status: HTTPStatus = answered % 3 == 0 ? .notFound : .ok
                var more: [ConnectionAction] = []
                if answered % 7 == 0 {
                    codec.abandon(stream: stream, disposition: .loseResponse, into: &more)
                } else {
                    codec.respond(HTTPResponse(status: status, body: Array("ok".utf8)), stream: stream, into: &more)
                }
                actions.append(contentsOf: more)
            case .write(let bytes):
                if !bytes.starts(with: Array("HTTP/1.".utf8)) { fuzzFailure("a write that is not a response") }
                if !bytes.starts(with: Array("HTTP/1.1 100 ".utf8)) { lines.append("write \(String(decoding: bytes, as: UTF8.self))") }
            case .close:
                closed = true
                lines.append("close")
            case .reset:
                closed = true
                lines.append("reset")
            }
        }
        if answered > 10_000 { break }
    }
    actions = []
    codec.requestTimedOut(into: &actions)
    codec.peerClosed(into: &actions)
    codec.shutdown(into: &actions)
    if closed && !actions.isEmpty { fuzzFailure("actions \(actions) after close") }
    return lines
}
