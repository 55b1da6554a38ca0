/// Header blocks: HEADERS + CONTINUATION sequencing, HPACK decoding, request validation
/// (RFC 9113 §8.2, §8.3) and dispatch.
extension HTTP2Connection {
    mutating func beginHeaderBlock(stream: UInt32, block: [UInt8], endStream: Bool, endHeaders: Bool,
                                   forcedError: HTTP2ProtocolError?) throws(HTTP2ProtocolError) {
        if stream % 2 == 0 { throw HTTP2ProtocolError(.protocolError, "client stream id \(stream) is even") }
        let purpose: PendingHeaderBlock.Purpose
        if let current = streams[stream] {
            if current.discardingBody {
                // Trailers of a body over the limit: decoded for HPACK's sake, dropped.
                if endStream { endDiscarding(stream) }
                purpose = .discard(nil)
            } else if current.state != .receiving {
                purpose = .discard(HTTP2ProtocolError(.streamClosed, stream: stream, "HEADERS after END_STREAM"))
            } else if !endStream {
                purpose = .discard(HTTP2ProtocolError(.protocolError, stream: stream, "trailers without END_STREAM"))
            } else {
                purpose = .trailers
            }
        } else if stream <= lastClientStream {
            if !recentlyReset.contains(stream) {
                throw HTTP2ProtocolError(.streamClosed, "HEADERS on closed stream \(stream)")
            }
            purpose = .discard(nil)
        } else {
            let previous = lastClientStream
            lastClientStream = stream
            if let forcedError {
                purpose = .discard(forcedError)
            } else if phase == .draining && stream > drainLastStream {
                try spendControlBudget()  // a client ignoring our GOAWAY
                purpose = .discard(nil)
            } else if streams.count >= enforcedStreamLimit {
                purpose = refuseOverLimit(stream, lastAccepted: previous)
            } else {
                purpose = .request(endStream: endStream)
            }
        }
        let pending = PendingHeaderBlock(stream: stream, block: block, purpose: purpose, frames: 1)
        if endHeaders {
            try completeHeaderBlock(pending)
        } else {
            pendingBlock = pending
        }
    }

    mutating func completeHeaderBlock(_ pending: PendingHeaderBlock) throws(HTTP2ProtocolError) {
        if pending.block.isEmpty {
            // Not even the pseudo-headers: nothing a client sends in good faith (nginx: GOAWAY).
            throw HTTP2ProtocolError(.protocolError, "empty header block on stream \(pending.stream)")
        }
        let fields: [HPACKDecoder.Field]
        var listTooLarge = false
        do {
            fields = try decoder.decode(pending.block)
        } catch {
            guard error.isStreamLevel else { throw HTTP2ProtocolError(.compressionError, error.description) }
            fields = []
            listTooLarge = true
        }
        let stream = pending.stream
        switch pending.purpose {
        case .discard(let error):
            if let error { throw error }
        case .trailers:
            if listTooLarge { throw HTTP2ProtocolError(.protocolError, stream: stream, "trailers exceed SETTINGS_MAX_HEADER_LIST_SIZE") }
            for field in fields {
                if field.name.utf8.first == UInt8(ascii: ":") {
                    throw HTTP2ProtocolError(.protocolError, stream: stream, "pseudo-header \(field.name) in trailers")
                }
                try Self.validateRegularField(field, stream: stream)
            }
            withStream(stream) { s in
                for field in fields { s.headers.append(name: field.name, value: field.value) }
            }
            try finishRequest(stream)
        case .request(let endStream):
            controlFrameBudget = configuration.maxControlFramesBetweenRequests
            requestsOpened += 1
            if requestsOpened >= maxRequestsPerConnection { startDraining() }
            let receiveWindow = settingsAcknowledged ? configuration.initialWindowSize : max(configuration.initialWindowSize, 65_535)
            var state = HTTP2Stream(sendWindow: peerInitialWindowSize, receiveWindow: receiveWindow)
            if listTooLarge {
                try refuseAtCodec(stream, state, status: .requestHeaderFieldsTooLarge, endStream: endStream)
                return
            }
            try Self.parseRequest(fields, stream: stream, into: &state)
            if state.path.utf8.count > maxRequestTargetBytes {
                try refuseAtCodec(stream, state, status: .uriTooLong, endStream: endStream)
                return
            }
            // Read before the stream is stored: `state` then moves into the table (a use after
            // the store copied the whole stream, ~450 instructions a request).
            let contentLength = state.contentLength
            streams[stream] = consume state
            if let length = contentLength, length > maxBodyBytes {
                try refuseBody(stream, stillReceiving: !endStream)
                return
            }
            if endStream { try finishRequest(stream) }
        }
    }

