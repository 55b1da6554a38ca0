/// A parsed and checked HTTP/1.x request head: request line, header fields and what they
/// say about framing and the connection.
package struct HTTP1RequestHead: Hashable, Sendable {
    /// How the body is delimited.
    package enum BodyFraming: Hashable, Sendable {
        case none
        case length(Int)
        case chunked
    }

    package var method: String
    package var target: String
    package var authority: String?
    /// 0 for HTTP/1.0, 1 for HTTP/1.1.
    package var minorVersion: Int
    package var headers: HTTPFields
    package var framing: BodyFraming
    package var keepAlive: Bool
    package var expectsContinue: Bool

    /// Parses a head: the bytes from the request line up to and including the empty line.
    ///
    /// Strict by design, because a fake should tell a client it is sloppy: every line ends
    /// in CRLF (a bare LF is a 400), header names are tokens with no space before the
    /// colon, values hold no control characters, obs-fold is refused, HTTP/1.1 needs one
    /// `Host`, and `Content-Length` with `Transfer-Encoding` is refused (request smuggling).
    /// - Throws: ``HTTP1RequestError`` with the status the client should get.
    package static func parse(_ head: ArraySlice<UInt8>, maxBodyBytes: Int) throws(HTTP1RequestError) -> HTTP1RequestHead {
        var reusable = Reusable()
        return try parse(head, maxBodyBytes: maxBodyBytes, reusing: &reusable)
    }

    /// What a connection's earlier requests leave for the next head (``parse(_:maxBodyBytes:reusing:)``):
    /// a field buffer to overwrite (``HTTPFields/takeByteStorage()``), and the previous target and
    /// `Host` (empty for none), whose Strings a head that repeats them byte for byte shares
    /// instead of making its own. (Not optional: an optional String was copied through the
    /// runtime's generic value witnesses, several times the cost of a retain.)
    struct Reusable {
        var fieldStorage: [UInt8] = []
        var target = ""
        var host = ""
        /// The field lines of the last head the common walk parsed, and what they said
        /// (``FieldBlock``).
        var fieldBlock = FieldBlock()
    }

    /// As ``parse(_:maxBodyBytes:)``; a common head takes `reusable`'s field buffer for its
    /// fields, and its target and `Host` Strings when the bytes are the same.
    static func parse(_ head: ArraySlice<UInt8>, maxBodyBytes: Int, reusing reusable: inout Reusable) throws(HTTP1RequestError) -> HTTP1RequestHead {
        // The common request is read in one walk (``parseCommon(_:maxBodyBytes:)``); anything
        // it does not expect, every error included, goes to the general parser, whose order
        // of checks decides which error a bad head gets.
        let outcome: Result<HTTP1RequestHead, HTTP1RequestError> = head.withUnsafeBufferPointer { bytes in
            do throws(HTTP1RequestError) {
                if let common = try parseCommon(bytes, maxBodyBytes: maxBodyBytes, reusing: &reusable) { return .success(common) }
                return .success(try parseGeneral(bytes, maxBodyBytes: maxBodyBytes))
            } catch {
                return .failure(error)
            }
        }
        return try outcome.get()
    }

    /// The two parsers ``parse(_:maxBodyBytes:)`` chooses between, each alone, so a test can
    /// check that the common walk, whenever it answers, answers as the general parser does.
    static func parseEach(_ head: ArraySlice<UInt8>, maxBodyBytes: Int)
        -> (common: Result<HTTP1RequestHead, HTTP1RequestError>?, general: Result<HTTP1RequestHead, HTTP1RequestError>) {
        head.withUnsafeBufferPointer { bytes in
            let common: Result<HTTP1RequestHead, HTTP1RequestError>?
            do throws(HTTP1RequestError) {
                common = try parseCommon(bytes, maxBodyBytes: maxBodyBytes).map { .success($0) }
            } catch {
                common = .failure(error)
            }
            let general: Result<HTTP1RequestHead, HTTP1RequestError>
            do throws(HTTP1RequestError) {
                general = .success(try parseGeneral(bytes, maxBodyBytes: maxBodyBytes))
            } catch {
                general = .failure(error)
            }
            return (common, general)
        }
    }

    /// The common request in one walk over its bytes, each checked once: a served method,
    /// an origin-form target, `HTTP/1.0` or `HTTP/1.1`, then field lines whose name, colon,
    /// value and optional whitespace are checked, trimmed and recorded as the walk passes
    /// them, every line ending in CRLF, and the empty line last.
    ///
    /// Returns nil at the first byte it does not expect (so at every error in the lines);
    /// the general parser then answers. It only throws what ``interpretFields(_:recentHost:maxBodyBytes:)``
    /// throws, which the general parser reaches with the same fields.
    static func parseCommon(_ bytes: UnsafeBufferPointer<UInt8>, maxBodyBytes: Int) throws(HTTP1RequestError) -> HTTP1RequestHead? {
        var reusable = Reusable()
        return try parseCommon(bytes, maxBodyBytes: maxBodyBytes, reusing: &reusable)
    }

    /// ``parseCommon(_:maxBodyBytes:)`` with what earlier requests left (the field buffer is
    /// taken when it answers).
    static func parseCommon(_ bytes: UnsafeBufferPointer<UInt8>, maxBodyBytes: Int,
                            reusing reusable: inout Reusable) throws(HTTP1RequestError) -> HTTP1RequestHead? {
        try walkCommon(bytes, maxBodyBytes: maxBodyBytes, reusing: &reusable, wholeHead: true)?.head
    }

    /// The common walk over the start of `bytes` (what has arrived of a connection's input),
    /// finding the head's end on the way: the head and the index just past its empty line,
    /// or nil wherever ``parseCommon(_:maxBodyBytes:)`` would give up, and also when the
    /// bytes end before the empty line or its fields need more scratch than a stack page.
    /// When it answers, the head is the one `parseCommon` answers for `bytes[..<end]`, and
    /// `end` is where the search for the head's end (the first empty line, every LF before
    /// it after a CR) stops: the same bytes passed, every line ending in CRLF.
    static func parseCommonPrefix(_ bytes: UnsafeBufferPointer<UInt8>, maxBodyBytes: Int,
                                  reusing reusable: inout Reusable) throws(HTTP1RequestError) -> (head: HTTP1RequestHead, end: Int)? {
        try walkCommon(bytes, maxBodyBytes: maxBodyBytes, reusing: &reusable, wholeHead: false)
    }

    /// The walk of ``parseCommon(_:maxBodyBytes:)``: over exactly one head (`wholeHead`, which
    /// ends with its empty line) or over a prefix of the input (``parseCommonPrefix(_:maxBodyBytes:reusing:)``).
    @inline(__always)
    private static func walkCommon(_ bytes: UnsafeBufferPointer<UInt8>, maxBodyBytes: Int, reusing reusable: inout Reusable,
                                   wholeHead: Bool) throws(HTTP1RequestError) -> (head: HTTP1RequestHead, end: Int)? {
        guard let base = bytes.baseAddress else { return nil }
        let count = bytes.count
        // METHOD SP
        var index = 0
        while index < count && isTokenByte(base[index]) { index += 1 }
        guard index < count, base[index] == ASCII.space,
              let method = knownMethod(UnsafeBufferPointer(start: base, count: index)) else { return nil }
        // "/" and visible ASCII (0x21–0x7E), then SP
        let targetStart = index + 1
        guard targetStart < count, base[targetStart] == UInt8(ascii: "/") else { return nil }
        index = targetStart + 1
        while count - index >= 8 {
            let word = loadWord(base + index)
            if hasByte(in: word, below: 0x21) || hasByte(in: word, above: 0x7E) { break }
            index += 8
        }
        while index < count && base[index] &- 0x21 < 0x5E { index += 1 }
        let targetEnd = index
        // SP HTTP/1.0 or HTTP/1.1, CRLF
        guard count - index >= 11, base[index] == ASCII.space,
              base[index + 1] == UInt8(ascii: "H"), base[index + 2] == UInt8(ascii: "T"), base[index + 3] == UInt8(ascii: "T"),
              base[index + 4] == UInt8(ascii: "P"), base[index + 5] == UInt8(ascii: "/"), base[index + 6] == UInt8(ascii: "1"),
              base[index + 7] == UInt8(ascii: "."), base[index + 8] &- UInt8(ascii: "0") < 2,
              base[index + 9] == ASCII.cr, base[index + 10] == ASCII.lf
        else { return nil }
        let minor = Int(base[index + 8] &- UInt8(ascii: "0"))
        let fieldsStart = index + 11

        // A keep-alive client that sends the field lines of its previous request again, byte
        // for byte, gets what they were parsed to then (the same bytes, the same answer).
        let target = UnsafeBufferPointer(start: base + targetStart, count: targetEnd - targetStart)
        let rest = UnsafeBufferPointer(start: base + fieldsStart, count: count - fieldsStart)
        let match = reusable.fieldBlock.match(rest, minorVersion: minor, maxBodyBytes: maxBodyBytes, wholeHead: wholeHead)
        if case .answered(let length) = match {
            return (reusable.fieldBlock.head(method: method, target: Self.string(target, reusing: reusable.target)), fieldsStart + length)
        }

        // A field's record (8 bytes, name, value) is at most its line's length + 5, and a
        // line is at least 4 bytes (name, colon, CRLF): 3 × the head's length is room enough.
        // Over a prefix, whose head's length is not known yet, at most 1 KiB: more would be
        // checked against the stack's bounds on every call; a head whose fields need more is
        // read by the whole-head walk.
        var special = SpecialFields(minorVersion: minor)
        var end = 0
        let fields: HTTPFields? = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: wholeHead ? 3 * count : min(3 * count, 1_024)) { memory in
            var records = HTTPFields.RecordWriter(memory: memory)
            var index = fieldsStart
            while index < count {
                let lineStart = index
                if base[index] == ASCII.cr {
                    // The empty line, last (of a whole head).
                    guard count - index >= 2, base[index + 1] == ASCII.lf, !wholeHead || index + 2 == count else { return nil }
                    end = index + 2
                    return HTTPFields(records: records, reusing: &reusable.fieldStorage)
                }
                // name: tchar+, then the colon. Letters, digits and `-` (every common name)
                // 8 at a time; any other byte is looked at alone.
                while true {
                    if count - index >= 8 {
                        let others = ~nameBytes(in: loadWord(base + index)) & 0x8080_8080_8080_8080
                        if others == 0 {
                            index += 8
                            continue
                        }
                        index += others.trailingZeroBitCount >> 3
                    }
                    guard index < count, isTokenByte(base[index]) else { break }
                    index += 1
                }
                guard index > lineStart, index < count, base[index] == UInt8(ascii: ":") else { return nil }
                let nameEnd = index
                index += 1
                // OWS value OWS: no control byte but HTAB; the leading OWS is skipped here,
                // the trailing OWS stepped back over from the CR
                while index < count && (base[index] == ASCII.space || base[index] == ASCII.tab) { index += 1 }
                let valueStart = index
                while true {
                    // 8 bytes at a time up to the first control byte (below 0x20, or 0x7F): the
                    // lowest marked byte is always a true one.
                    if count - index >= 8 {
                        let word = loadWord(base + index)
                        let marks = bytesBelow(0x20, in: word) | bytesBelow(1, in: word ^ 0x7F7F_7F7F_7F7F_7F7F)
                        index += marks == 0 ? 8 : marks.trailingZeroBitCount >> 3
                        if marks == 0 { continue }
                    }
                    guard index < count else { return nil }
                    let byte = base[index]
                    if byte == ASCII.cr { break }
                    if byte == 0x7F || (byte < 0x20 && byte != ASCII.tab) { return nil }
                    index += 1
                }
                guard count - index >= 2, base[index + 1] == ASCII.lf else { return nil }
                var valueEnd = index
                while valueEnd > valueStart && (base[valueEnd - 1] == ASCII.space || base[valueEnd - 1] == ASCII.tab) { valueEnd -= 1 }
                let name = UnsafeBufferPointer(start: base + lineStart, count: nameEnd - lineStart)
                let value = UnsafeBufferPointer(start: base + valueStart, count: valueEnd - valueStart)
                special.note(name: name, value: value)
                guard records.append(name: name, value: value) else { return nil }
                index += 2
            }
            return nil
        }
        guard let fields else { return nil }
        var result = HTTP1RequestHead(
            method: method, target: Self.string(target, reusing: reusable.target),
            authority: nil, minorVersion: minor, headers: fields, framing: .none, keepAlive: minor == 1, expectsContinue: false)
        try result.interpretFields(special, recentHost: reusable.host, maxBodyBytes: maxBodyBytes)
        if case .unanswered = match {
            reusable.fieldBlock.keepAnswer(result)
        } else {
            reusable.fieldBlock.keep(UnsafeBufferPointer(start: base + fieldsStart, count: end - fieldsStart), minorVersion: minor, maxBodyBytes: maxBodyBytes)
        }
        return (result, end)
    }
}

