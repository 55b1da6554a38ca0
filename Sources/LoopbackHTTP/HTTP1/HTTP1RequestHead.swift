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
        // One pass over contiguous bytes: no line array, no `split`, no String until a value
        // is kept (this runs for every request).
        let outcome: Result<HTTP1RequestHead, HTTP1RequestError> = head.withUnsafeBufferPointer { bytes in
            do throws(HTTP1RequestError) {
                return .success(try parse(bytes, maxBodyBytes: maxBodyBytes))
            } catch {
                return .failure(error)
            }
        }
        return try outcome.get()
    }

    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>, maxBodyBytes: Int) throws(HTTP1RequestError) -> HTTP1RequestHead {
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
