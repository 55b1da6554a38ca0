/// HTTP/1.1 (and 1.0) on one connection, as a byte-in / action-out state machine (STYLE 6).
///
/// Requests are answered strictly in order: one request is dispatched at a time and any
/// pipelined bytes behind it stay buffered until its response is written. Framing errors
/// get their status (400, 405, 408, 417, 431, 501, 505) with `connection: close`, and
/// then the connection closes. A body over `maxBodyBytes` (declared or, chunked, as it
/// arrives) is not buffered: the request is dispatched at once with
/// ``HTTPRequest/bodyLimitExceeded`` and no body, the rest of the connection's input is
/// discarded, and the connection closes after the answer (the shell lingers, reading and
/// dropping, so the answer is not lost to a reset); a request line whose version is not `HTTP/<digit>.<digit>`
/// (not HTTP/1.x at all, e.g. h2spec's `INVALID CONNECTION PREFACE`) closes without a
/// response. Nothing a client sends can trap.
///
/// ```swift
/// var codec = HTTP1Codec(configuration: .init(), connectionID: 1)
/// var actions: [ConnectionAction] = []
/// Array("GET / HTTP/1.1\r\nHost: x\r\n\r\n".utf8).withUnsafeBytes { codec.receive($0, into: &actions) }
/// // actions == [.dispatch(request, stream: 1)]
/// ```
package struct HTTP1Codec: ConnectionCodec {
    /// The methods served; anything else is a 405.
    package static let allowedMethods: Set<String> = ["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"]
    /// The `Allow` header value of a 405.
    package static let allowedMethodsList = "GET, HEAD, POST, PUT, DELETE, PATCH, OPTIONS"

    enum State: Equatable {
        case head
        case fixedBody(remaining: Int)
        case chunkHeader
        case chunkData(remaining: Int)
        case chunkDataEnd
        case trailers(bytes: Int)
        case awaitingResponse
        case closed
    }

    struct InFlight {
        var stream: UInt32
        var isHead: Bool
        var keepAlive: Bool
        var minorVersion: Int
    }

    let maxHeaderBytes: Int
    let maxTargetBytes: Int
    let maxBodyBytes: Int
    let connectionID: UInt64
    /// Received bytes not yet consumed start at `inputStart`.
    var input: [UInt8] = []
    var inputStart = 0
    /// How far the current head has been scanned for its end, relative to `inputStart`.
    var headScanned = 0
    var state: State = .head
    var head: HTTP1RequestHead?
    var body: [UInt8] = []
    var inFlight: InFlight?
    var nextStream: UInt32 = 1
    var peerHasClosed = false
    var draining = false
    /// Pipelined input overflowed while a response was pending, or the request was the
    /// connection's last (`maxRequestsPerConnection`): answer it, then close.
    var closeAfterResponse = false
    let maxRequests: Int
    var requestsDispatched = 0
    /// A request over the body limit was dispatched: every later byte is dropped unread.
    var discardingInput = false

    /// - Parameters:
    ///   - configuration: supplies `maxHeaderBytes` and `maxBodyBytes`.
    ///   - connectionID: copied into every request, for per-connection rules in a fake.
    package init(configuration: HTTPServerConfiguration, connectionID: UInt64) {
        // Clamped so the limit arithmetic below can never overflow.
        maxHeaderBytes = min(max(64, configuration.maxHeaderBytes), 1 << 30)
        maxTargetBytes = max(1, configuration.maxRequestTargetBytes)
        maxBodyBytes = min(max(0, configuration.maxBodyBytes), 1 << 40)
        self.connectionID = connectionID
        maxRequests = configuration.maxRequestsPerConnection
    }

    /// Body octets of the request being read, buffered (the server charges them to its
    /// ``RequestBodyBudget``).
    package var bufferedBodyBytes: Int { body.count }

    package var activity: ConnectionActivity {
        if inFlight != nil { return .awaitingResponse }
        if state == .closed { return .idle }
        if state != .head || inputStart < input.count { return .readingRequest }
        return .idle
    }

    package mutating func start(into actions: inout [ConnectionAction]) {}

    package mutating func receive(_ bytes: UnsafeRawBufferPointer, into actions: inout [ConnectionAction]) {
        guard state != .closed, !closeAfterResponse, !discardingInput else { return }
        compactInput()
        input.append(contentsOf: bytes)
        if state == .awaitingResponse {
            // Pipelined bytes wait; bound them so a client cannot grow memory without limit.
            if input.count - inputStart > maxHeaderBytes + maxBodyBytes + 65_536 {
                closeAfterResponse = true
                input = []
                inputStart = 0
            }
            return
        }
        parse(into: &actions)
    }

    package mutating func respond(_ response: HTTPResponse, stream: UInt32, into actions: inout [ConnectionAction]) {
        respond(response, stream: stream, forceClose: false, into: &actions)
    }

    /// Writes the response for `stream`; `forceClose` adds `connection: close` and closes
    /// after it (used for the `.goAway` disposition, which HTTP/1.1 has no frame for).
    package mutating func respond(_ response: HTTPResponse, stream: UInt32, forceClose: Bool, into actions: inout [ConnectionAction]) {
        var bytes: [UInt8] = []
        let first = actions.count
        respond(response, stream: stream, forceClose: forceClose, writingTo: &bytes, into: &actions)
        if !bytes.isEmpty { actions.insert(.write(bytes), at: first) }
    }

    /// As ``respond(_:stream:forceClose:into:)``, but the response's bytes are appended to
    /// `output` (the connection's reused output buffer) instead of becoming a `.write`
    /// action; they come before everything this call appends to `actions`.
    package mutating func respond(_ response: HTTPResponse, stream: UInt32, forceClose: Bool,
                                  writingTo output: inout [UInt8], into actions: inout [ConnectionAction]) {
        guard state == .awaitingResponse, let flight = inFlight, flight.stream == stream else { return }
        inFlight = nil
        let closing = forceClose || !flight.keepAlive || draining || closeAfterResponse
        HTTP1ResponseWriter.serialize(
            response, headRequest: flight.isHead, minorVersion: flight.minorVersion, closing: closing, into: &output)
        if closing {
            close(into: &actions)
            return
        }
        state = .head
        parse(into: &actions)
        if peerHasClosed && inFlight == nil && state != .closed {
            close(into: &actions)
        }
    }

    package mutating func abandon(stream: UInt32, disposition: ResponseDisposition, into actions: inout [ConnectionAction]) {
        guard state == .awaitingResponse, let flight = inFlight, flight.stream == stream else { return }
        inFlight = nil
        state = .closed
        input = []
        inputStart = 0
        if disposition == .reset {
            actions.append(.reset)
        } else {
            actions.append(.close)
        }
    }

    package mutating func peerClosed(into actions: inout [ConnectionAction]) {
        peerHasClosed = true
        // A response still owed is written (the peer may only have half-closed);
        // a partial request can never complete, so it is dropped.
        if inFlight == nil && state != .closed { close(into: &actions) }
    }

    package mutating func shutdown(into actions: inout [ConnectionAction]) {
        draining = true
        if inFlight == nil && state != .closed { close(into: &actions) }
    }

    /// The request timeout fired: a partial request gets 408 and the connection closes;
    /// an idle connection just closes.
    package mutating func requestTimedOut(into actions: inout [ConnectionAction]) {
        guard inFlight == nil, state != .closed else { return }
        if activity == .readingRequest {
            fail(.requestTimeout, into: &actions)
        } else {
            close(into: &actions)
        }
    }

    // MARK: - Transitions

    mutating func dispatch(into actions: inout [ConnectionAction], bodyLimitExceeded: Bool = false) {
        guard var head = head.take() else { return }
        let stream = nextStream
        nextStream &+= 1
        requestsDispatched += 1
        if requestsDispatched >= maxRequests { closeAfterResponse = true }  // `connection: close` on its response
        inFlight = InFlight(stream: stream, isHead: head.method == "HEAD", keepAlive: head.keepAlive, minorVersion: head.minorVersion)
        state = .awaitingResponse
        // The head's Strings and fields and the body move into the request: swapped out for
        // empty values (no allocation), not copied (retained) and released with the head.
        var requestBody: [UInt8] = [], target = "", headers = HTTPFields()
        swap(&requestBody, &body)
        swap(&target, &head.target)
        swap(&headers, &head.headers)
        let request = HTTPRequest(
            method: head.method, path: target, authority: head.authority.take(), headers: headers,
            body: requestBody, version: .http1_1, connectionID: connectionID, bodyLimitExceeded: bodyLimitExceeded)
        actions.append(.dispatch(request, stream: stream))
    }

    /// The body exceeds the limit: dispatch the head alone, marked, and drop the rest of
    /// the input; the answer closes the connection (no 100 Continue is sent).
    mutating func dispatchOverLimit(into actions: inout [ConnectionAction]) {
        body = []
        head?.keepAlive = false
        discardingInput = true
        input = []
        inputStart = 0
        dispatch(into: &actions, bodyLimitExceeded: true)
    }

    mutating func fail(_ error: HTTP1RequestError, into actions: inout [ConnectionAction]) {
        if error.isAnswered { actions.append(.write(HTTP1ResponseWriter.errorResponse(error))) }
        close(into: &actions)
    }

    mutating func close(into actions: inout [ConnectionAction]) {
        state = .closed
        input = []
        inputStart = 0
        head = nil
        body = []
        actions.append(.close)
    }

    mutating func compactInput() {
        if inputStart == input.count {
            input.removeAll(keepingCapacity: input.capacity <= 1 << 20)
            inputStart = 0
        } else if inputStart >= 4_096 && inputStart * 2 >= input.count {
            input.removeSubrange(0..<inputStart)
            inputStart = 0
        }
    }
}
