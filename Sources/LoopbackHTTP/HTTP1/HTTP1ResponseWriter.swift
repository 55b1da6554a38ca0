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
        var status = response.status
        if status.code < 200 || status.code > 999 {
            // An interim or nonsense code as a final answer would leave the client waiting.
            status = .internalServerError
        }
        let bodyAllowed = status.code != 204 && status.code != 304
        var out: [UInt8] = []
        out.reserveCapacity(128 + response.body.count)
        out.append(contentsOf: "HTTP/1.1 \(status.code) ".utf8)
        appendSanitised(status.reasonPhrase, to: &out)
        out.append(contentsOf: crlf)
        for field in response.headers {
            if HTTPFields.namesEqual(field.name, "content-length")
                || HTTPFields.namesEqual(field.name, "transfer-encoding")
                || HTTPFields.namesEqual(field.name, "connection") {
                continue
            }
            guard !field.name.isEmpty, field.name.utf8.allSatisfy(isTokenByte) else { continue }
            out.append(contentsOf: field.name.utf8)
            out.append(contentsOf: ": ".utf8)
            appendSanitised(field.value, to: &out)
            out.append(contentsOf: crlf)
        }
        if bodyAllowed {
            out.append(contentsOf: "content-length: \(response.body.count)\r\n".utf8)
        }
        if closing {
            out.append(contentsOf: "connection: close\r\n".utf8)
        } else if minorVersion == 0 {
            out.append(contentsOf: "connection: keep-alive\r\n".utf8)
        }
        out.append(contentsOf: crlf)
        if bodyAllowed && !headRequest {
            out.append(contentsOf: response.body)
        }
        return out
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

    private static func appendSanitised(_ text: String, to out: inout [UInt8]) {
        for byte in text.utf8 {
            out.append(byte == ASCII.cr || byte == ASCII.lf || byte == 0 ? ASCII.space : byte)
        }
    }
}
