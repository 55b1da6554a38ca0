/// Serialises HTTP/1.1 responses: status line, the handler's fields, then the framing
/// fields the server owns (`content-length`, `connection`), then the body.
///
/// The server owns framing: a handler's own `Content-Length`, `Transfer-Encoding` and
/// `Connection` fields are dropped, and CR, LF and NUL in a handler's values become
/// spaces, so a fake echoing client input cannot split a response.
package enum HTTP1ResponseWriter {
    /// The interim response sent before reading a body announced with `Expect: 100-continue`.
    package static let continueResponse: [UInt8] = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)

    /// The wire bytes of `response`.
    ///
    /// - Parameters:
    ///   - headRequest: the request was HEAD: headers (with the GET's length) but no body.
    ///   - minorVersion: the request's HTTP minor version; a kept-alive HTTP/1.0 connection
    ///     gets `connection: keep-alive`.
    ///   - closing: the connection closes after this response: adds `connection: close`.
    package static func serialize(_ response: HTTPResponse, headRequest: Bool, minorVersion: Int, closing: Bool) -> [UInt8] {
        var out: [UInt8] = []
        serialize(response, headRequest: headRequest, minorVersion: minorVersion, closing: closing, into: &out)
        return out
    }

    /// Appends the wire bytes of `response` to `out` (a buffer reused from one response to
    /// the next); see ``serialize(_:headRequest:minorVersion:closing:)``.
    package static func serialize(_ response: HTTPResponse, headRequest: Bool, minorVersion: Int, closing: Bool, into out: inout [UInt8]) {
        let status = finalStatus(response.status)
        let bodyAllowed = status.code != 204 && status.code != 304
        out.reserveCapacity(out.count + 96 + response.body.count + response.headers.count * 48)
        if !appendHeadInOneGo(status, response.headers, contentLength: bodyAllowed ? response.body.count : nil,
                              closing: closing, minorVersion: minorVersion, to: &out) {
            appendHeadPieceByPiece(status, response.headers, bodyAllowed: bodyAllowed, bodyCount: response.body.count,
                                   closing: closing, minorVersion: minorVersion, to: &out)
        }
        if bodyAllowed && !headRequest {
            out.append(contentsOf: response.body)
        }
    }

    /// ``appendHeadInOneGo(_:_:contentLength:closing:minorVersion:to:)`` for a head too large for the stack.
    private static func appendHeadPieceByPiece(_ status: HTTPStatus, _ headers: HTTPFields, bodyAllowed: Bool, bodyCount: Int,
                                               closing: Bool, minorVersion: Int, to out: inout [UInt8]) {
        appendStatusAndFields(status, headers, to: &out)
        if bodyAllowed {
            out.append(contentsOf: contentLengthPrefix)
            appendDecimal(bodyCount, to: &out)
            out.append(ASCII.cr)
            out.append(ASCII.lf)
        }
        if closing {
            out.append(contentsOf: connectionClose)
        } else if minorVersion == 0 {
            out.append(contentsOf: connectionKeepAlive)
        }
        out.append(contentsOf: crlf)
    }

    /// The head of a streamed response (``ResponseDisposition/stream(_:)``): its status and
    /// fields, `transfer-encoding: chunked` when `chunked` (HTTP/1.1; an HTTP/1.0 client
    /// reads to the close), and `connection: close`. The body follows as the producer offers it.
    package static func serializeStreamHead(_ response: HTTPResponse, chunked: Bool, into out: inout [UInt8]) {
        appendStatusAndFields(finalStatus(response.status), response.headers, to: &out)
        if chunked { out.append(contentsOf: transferEncodingChunked) }
        out.append(contentsOf: connectionClose)
        out.append(contentsOf: crlf)
    }

    /// One chunk of a chunked body: its size in hex, CRLF, the bytes, CRLF.
    package static func appendChunk(_ bytes: [UInt8], to out: inout [UInt8]) {
        guard !bytes.isEmpty else { return }
        out.append(contentsOf: Array(String(bytes.count, radix: 16).utf8))
        out.append(contentsOf: crlf)
        out.append(contentsOf: bytes)
        out.append(contentsOf: crlf)
    }

    /// The last chunk of a chunked body, with no trailers.
    package static let lastChunk: [UInt8] = Array("0\r\n\r\n".utf8)

    /// An interim or nonsense code as a final answer would leave the client waiting: 500.
    @inline(__always)
    private static func finalStatus(_ status: HTTPStatus) -> HTTPStatus {
        status.code < 200 || status.code > 999 ? .internalServerError : status
    }

    /// The status line and the handler's fields (framing fields dropped, values sanitised).
    @inline(__always)
    private static func appendStatusAndFields(_ status: HTTPStatus, _ headers: HTTPFields, to out: inout [UInt8]) {
        // No string interpolation: the status line and the length are written digit by digit.
        appendStatusLine(status, to: &out)
        headers.forEachFieldBytes { name, value in
            guard !name.isEmpty, !Self.isFramingField(name) else { return }
            for byte in name where !isTokenByte(byte) { return }
            out.append(contentsOf: name)
            out.append(UInt8(ascii: ":"))
            out.append(ASCII.space)
            appendSanitised(value, to: &out)
            out.append(ASCII.cr)
            out.append(ASCII.lf)
        }
    }

    /// The response for a refused request: its status, a one-line plain-text reason, and
    /// `connection: close` (the framing can no longer be trusted).
    package static func errorResponse(_ error: HTTP1RequestError) -> [UInt8] {
        var headers: HTTPFields = ["content-type": "text/plain; charset=utf-8"]
        if error.status == .methodNotAllowed {
            headers.append(name: "allow", value: HTTP1Codec.allowedMethodsList)
        }
        let response = HTTPResponse(status: error.status, headers: headers, body: Array((error.detail + "\n").utf8))
        return serialize(response, headRequest: false, minorVersion: 1, closing: true)
    }

    private static let crlf: [UInt8] = [ASCII.cr, ASCII.lf]
    private static let httpVersionSpace: [UInt8] = Array("HTTP/1.1 ".utf8)
    private static let contentLengthPrefix: [UInt8] = Array("content-length: ".utf8)
    private static let connectionClose: [UInt8] = Array("connection: close\r\n".utf8)
    private static let transferEncodingChunked: [UInt8] = Array("transfer-encoding: chunked\r\n".utf8)
    private static let connectionKeepAlive: [UInt8] = Array("connection: keep-alive\r\n".utf8)

    /// `content-length`, `transfer-encoding` or `connection`, in any ASCII case: the server's own.
    static func isFramingField(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
        switch name.count {
        case 10: return equalsLowercase(name, "connection")
        case 14: return equalsLowercase(name, "content-length")
        case 17: return equalsLowercase(name, "transfer-encoding")
        default: return false
        }
    }

    /// `HTTP/1.1 CODE REASON` and CRLF, the reason sanitised, composed on the stack and
    /// appended in one go (`status` is final: its code has three digits).
    @inline(__always)
    private static func appendStatusLine(_ status: HTTPStatus, to out: inout [UInt8]) {
        var reason = status.reasonPhrase
        reason.withUTF8 { reason in
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 15 + reason.count) { line in
                guard let base = line.baseAddress else { return }
                httpVersionSpace.withUnsafeBufferPointer { version in
                    for index in 0..<min(9, version.count) { base[index] = version[index] }
                }
                let code = min(max(status.code, 0), 999)
                base[9] = UInt8(ascii: "0") + UInt8(code / 100)
                base[10] = UInt8(ascii: "0") + UInt8(code / 10 % 10)
                base[11] = UInt8(ascii: "0") + UInt8(code % 10)
                base[12] = ASCII.space
                for index in 0..<reason.count {
                    let byte = reason[index]
                    base[13 + index] = byte == ASCII.cr || byte == ASCII.lf || byte == 0 ? ASCII.space : byte
                }
                base[13 + reason.count] = ASCII.cr
                base[14 + reason.count] = ASCII.lf
                out.append(contentsOf: UnsafeBufferPointer(start: base, count: 15 + reason.count))
            }
        }
    }

    /// A non-negative number in decimal (a negative one, impossible here, is written as 0),
    /// its digits composed on the stack and appended in one go.
    private static func appendDecimal(_ value: Int, to out: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            guard let end = digits.baseAddress.map({ $0 + 20 }) else { return }
            var start = end
            var rest = max(value, 0)
            repeat {
                start -= 1
                start.pointee = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            } while rest > 0
            out.append(contentsOf: UnsafeBufferPointer(start: start, count: end - start))
        }
    }

    private static func appendSanitised(_ bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        var clean = true
        for byte in bytes where byte == ASCII.cr || byte == ASCII.lf || byte == 0 {
            clean = false
            break
        }
        if clean {
            out.append(contentsOf: bytes)
            return
        }
        for byte in bytes {
            out.append(byte == ASCII.cr || byte == ASCII.lf || byte == 0 ? ASCII.space : byte)
        }
    }
}
