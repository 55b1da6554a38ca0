@testable import LoopbackHTTP

// The HTTP/1.1 request-head parser as it was before it was rewritten on raw bytes (commit
// c096136), kept verbatim as the reference the differential test compares the new one with.
// Its helpers (`isTokenByte`, `ASCII`, `trimmingSpacesAndTabs`) are the library's.

/// A parsed and checked HTTP/1.x request head: request line, header fields and what they
/// say about framing and the connection.
struct ReferenceHTTP1RequestHead: Hashable, Sendable {
    /// How the body is delimited.
    enum BodyFraming: Hashable, Sendable {
        case none
        case length(Int)
        case chunked
    }

    var method: String
    var target: String
    var authority: String?
    /// 0 for HTTP/1.0, 1 for HTTP/1.1.
    var minorVersion: Int
    var headers: HTTPFields
    var framing: BodyFraming
    var keepAlive: Bool
    var expectsContinue: Bool

    /// Parses a head: the bytes from the request line up to and including the empty line.
    ///
    /// Strict by design, because a fake should tell a client it is sloppy: every line ends
    /// in CRLF (a bare LF is a 400), header names are tokens with no space before the
    /// colon, values hold no control characters, obs-fold is refused, HTTP/1.1 needs one
    /// `Host`, and `Content-Length` with `Transfer-Encoding` is refused (request smuggling).
    /// - Throws: ``HTTP1RequestError`` with the status the client should get.
    static func parse(_ head: ArraySlice<UInt8>, maxBodyBytes: Int) throws(HTTP1RequestError) -> ReferenceHTTP1RequestHead {
        var lines: [Range<Int>] = []
        var lineStart = head.startIndex
        var index = head.startIndex
        while index < head.endIndex {
            let byte = head[index]
            if byte == ASCII.cr {
                guard index + 1 < head.endIndex, head[index + 1] == ASCII.lf else {
                    throw .malformed("a CR not followed by LF in the request head")
                }
                lines.append(lineStart..<index)
                index += 2
                lineStart = index
                continue
            }
            if byte == ASCII.lf { throw .malformed("a bare LF in the request head; lines end in CRLF") }
            index += 1
        }
        if lineStart < head.endIndex { lines.append(lineStart..<head.endIndex) }
        while let last = lines.last, last.isEmpty { lines.removeLast() }
        guard let requestLine = lines.first else { throw .malformed("empty request") }

        var result = try parseRequestLine(head[requestLine])
        var fieldNumber = 0
        for line in lines.dropFirst() {
            fieldNumber += 1
            let field = try parseField(head[line], number: fieldNumber)
            result.headers.append(name: field.name, value: field.value)
        }
        try result.interpretFields(maxBodyBytes: maxBodyBytes)
        return result
    }

    private static func parseRequestLine(_ line: ArraySlice<UInt8>) throws(HTTP1RequestError) -> ReferenceHTTP1RequestHead {
        let parts = line.split(separator: ASCII.space, maxSplits: 3, omittingEmptySubsequences: false)
        guard parts.count == 3, let methodBytes = parts.first, !methodBytes.isEmpty,
              let targetBytes = parts.dropFirst().first, !targetBytes.isEmpty,
              let versionBytes = parts.last
        else {
            throw .malformed("the request line must be METHOD SP TARGET SP HTTP/1.1")
        }
        guard versionBytes.count == 8, versionBytes.starts(with: Array("HTTP/".utf8)),
              let major = digit(versionBytes, at: 5), versionBytes[versionBytes.startIndex + 6] == UInt8(ascii: "."),
              let minor = digit(versionBytes, at: 7)
        else {
            throw .notHTTP("the request line's version is not HTTP/<digit>.<digit>")
        }
        let version = String(decoding: versionBytes, as: UTF8.self)
        guard major == 1, minor <= 1 else { throw .versionNotSupported(version) }
        guard methodBytes.allSatisfy(isTokenByte) else { throw .malformed("the method is not a token") }
        let method = String(decoding: methodBytes, as: UTF8.self)
        guard HTTP1Codec.allowedMethods.contains(method) else { throw .methodNotAllowed(method) }
        guard targetBytes.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw .malformed("the request target holds a space, control or non-ASCII byte")
        }
        var target = String(decoding: targetBytes, as: UTF8.self)
        var authority: String?
        if target.hasPrefix("/") {
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
        return ReferenceHTTP1RequestHead(
            method: method, target: target, authority: authority, minorVersion: minor,
            headers: HTTPFields(), framing: .none, keepAlive: minor == 1, expectsContinue: false)
    }