    /// A request refused before any handler runs (431, 414): the answer, RST_STREAM NO_ERROR
    /// if the client is still sending, and one token of the reset budget.
    mutating func refuseAtCodec(_ stream: UInt32, _ state: HTTP2Stream, status: HTTPStatus, endStream: Bool) throws(HTTP2ProtocolError) {
        var state = state
        state.state = .awaitingResponse
        streams[stream] = state
        writeResponse(HTTPResponse(status: status), stream: stream)
        if !endStream { resetStream(stream, .noError) }
        try spendResetBudget()
    }

    /// The request is complete: check content-length, dispatch it.
    mutating func finishRequest(_ stream: UInt32) throws(HTTP2ProtocolError) {
        var request = HTTPRequest(method: "", path: "", version: .http2, connectionID: connectionID)
        request.streamID = stream
        var mismatch: (declared: Int, received: Int)?
        // One lookup; the request's parts move out of the stream, which never reads them
        // again (reading the stream out of the table, then copying its strings and fields
        // into the request, retained and released each of them).
        guard let credit = withStream(stream, { s -> Int in
            if let length = s.contentLength, length != s.body.count {
                mismatch = (length, s.body.count)
                return 0
            }
            swap(&request.method, &s.method)
            swap(&request.path, &s.path)
            swap(&request.authority, &s.authority)
            swap(&request.headers, &s.headers)
            swap(&request.body, &s.body)
            s.state = .awaitingResponse
            defer { s.heldConnectionCredit = 0 }
            return s.heldConnectionCredit
        }) else { return }
        if let mismatch {
            throw HTTP2ProtocolError(.protocolError, stream: stream, "content-length \(mismatch.declared) but \(mismatch.received) octets of DATA")
        }
        // The body goes to the handler: its window goes back to the peer (not before).
        releaseBody(byteCount: request.body.count, connectionCredit: credit)
        dispatches.append(.dispatch(request, stream: stream))
    }

    /// The body exceeds `maxBodyBytes`: dispatch the request without its body, marked
    /// ``HTTPRequest/bodyLimitExceeded`` (the handler, or the server for a handler that does
    /// not take such requests, answers 413); the rest of its DATA is credited and dropped.
    /// Paid for from the reset budget like any request refused at the codec.
    mutating func refuseBody(_ stream: UInt32, stillReceiving: Bool) throws(HTTP2ProtocolError) {
        guard let current = streams[stream] else { return }
        var request = HTTPRequest(method: current.method, path: current.path, authority: current.authority,
                                  headers: current.headers, body: [], version: .http2, connectionID: connectionID,
                                  bodyLimitExceeded: true)
        request.streamID = stream
        let (dropped, credit) = withStream(stream) { s -> (Int, Int) in
            defer {
                s.body = []
                s.heldConnectionCredit = 0
            }
            s.state = .awaitingResponse
            s.discardingBody = stillReceiving
            return (s.body.count, s.heldConnectionCredit)
        } ?? (0, 0)
        releaseBody(byteCount: dropped, connectionCredit: credit)
        dispatches.append(.dispatch(request, stream: stream))
        try spendResetBudget()
    }

    /// `tokenOctets[b]`: `b` may appear in an HTTP/2 field name (a lowercase token character).
    private static let tokenOctets: [Bool] = {
        var table = [Bool](repeating: false, count: 256)
        for byte in UInt8(ascii: "a")...UInt8(ascii: "z") { table[Int(byte)] = true }
        for byte in UInt8(ascii: "0")...UInt8(ascii: "9") { table[Int(byte)] = true }
        for byte in "!#$%&'*+-.^_`|~".utf8 { table[Int(byte)] = true }
        return table
    }()

    static func validateRegularField(_ field: HPACKDecoder.Field, stream: UInt32) throws(HTTP2ProtocolError) {
        if isPlainField(field) { return }
        try validateRegularFieldSlowly(field, stream: stream)
    }

    /// True when every check of ``validateRegularFieldSlowly(_:stream:)`` passes, tested on
    /// the contiguous bytes (every request's every field comes here; iterating the `String`s'
    /// UTF-8 views and comparing names as `String`s cost ~1,800 instructions per field,
    /// callgrind). False sends the field to the slow path, which finds the error to throw.
    private static func isPlainField(_ field: HPACKDecoder.Field) -> Bool {
        let nameIsPlain = field.name.utf8.withContiguousStorageIfAvailable { name -> Bool in
            guard !name.isEmpty else { return false }
            let tokens = tokenOctets.withUnsafeBufferPointer { table -> Bool in
                for byte in name where !table[Int(byte)] { return false }
                return true
            }
            // Compared only with the names of the same length (none, for most fields).
            return tokens && !connectionSpecificNames.contains { $0.count == name.count && name.elementsEqual($0) }
        } ?? false
        guard nameIsPlain else { return false }
        return field.value.utf8.withContiguousStorageIfAvailable { !holdsNulCROrLF($0) } ?? false
    }