/// tchar of RFC 9110 §5.6.2: ALPHA, DIGIT and ``!#$%&'*+-.^_`|~``, as a 128-bit set (one
/// shift and mask per byte; the test suite checks it against the grammar's list).
@inline(__always)
func isTokenByte(_ byte: UInt8) -> Bool {
    if byte < 64 { return (0x03FF_6CFA_0000_0000 as UInt64) >> UInt64(byte) & 1 != 0 }
    if byte < 128 { return (0x57FF_FFFF_C7FF_FFFE as UInt64) >> UInt64(byte - 64) & 1 != 0 }
    return false
}

/// ASCII case-insensitive equality of field-name bytes with a lowercase literal.
func equalsLowercase(_ bytes: UnsafeBufferPointer<UInt8>, _ literal: StaticString) -> Bool {
    guard bytes.count == literal.utf8CodeUnitCount else { return false }
    let pointer = literal.utf8Start
    for index in 0..<bytes.count {
        let byte = bytes[index]
        if ASCII.lowercase(byte) != pointer[index] { return false }
    }
    return true
}

extension StringProtocol {
    func trimmingSpacesAndTabs() -> Substring {
        var result = Substring(self)
        while let first = result.first, first == " " || first == "\t" { result = result.dropFirst() }
        while let last = result.last, last == " " || last == "\t" { result = result.dropLast() }
        return result
    }
}
