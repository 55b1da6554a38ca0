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

    private enum State: Equatable {
        case head
        case fixedBody(remaining: Int)
        case chunkHeader
        case chunkData(remaining: Int)
        case chunkDataEnd
        case trailers(bytes: Int)
        case awaitingResponse
        case closed
    }

    private struct InFlight {
        var stream: UInt32
        var isHead: Bool
        var keepAlive: Bool
        var minorVersion: Int
    }

    private let maxHeaderBytes: Int
    private let maxTargetBytes: Int
    private let maxBodyBytes: Int
    private let connectionID: UInt64
    /// Received bytes not yet consumed start at `inputStart`.
    private var input: [UInt8] = []
    private var inputStart = 0
    /// How far the current head has been scanned for its end, relative to `inputStart`.
    private var headScanned = 0
    private var state: State = .head
    private var head: HTTP1RequestHead?
    private var body: [UInt8] = []
    private var inFlight: InFlight?
    private var nextStream: UInt32 = 1
    private var peerHasClosed = false
    private var draining = false
    /// Pipelined input overflowed while a response was pending, or the request was the
    /// connection's last (`maxRequestsPerConnection`): answer it, then close.
    private var closeAfterResponse = false
    private let maxRequests: Int
    private var requestsDispatched = 0
    /// A request over the body limit was dispatched: every later byte is dropped unread.
    private var discardingInput = false

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

    // MARK: - Parsing

    private mutating func parse(into actions: inout [ConnectionAction]) {
        do throws(HTTP1RequestError) {
            while try step(into: &actions) {}
        } catch {
            fail(error, into: &actions)
        }
    }

    /// Advances by one unit (a head, some body, a chunk line...). Returns false when more
    /// input is needed or a request was dispatched.
    private mutating func step(into actions: inout [ConnectionAction]) throws(HTTP1RequestError) -> Bool {
        switch state {
        case .head:
            return try parseHead(into: &actions)
        case .fixedBody(let remaining):
            let take = min(remaining, input.count - inputStart)
            body.append(contentsOf: input[inputStart..<(inputStart + take)])
            inputStart += take
            if take == remaining {
                dispatch(into: &actions)
                return false
            }
            state = .fixedBody(remaining: remaining - take)
            return false
        case .chunkHeader:
            guard let line = try takeLine(limit: 4_096, what: "chunk size line") else { return false }
            let size = try Self.chunkSize(line)
            if size == 0 {
                state = .trailers(bytes: 0)
            } else {
                guard size <= maxBodyBytes - body.count else {
                    dispatchOverLimit(into: &actions)
                    return false
                }
                body.reserveCapacity(body.count + size)
                state = .chunkData(remaining: size)
            }
            return true
        case .chunkData(let remaining):
            let take = min(remaining, input.count - inputStart)
            body.append(contentsOf: input[inputStart..<(inputStart + take)])
            inputStart += take
            state = take == remaining ? .chunkDataEnd : .chunkData(remaining: remaining - take)
            return take == remaining
        case .chunkDataEnd:
            guard input.count - inputStart >= 2 else { return false }
            guard input[inputStart] == ASCII.cr, input[inputStart + 1] == ASCII.lf else {
                throw .malformed("chunk data is not followed by CRLF")
            }
            inputStart += 2
            state = .chunkHeader
            return true
        case .trailers(let bytes):
            let room = maxHeaderBytes - bytes
            guard let line = try takeLine(limit: room, what: "trailer section") else { return false }
            if line.isEmpty {
                dispatch(into: &actions)
                return false
            }
            guard line.contains(UInt8(ascii: ":")), let first = line.first, isTokenByte(first) else {
                throw .malformed("a trailer line is not a header field")
            }
            state = .trailers(bytes: bytes + line.count + 2)
            return true
        case .awaitingResponse, .closed:
            return false
        }
    }

    /// Finds the end of the head (an empty line); parses it when complete.
    private mutating func parseHead(into actions: inout [ConnectionAction]) throws(HTTP1RequestError) -> Bool {
        // A client may send stray CRLFs between requests (RFC 9112 §2.2); skip them.
        while headScanned == 0, input.count - inputStart >= 2, input[inputStart] == ASCII.cr, input[inputStart + 1] == ASCII.lf {
            inputStart += 2
        }
        // Never scan past the limit: beyond it the answer is 431 whatever follows, so the
        // outcome does not depend on how much arrived in one read.
        let start = inputStart
        let scanEnd = min(input.count, inputStart + maxHeaderBytes)
        let found: (end: Int?, bareLF: Bool) = input.withUnsafeBufferPointer { bytes in
            var index = start + headScanned
            while true {
                index = HTTP1RequestHead.find(ASCII.lf, in: bytes, from: index, to: scanEnd)
                guard index < scanEnd else { return (nil, false) }
                guard index > start, bytes[index - 1] == ASCII.cr else { return (nil, true) }
                if index - start >= 3, bytes[index - 2] == ASCII.lf { return (index + 1, false) }
                index += 1
            }
        }
        if found.bareLF { throw .malformed("a bare LF in the request head; lines end in CRLF") }
        guard let end = found.end else {
            // A lone CR may be the first half of a stray CRLF: leave it unscanned, so the
            // skip above still applies once its LF arrives in a later read.
            let pending = input.count - inputStart
            headScanned = pending == 1 && input[inputStart] == ASCII.cr ? 0 : pending
            if headScanned > maxHeaderBytes { throw .headerTooLarge(limit: maxHeaderBytes) }
            return false
        }
        guard end - inputStart <= maxHeaderBytes else { throw .headerTooLarge(limit: maxHeaderBytes) }
        // The declared length is checked here, not by the head parser, so an oversized
        // request reaches the handler (a length has at most 18 digits: no overflow).
        let parsed = try HTTP1RequestHead.parse(input[inputStart..<end], maxBodyBytes: Int.max)
        guard parsed.target.utf8.count <= maxTargetBytes else { throw .targetTooLong(limit: maxTargetBytes) }
        inputStart = end
        headScanned = 0
        // Read before the head moves into `head` (no copy of its Strings and fields).
        let framing = parsed.framing, expectsContinue = parsed.expectsContinue
        head = consume parsed
        body = []
        switch framing {
        case .none:
            dispatch(into: &actions)
            return false
        case .length(let length) where length > maxBodyBytes:
            dispatchOverLimit(into: &actions)
            return false
        case .length(let length):
            body.reserveCapacity(length)
            state = .fixedBody(remaining: length)
        case .chunked:
            state = .chunkHeader
        }
        if expectsContinue && inputStart == input.count {
            actions.append(.write(HTTP1ResponseWriter.continueResponse))
        }
        return true
    }

    /// Takes one CRLF-terminated line (without the CRLF), or nil if it has not all arrived.
    private mutating func takeLine(limit: Int, what: String) throws(HTTP1RequestError) -> ArraySlice<UInt8>? {
        var index = inputStart
        // Never scan past the limit (a line and its CRLF fit in `limit` bytes, so its LF is
        // before `inputStart + limit`): beyond it the answer is "too long" whatever follows,
        // so the outcome does not depend on how much arrived in one read.
        let scanEnd = min(input.count, inputStart + max(limit, 0))
        while index < scanEnd {
            if input[index] == ASCII.lf {
                guard index > inputStart, input[index - 1] == ASCII.cr else {
                    throw .malformed("a bare LF in the \(what)")
                }
                let line = input[inputStart..<(index - 1)]
                guard line.count + 2 <= limit else { throw what == "trailer section" ? .headerTooLarge(limit: maxHeaderBytes) : .malformed("\(what) is too long") }
                inputStart = index + 1
                return line
            }
            index += 1
        }
        if input.count - inputStart >= max(limit, 1) {
            throw what == "trailer section" ? .headerTooLarge(limit: maxHeaderBytes) : .malformed("\(what) is too long")
        }
        return nil
    }

    /// `1a;name=value` → 26. Extensions are accepted and ignored.
    private static func chunkSize(_ line: ArraySlice<UInt8>) throws(HTTP1RequestError) -> Int {
        var size = 0
        var digits = 0
        for byte in line {
            let value: Int
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = Int(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): value = Int(byte - UInt8(ascii: "a")) + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): value = Int(byte - UInt8(ascii: "A")) + 10
            case UInt8(ascii: ";"), ASCII.space, ASCII.tab:
                guard digits > 0 else { throw .malformed("a chunk size line without a size") }
                return size
            default:
                throw .malformed("a chunk size is not hexadecimal")
            }
            digits += 1
            guard digits <= 15 else { throw .malformed("a chunk size has too many digits") }
            size = size << 4 | value
        }
        guard digits > 0 else { throw .malformed("a chunk size line without a size") }
        return size
    }

    // MARK: - Transitions

    private mutating func dispatch(into actions: inout [ConnectionAction], bodyLimitExceeded: Bool = false) {
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
    private mutating func dispatchOverLimit(into actions: inout [ConnectionAction]) {
        body = []
        head?.keepAlive = false
        discardingInput = true
        input = []
        inputStart = 0
        dispatch(into: &actions, bodyLimitExceeded: true)
    }

    private mutating func fail(_ error: HTTP1RequestError, into actions: inout [ConnectionAction]) {
        if error.isAnswered { actions.append(.write(HTTP1ResponseWriter.errorResponse(error))) }
        close(into: &actions)
    }

    private mutating func close(into actions: inout [ConnectionAction]) {
        state = .closed
        input = []
        inputStart = 0
        head = nil
        body = []
        actions.append(.close)
    }

    private mutating func compactInput() {
        if inputStart == input.count {
            input.removeAll(keepingCapacity: input.capacity <= 1 << 20)
            inputStart = 0
        } else if inputStart >= 4_096 && inputStart * 2 >= input.count {
            input.removeSubrange(0..<inputStart)
            inputStart = 0
        }
    }
}
