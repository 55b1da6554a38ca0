/// What the fields say about the connection and the body's framing (`Host`, `Connection`,
/// `Content-Length`, `Transfer-Encoding`, `Expect`), shared by both parsers.
extension HTTP1RequestHead {
    /// Where the fields that decide framing and the connection are, noted while parsing so
    /// the common request (one `Host`, at most one plain `Content-Length`) is interpreted
    /// without another pass or any intermediate String.
    struct SpecialFields {
        let minorVersion: Int
        var hostCount = 0
        /// The first `Host` value, in the head being parsed (valid until it is interpreted).
        var firstHost: UnsafeBufferPointer<UInt8>?
        /// What `Connection` says, token by token in order: `close` ends, `keep-alive` keeps
        /// an HTTP/1.0 connection; nil when it says neither.
        var keepAlive: Bool?
        var contentLengthCount = 0
        /// The value of the only `Content-Length`, when it is 1 to 18 decimal digits.
        var plainLength: Int?
        var transferEncodingCount = 0
        /// The first `Expect` value, in the head being parsed (valid until it is interpreted).
        /// Bytes, like `firstHost`, so that nothing here needs releasing: it is all plain values.
        var expect: UnsafeBufferPointer<UInt8>?

        mutating func note(name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>) {
            switch name.count {
            case 4 where tokenEquals(name, "host"):
                hostCount += 1
                if firstHost == nil { firstHost = value }
            case 6 where tokenEquals(name, "expect"):
                if expect == nil { expect = value }
            case 10 where tokenEquals(name, "connection"):
                noteConnection(value)
            case 14 where tokenEquals(name, "content-length"):
                contentLengthCount += 1
                plainLength = contentLengthCount == 1 ? Self.plainDecimal(value) : nil
            case 17 where tokenEquals(name, "transfer-encoding"):
                transferEncodingCount += 1
            default:
                break
            }
        }

        /// ``equalsLowercase(_:_:)`` for a field name, which both parsers have checked is a
        /// token, and a literal of 4 or more lowercase letters and `-`: compared a word at a
        /// time (two overlapping 4-byte words under 8 bytes; 8-byte words, the last one
        /// overlapping, from 8), each name byte with 0x20 set. For a token byte that is exact:
        /// only `A`–`Z` and `a`–`z` give a lowercase letter, and only `-` and CR (never in a
        /// token) give `-`.
        @inline(__always)
        func tokenEquals(_ name: UnsafeBufferPointer<UInt8>, _ literal: StaticString) -> Bool {
            let count = literal.utf8CodeUnitCount
            guard name.count == count, count >= 4, let base = name.baseAddress else { return false }
            let bytes = UnsafeRawPointer(base), expected = UnsafeRawPointer(literal.utf8Start)
            if count < 8 {
                let fold: UInt32 = 0x2020_2020
                return bytes.loadUnaligned(as: UInt32.self) | fold == expected.loadUnaligned(as: UInt32.self)
                    && bytes.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self) | fold
                        == expected.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
            }
            let fold: UInt64 = 0x2020_2020_2020_2020
            var offset = 0
            while count - offset > 8 {
                guard bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self) | fold
                        == expected.loadUnaligned(fromByteOffset: offset, as: UInt64.self) else { return false }
                offset += 8
            }
            return bytes.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self) | fold
                == expected.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
        }

        /// Comma-separated tokens, trimmed, compared case-insensitively to `close` and `keep-alive`.
        mutating func noteConnection(_ bytes: UnsafeBufferPointer<UInt8>) {
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
        static func plainDecimal(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
            guard !bytes.isEmpty, bytes.count <= 18 else { return nil }
            var number = 0
            for byte in bytes {
                guard byte >= 0x30 && byte <= 0x39 else { return nil }
                number = number * 10 + Int(byte - 0x30)
            }
            return number
        }
    }

    /// `recentHost`: the previous request's `Host` on the connection, shared when the head's
    /// first `Host` repeats it byte for byte.
    mutating func interpretFields(_ special: SpecialFields, recentHost: String = "", maxBodyBytes: Int) throws(HTTP1RequestError) {
        if special.hostCount > 1 { throw .malformed("more than one Host header") }
        if minorVersion == 1 && special.hostCount == 0 { throw .malformed("HTTP/1.1 requests need a Host header") }
        if authority == nil, let host = special.firstHost { authority = Self.string(host, reusing: recentHost) }

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
            guard expectation.count == 12 && equalsLowercase(expectation, "100-continue") else {
                throw .expectationFailed(String(decoding: expectation, as: UTF8.self))
            }
            expectsContinue = minorVersion == 1 && framing != .none
        }
    }

    /// The uncommon framing cases (`Transfer-Encoding`, several or list-valued
    /// `Content-Length` fields), on Strings: comma-separated tokens of every value.
    mutating func interpretFraming(maxBodyBytes: Int) throws(HTTP1RequestError) {
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

    /// `bytes` decoded as UTF-8, or `recent` itself when it holds exactly these bytes: a
    /// keep-alive client repeating its target and `Host` gets the Strings of its previous
    /// request shared, not copied into new allocations. (Bytes that are not valid UTF-8 never
    /// equal a String's, so they are always decoded, and repaired, afresh.)
    static func string(_ bytes: UnsafeBufferPointer<UInt8>, reusing recent: String) -> String {
        var recent = recent
        if recent.utf8.count == bytes.count {
            if recent.withUTF8({ sameBytes($0, bytes) }) { return recent }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Whether two buffers hold the same bytes, compared 8 at a time (8 bytes or more: the
    /// leading words and one last word that may overlap them).
    static func sameBytes(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        let count = a.count
        guard count == b.count else { return false }
        guard let left = a.baseAddress, let right = b.baseAddress else { return true }  // both empty
        var offset = 0
        if count >= 8 {
            while count - offset > 8 {
                guard loadWord(left + offset) == loadWord(right + offset) else { return false }
                offset += 8
            }
            return loadWord(left + count - 8) == loadWord(right + count - 8)
        }
        while offset < count {
            guard left[offset] == right[offset] else { return false }
            offset += 1
        }
        return true
    }

    /// Comma-separated tokens of every value, trimmed and lowercased.
    static func tokens(_ values: [String]) -> [String] {
        if values.isEmpty { return [] }
        return values.flatMap { $0.split(separator: ",", omittingEmptySubsequences: false) }
            .map { $0.trimmingSpacesAndTabs().lowercased() }
            .filter { !$0.isEmpty }
    }
}