    /// True when `bytes` holds a NUL, CR or LF. Eight bytes at a time: a word with no byte
    /// below 0x0E holds none (a provider token's ~250 bytes on every APNs request come here);
    /// from the first word with one, byte by byte.
    static func holdsNulCROrLF(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        if let base = UnsafeRawPointer(bytes.baseAddress) {
            while bytes.count &- index >= 8 {
                let word = base.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                // A byte below 0x0E sets its high bit (no byte below it is missed).
                if (word &- 0x0E0E_0E0E_0E0E_0E0E) & ~word & 0x8080_8080_8080_8080 != 0 { break }
                index &+= 8
            }
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0 || byte == 0x0a || byte == 0x0d { return true }
            index &+= 1
        }
        return false
    }

    /// The names the slow path looks at by name (all refused but `te: trailers`).
    private static let connectionSpecificNames: [[UInt8]] =
        ["connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade", "te"].map { Array($0.utf8) }

    static func validateRegularFieldSlowly(_ field: HPACKDecoder.Field, stream: UInt32) throws(HTTP2ProtocolError) {
        if field.name.isEmpty { throw HTTP2ProtocolError(.protocolError, "empty header name on stream \(stream)") }
        for byte in field.name.utf8 where !Self.tokenOctets[Int(byte)] {
            // Field names are lowercase tokens (RFC 9113 §8.2.1, RFC 9110 §5.1).
            let what = byte >= 0x41 && byte <= 0x5a ? "uppercase" : "invalid character in"
            throw HTTP2ProtocolError(.protocolError, stream: stream, "\(what) header name \(field.name)")
        }
        for byte in field.value.utf8 where byte == 0 || byte == 0x0a || byte == 0x0d {
            throw HTTP2ProtocolError(.protocolError, stream: stream, "header \(field.name) holds NUL, CR or LF")
        }
        switch field.name {
        case "connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade":
            throw HTTP2ProtocolError(.protocolError, stream: stream, "connection-specific header \(field.name)")
        case "te" where field.value != "trailers":
            throw HTTP2ProtocolError(.protocolError, stream: stream, "te other than \"trailers\"")
        default:
            break
        }
    }

    /// Splits pseudo-headers from regular fields and checks §8.3.1's rules.
    static func parseRequest(_ fields: [HPACKDecoder.Field], stream: UInt32, into state: inout HTTP2Stream) throws(HTTP2ProtocolError) {
        var method: String?, scheme: String?, path: String?, authority: String?
        var sawRegular = false
        state.headers.reserveCapacity(fields.count)
        for field in fields {
            if field.name.utf8.first == UInt8(ascii: ":") {
                if sawRegular { throw HTTP2ProtocolError(.protocolError, stream: stream, "pseudo-header \(field.name) after a regular header") }
                func set(_ slot: inout String?) throws(HTTP2ProtocolError) {
                    if slot != nil { throw HTTP2ProtocolError(.protocolError, stream: stream, "duplicate \(field.name)") }
                    slot = field.value
                }
                // By length first: a name is compared with at most two candidates.
                switch field.name.utf8.count {
                case 7 where field.name == ":method": try set(&method)
                case 7 where field.name == ":scheme": try set(&scheme)
                case 5 where field.name == ":path": try set(&path)
                case 10 where field.name == ":authority": try set(&authority)
                default: throw HTTP2ProtocolError(.protocolError, stream: stream, "pseudo-header \(field.name) is not allowed in a request")
                }
                continue
            }
            sawRegular = true
            try validateRegularField(field, stream: stream)
            if field.name.utf8.count == 14 && field.name == "content-length" {
                guard let length = Int(field.value), length >= 0, field.value.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
                    throw HTTP2ProtocolError(.protocolError, stream: stream, "content-length \(field.value) is not a number")
                }
                if let previous = state.contentLength, previous != length {
                    throw HTTP2ProtocolError(.protocolError, stream: stream, "conflicting content-length values")
                }
                state.contentLength = length
            }
            state.headers.append(name: field.name, value: field.value)
        }
        guard let method else { throw HTTP2ProtocolError(.protocolError, stream: stream, "missing :method") }
        if method == "CONNECT" {
            if scheme != nil || path != nil || authority == nil {
                throw HTTP2ProtocolError(.protocolError, stream: stream, "CONNECT needs :authority and no :scheme or :path")
            }
        } else {
            guard scheme != nil else { throw HTTP2ProtocolError(.protocolError, stream: stream, "missing :scheme") }
            guard let path, !path.isEmpty else { throw HTTP2ProtocolError(.protocolError, stream: stream, "missing or empty :path") }
        }
        state.method = method
        state.path = path ?? ""
        state.authority = authority
    }
}
