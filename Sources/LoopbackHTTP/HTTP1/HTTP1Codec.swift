/// HTTP/1.1 (and 1.0) on one connection, as a byte-in / action-out state machine with no I/O.
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

    /// Where the connection is: reading a request (head, body, chunks, trailers), waiting
    /// for the response to the one dispatched, or closed. What follows a response is part
    /// of the waiting state, so a connection cannot be closing and reading at once.
    enum State {
        case head
        case fixedBody(remaining: Int)
        case chunkHeader
        case chunkData(remaining: Int)
        case chunkDataEnd
        case trailers(bytes: Int)
        case awaitingResponse(InFlight)
        case closed
    }

    /// The request dispatched and not yet answered.
    struct InFlight {
        var stream: UInt32
        var isHead: Bool
        var minorVersion: Int
        var afterResponse: AfterResponse
    }

    /// What follows the response being awaited, in order of finality.
    enum AfterResponse: Comparable {
        /// Read the next request; pipelined bytes wait in the input, bounded.
        case nextRequest
        /// Answer the requests the input already holds, then close: the peer closed its side.
        case finishBuffered
        /// Close (`connection: close`): the request asked for it or was the connection's
        /// last (`maxRequestsPerConnection`), its body was over the limit, pipelined input
        /// overflowed, or the server is shutting down. Input arriving meanwhile is dropped.
        case close
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
    /// Emptied buffers of an answered request's body and fields, kept for the next request
    /// (``recycle(_:)``) so a keep-alive request does not allocate them.
    var spareBody: [UInt8] = []
    /// The field buffer of the last answered request, and the last target and `Host`, for
    /// the next head to reuse (``HTTP1RequestHead/Reusable``).
    var reusable = HTTP1RequestHead.Reusable()
    var nextStream: UInt32 = 1
    let maxRequests: Int
    var requestsDispatched = 0

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
        switch state {
        case .awaitingResponse: return .awaitingResponse
        case .closed: return .idle
        case .head: return inputStart < input.count ? .readingRequest : .idle
        case .fixedBody, .chunkHeader, .chunkData, .chunkDataEnd, .trailers: return .readingRequest
        }
    }

    package mutating func start(into actions: inout [ConnectionAction]) {}

    package mutating func receive(_ bytes: UnsafeRawBufferPointer, into actions: inout [ConnectionAction]) {
        switch state {
        case .closed:
            return
        case .awaitingResponse(var flight):
            guard flight.afterResponse != .close else { return }
            compactInput()
            input.append(contentsOf: bytes)
            // Pipelined bytes wait; bound them so a client cannot grow memory without limit.
            if input.count - inputStart > maxHeaderBytes + maxBodyBytes + 65_536 {
                flight.afterResponse = .close
                state = .awaitingResponse(flight)
                input = []
                inputStart = 0
            }
        case .head, .fixedBody, .chunkHeader, .chunkData, .chunkDataEnd, .trailers:
            if inputStart == input.count && input.capacity <= 1 << 20 {
                // Everything before was consumed (a request answered within its read): the
                // new bytes replace it in one call, not an emptying and an append.
                input.replaceSubrange(0..<input.count, with: bytes)
                inputStart = 0
            } else {
                compactInput()
                input.append(contentsOf: bytes)
            }
            parse(into: &actions)
        }
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
        guard case .awaitingResponse(let flight) = state, flight.stream == stream else { return }
        let closing = forceClose || flight.afterResponse == .close
        HTTP1ResponseWriter.serialize(
            response, headRequest: flight.isHead, minorVersion: flight.minorVersion, closing: closing, into: &output)
        if closing {
            close(into: &actions)
            return
        }
        state = .head
        parse(into: &actions)
        // The peer has closed: a request the buffered input completed is answered too.
        if flight.afterResponse == .finishBuffered { endReading(.finishBuffered, into: &actions) }
    }

    package mutating func abandon(stream: UInt32, disposition: ResponseDisposition, into actions: inout [ConnectionAction]) {
        guard case .awaitingResponse(let flight) = state, flight.stream == stream else { return }
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
        // A response still owed is written (the peer may only have half-closed).
        endReading(.finishBuffered, into: &actions)
    }

    package mutating func shutdown(into actions: inout [ConnectionAction]) {
        endReading(.close, into: &actions)
    }

    /// The request timeout fired: a partial request gets 408 and the connection closes;
    /// an idle connection just closes.
    package mutating func requestTimedOut(into actions: inout [ConnectionAction]) {
        switch state {
        case .awaitingResponse, .closed: return
        case .head, .fixedBody, .chunkHeader, .chunkData, .chunkDataEnd, .trailers: break
        }
        if activity == .readingRequest {
            fail(.requestTimeout, into: &actions)
        } else {
            close(into: &actions)
        }
    }

    // MARK: - Transitions

    /// No new request is to be read: the one awaited is answered and followed by `after` at
    /// least; a partial request can never complete, so it is dropped and the connection closes.
    mutating func endReading(_ after: AfterResponse, into actions: inout [ConnectionAction]) {
        switch state {
        case .awaitingResponse(var flight):
            flight.afterResponse = max(flight.afterResponse, after)
            state = .awaitingResponse(flight)
        case .closed:
            break
        case .head, .fixedBody, .chunkHeader, .chunkData, .chunkDataEnd, .trailers:
            close(into: &actions)
        }
    }

    /// Dispatches the request whose head is kept in `head` (its body was read after it).
    mutating func dispatch(into actions: inout [ConnectionAction], bodyLimitExceeded: Bool = false) {
        guard let head = head.take() else { return }
        dispatch(head, into: &actions, bodyLimitExceeded: bodyLimitExceeded)
    }

    /// Dispatches `head` with the body read so far, as one request.
    mutating func dispatch(_ head: consuming HTTP1RequestHead, into actions: inout [ConnectionAction], bodyLimitExceeded: Bool = false) {
        let stream = nextStream
        nextStream &+= 1
        requestsDispatched += 1
        // The connection's last request gets `connection: close` on its response.
        let afterResponse: AfterResponse = head.keepAlive && requestsDispatched < maxRequests ? .nextRequest : .close
        state = .awaitingResponse(InFlight(
            stream: stream, isHead: head.method.utf8.count == 4 && head.method == "HEAD", minorVersion: head.minorVersion,
            afterResponse: afterResponse))
        // The head's Strings and fields and the body move into the request: swapped out for
        // empty values (no allocation), not copied (retained) and released with the head.
        var requestBody: [UInt8] = [], target = "", headers = HTTPFields()
        swap(&requestBody, &body)
        swap(&target, &head.target)
        swap(&headers, &head.headers)
        // Each moved (`consume`), not retained into the request and released with the locals.
        let request = HTTPRequest(
            method: head.method, path: consume target, authority: head.authority.take(), headers: consume headers,
            body: consume requestBody, version: .http1_1, connectionID: connectionID, bodyLimitExceeded: bodyLimitExceeded)
        actions.append(.dispatch(consume request, stream: stream))
    }

    /// The largest buffer capacity ``recycle(_:)`` keeps, each of body and fields: what an
    /// idle connection holds beyond its input buffer stays small.
    static let maxRecycledCapacity = 8_192

    /// Takes back the body and field buffers of a request the handler has answered (the body
    /// emptied; the field buffer's bytes the next head's replace), for the next request to
    /// fill (a buffer the handler kept a copy of is left to it).
    package mutating func recycle(_ request: inout HTTPRequest) {
        if request.body.capacity <= Self.maxRecycledCapacity && request.body.capacity > spareBody.capacity {
            swap(&spareBody, &request.body)
            spareBody.removeAll(keepingCapacity: true)
        }
        let fields = request.headers.takeByteStorage()
        if fields.capacity <= Self.maxRecycledCapacity && fields.capacity > reusable.fieldStorage.capacity { reusable.fieldStorage = fields }
    }

    /// The body exceeds the limit: dispatch the head alone, marked, and drop the rest of
    /// the input (now and while the answer is awaited); the answer closes the connection
    /// (no 100 Continue is sent).
    mutating func dispatchOverLimit(into actions: inout [ConnectionAction]) {
        body = []
        head?.keepAlive = false
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