    private static func parseField(_ line: ArraySlice<UInt8>, number: Int) throws(HTTP1RequestError) -> HTTPFields.Field {
        guard let first = line.first else { throw .malformed("empty header line \(number)") }
        if first == ASCII.space || first == ASCII.tab {
            throw .malformed("header line \(number) starts with whitespace (obs-fold is not accepted)")
        }
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else {
            throw .malformed("header line \(number) has no colon")
        }
        let nameBytes = line[line.startIndex..<colon]
        guard !nameBytes.isEmpty else { throw .malformed("header line \(number) has an empty name") }
        if let last = nameBytes.last, last == ASCII.space || last == ASCII.tab {
            throw .malformed("header line \(number) has whitespace before the colon")
        }
        guard nameBytes.allSatisfy(isTokenByte) else {
            throw .malformed("header line \(number) has a name that is not a token")
        }
        var valueBytes = line[(colon + 1)...]
        while let byte = valueBytes.first, byte == ASCII.space || byte == ASCII.tab { valueBytes = valueBytes.dropFirst() }
        while let byte = valueBytes.last, byte == ASCII.space || byte == ASCII.tab { valueBytes = valueBytes.dropLast() }
        guard valueBytes.allSatisfy({ $0 == ASCII.tab || ($0 >= 0x20 && $0 != 0x7F) }) else {
            throw .malformed("header line \(number) has a control character in its value")
        }
        return HTTPFields.Field(
            name: String(decoding: nameBytes, as: UTF8.self),
            value: String(decoding: valueBytes, as: UTF8.self))
    }

    private mutating func interpretFields(maxBodyBytes: Int) throws(HTTP1RequestError) {
        // One pass over the fields (this runs for every request); names compared by length first.
        var hosts: [String] = []
        var connection: [String] = []
        var transferEncoding: [String] = []
        var contentLength: [String] = []
        var expect: String?
        for field in headers {
            let name = field.name
            switch name.utf8.count {
            case 4 where HTTPFields.namesEqual(name, "host"): hosts.append(field.value)
            case 6 where HTTPFields.namesEqual(name, "expect"): if expect == nil { expect = field.value }
            case 10 where HTTPFields.namesEqual(name, "connection"): connection.append(field.value)
            case 14 where HTTPFields.namesEqual(name, "content-length"): contentLength.append(field.value)
            case 17 where HTTPFields.namesEqual(name, "transfer-encoding"): transferEncoding.append(field.value)
            default: break
            }
        }
        if hosts.count > 1 { throw .malformed("more than one Host header") }
        if minorVersion == 1 && hosts.isEmpty { throw .malformed("HTTP/1.1 requests need a Host header") }
        if authority == nil { authority = hosts.first }

        for token in Self.tokens(connection) {
            if token == "close" { keepAlive = false }
            if token == "keep-alive" && minorVersion == 0 { keepAlive = true }
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

        if let expectation = expect {
            guard expectation.lowercased() == "100-continue" else { throw .expectationFailed(expectation) }
            expectsContinue = minorVersion == 1 && framing != .none
        }
    }

    /// Comma-separated tokens of every value, trimmed and lowercased.
    private static func tokens(_ values: [String]) -> [String] {
        if values.isEmpty { return [] }
        return values.flatMap { $0.split(separator: ",", omittingEmptySubsequences: false) }
            .map { $0.trimmingSpacesAndTabs().lowercased() }
            .filter { !$0.isEmpty }
    }

    private static func digit(_ bytes: ArraySlice<UInt8>, at offset: Int) -> Int? {
        let index = bytes.startIndex + offset
        guard index < bytes.endIndex else { return nil }
        let byte = bytes[index]
        guard byte >= 0x30 && byte <= 0x39 else { return nil }
        return Int(byte - 0x30)
    }
}


