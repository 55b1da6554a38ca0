/// Reading requests: heads, fixed-length and chunked bodies, trailers. Every scan stops at
/// its limit, so the same bytes give the same answer however they are split into reads.
extension HTTP1Codec {
    mutating func parse(into actions: inout [ConnectionAction]) {
        do throws(HTTP1RequestError) {
            while try step(into: &actions) {}
        } catch {
            fail(error, into: &actions)
        }
    }

    /// Advances by one unit (a head, some body, a chunk line...). Returns false when more
    /// input is needed or a request was dispatched.
    mutating func step(into actions: inout [ConnectionAction]) throws(HTTP1RequestError) -> Bool {
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
    mutating func parseHead(into actions: inout [ConnectionAction]) throws(HTTP1RequestError) -> Bool {
        // Nothing has arrived (as after every response to a request its read held whole):
        // nothing to scan, and nothing scanned.
        guard inputStart < input.count else {
            headScanned = 0
            return false
        }
        // A client may send stray CRLFs between requests (RFC 9112 §2.2); skip them.
        while headScanned == 0, input.count - inputStart >= 2, input[inputStart] == ASCII.cr, input[inputStart + 1] == ASCII.lf {
            inputStart += 2
        }
        // Never scan past the limit: beyond it the answer is 431 whatever follows, so the
        // outcome does not depend on how much arrived in one read.
        let start = inputStart
        let scanEnd = min(input.count, inputStart + maxHeaderBytes)
        if headScanned == 0 {
            // The common head in one walk that finds its end on the way (its answer is the
            // one the search for the end and the parse below give); anything else, or a head
            // not all here yet, goes the long way.
            let quick = try input.withUnsafeBufferPointer { all throws(HTTP1RequestError) in
                try HTTP1RequestHead.parseCommonPrefix(UnsafeBufferPointer(rebasing: all[start..<scanEnd]), maxBodyBytes: Int.max, reusing: &reusable)
            }
            if let (parsed, end) = quick { return try begin(parsed, end: start + end, into: &actions) }
        }
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
            if headScanned > maxHeaderBytes {
                // A request line that alone does not fit is 414, as nginx answers it (with
                // the defaults, 8 KiB each, a target over the limit lands here); decided on
                // the first `maxHeaderBytes` octets, all present, however they arrived.
                if !input[start..<scanEnd].contains(ASCII.lf) { throw .requestLineTooLong(limit: maxHeaderBytes) }
                throw .headerTooLarge(limit: maxHeaderBytes)
            }
            return false
        }
        guard end - inputStart <= maxHeaderBytes else { throw .headerTooLarge(limit: maxHeaderBytes) }
        // The declared length is checked here, not by the head parser, so an oversized
        // request reaches the handler (a length has at most 18 digits: no overflow).
        return try begin(HTTP1RequestHead.parse(input[inputStart..<end], maxBodyBytes: Int.max, reusing: &reusable), end: end, into: &actions)
    }

    /// The head ending at `end` in the input is parsed: the request starts (dispatched at
    /// once without a body, or its body is read next).
    mutating func begin(_ parsed: consuming HTTP1RequestHead, end: Int, into actions: inout [ConnectionAction]) throws(HTTP1RequestError) -> Bool {
        guard parsed.target.utf8.count <= maxTargetBytes else { throw .targetTooLong(limit: maxTargetBytes) }
        inputStart = end
        headScanned = 0
        // Read before the head moves into `head` (no copy of its Strings and fields).
        let framing = parsed.framing, expectsContinue = parsed.expectsContinue
        reusable.target = parsed.target
        if let host = parsed.authority { reusable.host = host }
        body = []
        if framing != .none { swap(&body, &spareBody) }  // emptied by recycle(_:)
        switch framing {
        case .none:
            dispatch(parsed, into: &actions)
            return false
        case .length(let length) where length > maxBodyBytes:
            head = consume parsed
            dispatchOverLimit(into: &actions)
            return false
        case .length(let length) where input.count - inputStart >= length:
            // The whole body came with its head (what a client's small request does): read
            // now and dispatched with the head, which is never kept (as `.fixedBody` would).
            body.append(contentsOf: input[inputStart..<(inputStart + length)])
            inputStart += length
            dispatch(parsed, into: &actions)
            return false
        case .length(let length):
            head = consume parsed
            body.reserveCapacity(length)
            state = .fixedBody(remaining: length)
        case .chunked:
            head = consume parsed
            state = .chunkHeader
        }
        if expectsContinue && inputStart == input.count {
            actions.append(.write(HTTP1ResponseWriter.continueResponse))
        }
        return true
    }

    /// Takes one CRLF-terminated line (without the CRLF), or nil if it has not all arrived.
    mutating func takeLine(limit: Int, what: String) throws(HTTP1RequestError) -> ArraySlice<UInt8>? {
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
    static func chunkSize(_ line: ArraySlice<UInt8>) throws(HTTP1RequestError) -> Int {
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
}
