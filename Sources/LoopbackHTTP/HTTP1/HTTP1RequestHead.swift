#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
        // The common request is read in one walk (``parseCommon(_:maxBodyBytes:)``); anything
        // it does not expect, every error included, goes to the general parser, whose order
        // of checks decides which error a bad head gets.
        let outcome: Result<HTTP1RequestHead, HTTP1RequestError> = head.withUnsafeBufferPointer { bytes in
            do throws(HTTP1RequestError) {
                if let common = try parseCommon(bytes, maxBodyBytes: maxBodyBytes) { return .success(common) }
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
    /// the general parser then answers. It only throws what ``interpretFields(_:maxBodyBytes:)``
    /// throws, which the general parser reaches with the same fields.
    private static func parseCommon(_ bytes: UnsafeBufferPointer<UInt8>, maxBodyBytes: Int) throws(HTTP1RequestError) -> HTTP1RequestHead? {
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

        // A field's record (8 bytes, name, value) is at most its line's length + 5, and a
        // line is at least 4 bytes (name, colon, CRLF): 3 × the head's length is room enough.
        var special = SpecialFields(minorVersion: minor)
        let fields: HTTPFields? = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 3 * count) { memory in
            var records = HTTPFields.RecordWriter(memory: memory)
            var index = fieldsStart
            while index < count {
                let lineStart = index
                if base[index] == ASCII.cr {
                    // The empty line, last.
                    guard index + 2 == count, base[index + 1] == ASCII.lf else { return nil }
                    return HTTPFields(records: records)
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
            method: method, target: String(decoding: UnsafeBufferPointer(start: base + targetStart, count: targetEnd - targetStart), as: UTF8.self),
            authority: nil, minorVersion: minor, headers: fields, framing: .none, keepAlive: minor == 1, expectsContinue: false)
        try result.interpretFields(special, maxBodyBytes: maxBodyBytes)
        return result
    }

    /// Any head, checked line by line in the order that decides which error a bad one gets.
    private static func parseGeneral(_ bytes: UnsafeBufferPointer<UInt8>, maxBodyBytes: Int) throws(HTTP1RequestError) -> HTTP1RequestHead {
        // Every line ends in CRLF (checked over the whole head first, as the answer must not
        // depend on which line is wrong first); trailing empty lines are not fields.
        let count = bytes.count
        var contentEnd = -1
        var lineCount = 0
        var lineStart = 0
        while lineStart < count {
            // memchr finds each CR (vectorised); a LF before it is a bare one.
            let index = find(ASCII.cr, in: bytes, from: lineStart, to: count)
            if find(ASCII.lf, in: bytes, from: lineStart, to: index) < index {
                throw .malformed("a bare LF in the request head; lines end in CRLF")
            }
            guard index < count else {
                contentEnd = count
                lineCount += 1
                break
            }
            guard index + 1 < count, bytes[index + 1] == ASCII.lf else {
                throw .malformed("a CR not followed by LF in the request head")
            }
            if index > lineStart { contentEnd = index }
            lineCount += 1
            lineStart = index + 2
        }
        guard contentEnd >= 0 else { throw .malformed("empty request") }

        let requestLineEnd = lineEnd(bytes, from: 0, limit: contentEnd)
        var result = try parseRequestLine(UnsafeBufferPointer(rebasing: bytes[0..<requestLineEnd]))

        // The fields are written as records into scratch memory and become the request's
        // HTTPFields with one copy: no String and no allocation per field (HTTPFields makes
        // Strings only when a field is read). A field's record is its name, its value and
        // 8 bytes, so the head's length plus 8 per line is always room enough.
        var special = SpecialFields(minorVersion: result.minorVersion)
        let scratch = max(1, contentEnd - requestLineEnd + 8 * lineCount)
        let fields: Result<HTTPFields, HTTP1RequestError> = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: scratch) { memory in
            var records = HTTPFields.RecordWriter(memory: memory)
            var fieldNumber = 0
            var lineStart = requestLineEnd + 2
            while lineStart < contentEnd {
                let end = lineEnd(bytes, from: lineStart, limit: contentEnd)
                fieldNumber += 1
                let line = UnsafeBufferPointer(rebasing: bytes[lineStart..<end])
                let field: (name: Range<Int>, value: Range<Int>)
                do throws(HTTP1RequestError) {
                    field = try parseField(line, number: fieldNumber)
                } catch {
                    return .failure(error)
                }
                let name = UnsafeBufferPointer(rebasing: line[field.name])
                let value = UnsafeBufferPointer(rebasing: line[field.value])
                special.note(name: name, value: value)
                guard records.append(name: name, value: value) else {
                    return .failure(.headerTooLarge(limit: bytes.count))  // unreachable: the scratch fits every field
                }
                lineStart = end + 2
            }
            return .success(HTTPFields(records: records))
        }
        result.headers = try fields.get()
        try result.interpretFields(special, maxBodyBytes: maxBodyBytes)
        return result
    }

    /// The index of the CR ending the line that starts at `start`, or `limit`.
    @inline(__always)
    private static func lineEnd(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, limit: Int) -> Int {
        find(ASCII.cr, in: bytes, from: start, to: limit)
    }

    /// The index of the first `byte` in `bytes[start..<end]`, or `end` (memchr).
    @inline(__always)
    static func find(_ byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Int {
        guard start < end, let base = bytes.baseAddress else { return end }
        guard let hit = memchr(base + start, Int32(byte), end - start) else { return end }
        return UnsafeRawPointer(base).distance(to: UnsafeRawPointer(hit))
    }

    private static func parseRequestLine(_ line: UnsafeBufferPointer<UInt8>) throws(HTTP1RequestError) -> HTTP1RequestHead {
        // METHOD SP TARGET SP VERSION: exactly two spaces, method and target not empty.
        let firstSpace = find(ASCII.space, in: line, from: 0, to: line.count)
        let secondSpace = find(ASCII.space, in: line, from: firstSpace + 1, to: line.count)
        let thirdSpace = find(ASCII.space, in: line, from: secondSpace + 1, to: line.count)
        guard secondSpace < line.count, thirdSpace == line.count, firstSpace > 0, secondSpace > firstSpace + 1 else {
            throw .malformed("the request line must be METHOD SP TARGET SP HTTP/1.1")
        }
        let methodBytes = UnsafeBufferPointer(rebasing: line[0..<firstSpace])
        let targetBytes = UnsafeBufferPointer(rebasing: line[(firstSpace + 1)..<secondSpace])
        let versionBytes = UnsafeBufferPointer(rebasing: line[(secondSpace + 1)...])
        guard versionBytes.count == 8, versionBytes[0] == UInt8(ascii: "H"), versionBytes[1] == UInt8(ascii: "T"),
              versionBytes[2] == UInt8(ascii: "T"), versionBytes[3] == UInt8(ascii: "P"), versionBytes[4] == UInt8(ascii: "/"),
              let major = digit(versionBytes[5]), versionBytes[6] == UInt8(ascii: "."), let minor = digit(versionBytes[7])
        else {
            throw .notHTTP("the request line's version is not HTTP/<digit>.<digit>")
        }
        guard major == 1, minor <= 1 else { throw .versionNotSupported(String(decoding: versionBytes, as: UTF8.self)) }
        for byte in methodBytes where !isTokenByte(byte) { throw .malformed("the method is not a token") }
        guard let method = knownMethod(methodBytes) else {
            throw .methodNotAllowed(String(decoding: methodBytes, as: UTF8.self))
        }
        for byte in targetBytes where byte <= 0x20 || byte >= 0x7F {
            throw .malformed("the request target holds a space, control or non-ASCII byte")
        }
        var target = String(decoding: targetBytes, as: UTF8.self)
        var authority: String?
        if targetBytes[0] == UInt8(ascii: "/") {
            // origin-form
        } else if target == "*" {
            guard method == "OPTIONS" else { throw .malformed("the target * is only for OPTIONS") }
        } else if let schemeEnd = target.range(of: "://"),
                  ["http", "https"].contains(target[..<schemeEnd.lowerBound].lowercased()) {
            let rest = target[schemeEnd.upperBound...]
            let slash = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? rest.endIndex
            authority = String(rest[..<slash])
            let path = String(rest[slash...])
            target = path.hasPrefix("/") ? path : "/" + path
        } else {
            throw .malformed("the request target must start with / (origin-form)")
        }
        return HTTP1RequestHead(
            method: method, target: target, authority: authority, minorVersion: minor,
            headers: HTTPFields(), framing: .none, keepAlive: minor == 1, expectsContinue: false)
    }

    /// The served method these bytes spell (case-sensitive, RFC 9110 §9.1), as a constant
    /// String (no allocation, no hashing); nil for any other.
    private static func knownMethod(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        func spells(_ literal: StaticString) -> Bool {
            guard literal.utf8CodeUnitCount == bytes.count else { return false }
            let pointer = literal.utf8Start
            for index in 0..<bytes.count where pointer[index] != bytes[index] { return false }
            return true
        }
        switch bytes.count {
        case 3: return spells("GET") ? "GET" : spells("PUT") ? "PUT" : nil
        case 4: return spells("POST") ? "POST" : spells("HEAD") ? "HEAD" : nil
        case 5: return spells("PATCH") ? "PATCH" : nil
        case 6: return spells("DELETE") ? "DELETE" : nil
        case 7: return spells("OPTIONS") ? "OPTIONS" : nil
        default: return nil
        }
    }

    /// Checks one field line; returns where its name and (trimmed) value are in `line`.
    private static func parseField(_ line: UnsafeBufferPointer<UInt8>, number: Int) throws(HTTP1RequestError) -> (name: Range<Int>, value: Range<Int>) {
        guard let first = line.first else { throw .malformed("empty header line \(number)") }
        if first == ASCII.space || first == ASCII.tab {
            throw .malformed("header line \(number) starts with whitespace (obs-fold is not accepted)")
        }
        var colon = 0
        while colon < line.count && line[colon] != UInt8(ascii: ":") { colon += 1 }
        guard colon < line.count else { throw .malformed("header line \(number) has no colon") }
        guard colon > 0 else { throw .malformed("header line \(number) has an empty name") }
        let last = line[colon - 1]
        if last == ASCII.space || last == ASCII.tab {
            throw .malformed("header line \(number) has whitespace before the colon")
        }
        for index in 0..<colon where !isTokenByte(line[index]) {
            throw .malformed("header line \(number) has a name that is not a token")
        }
        var valueStart = colon + 1
        var valueEnd = line.count
        while valueStart < valueEnd, line[valueStart] == ASCII.space || line[valueStart] == ASCII.tab { valueStart += 1 }
        while valueEnd > valueStart, line[valueEnd - 1] == ASCII.space || line[valueEnd - 1] == ASCII.tab { valueEnd -= 1 }
        for index in valueStart..<valueEnd {
            let byte = line[index]
            if byte != ASCII.tab && (byte < 0x20 || byte == 0x7F) {
                throw .malformed("header line \(number) has a control character in its value")
            }
        }
        return (0..<colon, valueStart..<valueEnd)
    }

    /// Where the fields that decide framing and the connection are, noted while parsing so
    /// the common request (one `Host`, at most one plain `Content-Length`) is interpreted
    /// without another pass or any intermediate String.
    private struct SpecialFields {
        let minorVersion: Int
        var hostCount = 0
        var firstHost: String?
        /// What `Connection` says, token by token in order: `close` ends, `keep-alive` keeps
        /// an HTTP/1.0 connection; nil when it says neither.
        var keepAlive: Bool?
        var contentLengthCount = 0
        /// The value of the only `Content-Length`, when it is 1 to 18 decimal digits.
        var plainLength: Int?
        var transferEncodingCount = 0
        var expect: String?

        mutating func note(name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>) {
            switch name.count {
            case 4 where equalsLowercase(name, "host"):
                hostCount += 1
                if firstHost == nil { firstHost = String(decoding: value, as: UTF8.self) }
            case 6 where equalsLowercase(name, "expect"):
                if expect == nil { expect = String(decoding: value, as: UTF8.self) }
            case 10 where equalsLowercase(name, "connection"):
                noteConnection(value)
            case 14 where equalsLowercase(name, "content-length"):
                contentLengthCount += 1
                plainLength = contentLengthCount == 1 ? Self.plainDecimal(value) : nil
            case 17 where equalsLowercase(name, "transfer-encoding"):
                transferEncodingCount += 1
            default:
                break
            }
        }

        /// Comma-separated tokens, trimmed, compared case-insensitively to `close` and `keep-alive`.
        private mutating func noteConnection(_ bytes: UnsafeBufferPointer<UInt8>) {
            var start = 0
            while start <= bytes.count {
                var end = start
                while end < bytes.count && bytes[end] != UInt8(ascii: ",") { end += 1 }
                var first = start, last = end
                while first < last, bytes[first] == ASCII.space || bytes[first] == ASCII.tab { first += 1 }
                while last > first, bytes[last - 1] == ASCII.space || bytes[last - 1] == ASCII.tab { last -= 1 }
                let token = UnsafeBufferPointer(rebasing: bytes[first..<last])
                if token.count == 5 && equalsLowercase(token, "close") { keepAlive = false }
                if token.count == 10 && equalsLowercase(token, "keep-alive") && minorVersion == 0 { keepAlive = true }
                start = end + 1
            }
        }

        /// 1 to 18 ASCII digits as a number (no overflow possible), else nil.
        private static func plainDecimal(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
            guard !bytes.isEmpty, bytes.count <= 18 else { return nil }
            var number = 0
            for byte in bytes {
                guard byte >= 0x30 && byte <= 0x39 else { return nil }
                number = number * 10 + Int(byte - 0x30)
            }
            return number
        }
    }

    private mutating func interpretFields(_ special: SpecialFields, maxBodyBytes: Int) throws(HTTP1RequestError) {
        if special.hostCount > 1 { throw .malformed("more than one Host header") }
        if minorVersion == 1 && special.hostCount == 0 { throw .malformed("HTTP/1.1 requests need a Host header") }
        if authority == nil { authority = special.firstHost }

        if let connection = special.keepAlive { keepAlive = connection }

        if special.transferEncodingCount == 0 && special.contentLengthCount <= 1
            && (special.contentLengthCount == 0 || special.plainLength != nil) {
            if let length = special.plainLength {
                guard length <= maxBodyBytes else { throw .bodyTooLarge(limit: maxBodyBytes) }
                framing = length == 0 ? .none : .length(length)
            }
        } else {
            try interpretFraming(maxBodyBytes: maxBodyBytes)
        }

        if let expectation = special.expect {
            var bytes = expectation
            let isContinue = bytes.withUTF8 { $0.count == 12 && equalsLowercase($0, "100-continue") }
            guard isContinue else { throw .expectationFailed(expectation) }
            expectsContinue = minorVersion == 1 && framing != .none
        }
    }

    /// The uncommon framing cases (`Transfer-Encoding`, several or list-valued
    /// `Content-Length` fields), on Strings: comma-separated tokens of every value.
    private mutating func interpretFraming(maxBodyBytes: Int) throws(HTTP1RequestError) {
        var transferEncoding: [String] = []
        var contentLength: [String] = []
        for field in headers {
            var name = field.name
            name.withUTF8 { name in
                if name.count == 14 && equalsLowercase(name, "content-length") { contentLength.append(field.value) }
                if name.count == 17 && equalsLowercase(name, "transfer-encoding") { transferEncoding.append(field.value) }
            }
        }
        let codings = Self.tokens(transferEncoding)
        let lengths = Self.tokens(contentLength)
        if !codings.isEmpty {
            guard lengths.isEmpty else { throw .malformed("both Content-Length and Transfer-Encoding are present") }
            guard minorVersion == 1 else { throw .malformed("Transfer-Encoding is not allowed in HTTP/1.0") }
            guard codings == ["chunked"] else {
                throw .notImplemented("transfer coding \(codings.joined(separator: ", ")) is not supported; only chunked is")
            }
            framing = .chunked
        } else if let firstLength = lengths.first {
            guard lengths.allSatisfy({ $0 == firstLength }) else { throw .malformed("conflicting Content-Length values") }
            guard !firstLength.isEmpty, firstLength.utf8.count <= 18, firstLength.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
                  let length = Int(firstLength)
            else {
                throw .malformed("Content-Length \"\(firstLength)\" is not a decimal number")
            }
            guard length <= maxBodyBytes else { throw .bodyTooLarge(limit: maxBodyBytes) }
            framing = length == 0 ? .none : .length(length)
        }
    }

    /// Comma-separated tokens of every value, trimmed and lowercased.
    private static func tokens(_ values: [String]) -> [String] {
        if values.isEmpty { return [] }
        return values.flatMap { $0.split(separator: ",", omittingEmptySubsequences: false) }
            .map { $0.trimmingSpacesAndTabs().lowercased() }
            .filter { !$0.isEmpty }
    }

    /// The 8 bytes at `pointer` as one word, the first in the low byte.
    @inline(__always)
    private static func loadWord(_ pointer: UnsafePointer<UInt8>) -> UInt64 {
        UInt64(littleEndian: UnsafeRawPointer(pointer).loadUnaligned(as: UInt64.self))
    }

    /// Whether a byte of `word` is below `limit` (at most 128): subtracting `limit` from each
    /// byte borrows into its top bit only if it is smaller (a byte with its top bit already
    /// set is not below). A borrow can mark a byte above a smaller one too, never a word
    /// without one, so the answer is exact.
    @inline(__always)
    private static func hasByte(in word: UInt64, below limit: UInt8) -> Bool {
        bytesBelow(limit, in: word) != 0
    }

    /// The top bits of ``hasByte(in:below:)``: the lowest one set marks the first byte of
    /// `word` below `limit` (a later one may be marked by a borrow).
    @inline(__always)
    private static func bytesBelow(_ limit: UInt8, in word: UInt64) -> UInt64 {
        (word &- 0x0101_0101_0101_0101 &* UInt64(limit)) & ~word & 0x8080_8080_8080_8080
    }

    /// Whether a byte of `word` is above `limit` (at most 127): adding 127 − `limit` carries
    /// into a byte's top bit only if it is larger; a byte of 128 or more has that bit set.
    @inline(__always)
    private static func hasByte(in word: UInt64, above limit: UInt8) -> Bool {
        ((word &+ 0x0101_0101_0101_0101 &* UInt64(127 - limit)) | word) & 0x8080_8080_8080_8080 != 0
    }

    /// Marks (top bit) exactly the bytes of `word` that are ASCII letters, digits or `-`.
    /// Every byte is handled in 7 bits below 0x80, so no sum carries into its neighbour: a
    /// byte of 0x20–0x7F with 0x20 set is a lowercase letter only if it was a letter, a
    /// digit only if it was one, `-` only if it was one.
    @inline(__always)
    private static func nameBytes(in word: UInt64) -> UInt64 {
        let high: UInt64 = 0x8080_8080_8080_8080, ones: UInt64 = 0x0101_0101_0101_0101
        let low7 = word & 0x7F7F_7F7F_7F7F_7F7F
        let plain = ~word & (low7 &+ ones &* 0x60) & high  // below 0x80 and at least 0x20
        let folded = low7 | 0x2020_2020_2020_2020
        @inline(__always)
        func within(_ low: UInt64, _ highest: UInt64) -> UInt64 {
            (folded &+ ones &* (0x80 - low)) & ~(folded &+ ones &* (0x7F - highest))
        }
        return plain & (within(0x61, 0x7A) | within(0x30, 0x39) | within(0x2D, 0x2D))
    }

    @inline(__always)
    private static func digit(_ byte: UInt8) -> Int? {
        byte >= 0x30 && byte <= 0x39 ? Int(byte - 0x30) : nil
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
