/// Why an HTTP/1.1 request was refused: the status the client gets and a one-line reason
/// (the response body), e.g. `400 header line 3 has no colon`.
///
/// After any of these the connection closes, because the framing can no longer be trusted.
/// One kind, ``notHTTP(_:)``, closes without a response: the peer is not speaking HTTP/1.x.
package struct HTTP1RequestError: Error, Hashable, CustomStringConvertible {
    private enum Code: Hashable {
        case malformed, headerTooLarge, targetTooLong, bodyTooLarge, methodNotAllowed, versionNotSupported
        case notImplemented, expectationFailed, requestTimeout, notHTTP
    }

    private let code: Code
    /// The reason, written as the response body.
    package let detail: String

    private init(_ code: Code, _ detail: String) {
        self.code = code
        self.detail = detail
    }

    /// False when the connection closes without any response (``notHTTP(_:)``).
    package var isAnswered: Bool { code != .notHTTP }

    /// The status the client receives (for ``notHTTP(_:)``, which is not answered, the 400 it
    /// would have been).
    package var status: HTTPStatus {
        switch code {
        case .malformed, .notHTTP: return .badRequest
        case .headerTooLarge: return .requestHeaderFieldsTooLarge
        case .targetTooLong: return .uriTooLong
        case .bodyTooLarge: return .contentTooLarge
        case .methodNotAllowed: return .methodNotAllowed
        case .versionNotSupported: return HTTPStatus(code: 505)
        case .notImplemented: return .notImplemented
        case .expectationFailed: return HTTPStatus(code: 417)
        case .requestTimeout: return .requestTimeout
        }
    }

    package var description: String { "\(status.code) \(detail)" }

    /// Equality on the kind only, so tests can match `.malformed("")` against any 400.
    package static func == (lhs: HTTP1RequestError, rhs: HTTP1RequestError) -> Bool { lhs.code == rhs.code }
    package func hash(into hasher: inout Hasher) { hasher.combine(code) }

    // MARK: No response
    /// The request line's version is not `HTTP/<digit>.<digit>` (h2spec's `INVALID CONNECTION
    /// PREFACE`, another protocol): a 400 would not be understood, so the connection just
    /// closes (RFC 9112 §2.2 makes the 400 a SHOULD).
    package static func notHTTP(_ detail: String) -> HTTP1RequestError { .init(.notHTTP, detail) }

    // MARK: 4xx
    /// 400: broken request line, header syntax, framing headers or chunk syntax.
    package static func malformed(_ detail: String) -> HTTP1RequestError { .init(.malformed, detail) }
    /// 405: a method outside GET HEAD POST PUT DELETE PATCH OPTIONS.
    package static func methodNotAllowed(_ method: String) -> HTTP1RequestError {
        .init(.methodNotAllowed, "method \(method) is not supported; use one of \(HTTP1Codec.allowedMethodsList)")
    }
    /// 408: the request did not arrive in full within the request timeout.
    package static let requestTimeout = HTTP1RequestError(.requestTimeout, "the request did not arrive in time")
    /// 413: the declared or received body is larger than the limit.
    package static func bodyTooLarge(limit: Int) -> HTTP1RequestError {
        .init(.bodyTooLarge, "request body exceeds \(limit) bytes")
    }
    /// 414: the request target is longer than the limit.
    package static func targetTooLong(limit: Int) -> HTTP1RequestError {
        .init(.targetTooLong, "request target exceeds \(limit) bytes")
    }
    /// 414: the request line alone does not fit in the head limit.
    package static func requestLineTooLong(limit: Int) -> HTTP1RequestError {
        .init(.targetTooLong, "request line exceeds \(limit) bytes")
    }
    /// 417: an `Expect` other than `100-continue`.
    package static func expectationFailed(_ value: String) -> HTTP1RequestError {
        .init(.expectationFailed, "unsupported expectation \"\(value)\"; only 100-continue is understood")
    }
    /// 431: the request line and header fields exceed the limit.
    package static func headerTooLarge(limit: Int) -> HTTP1RequestError {
        .init(.headerTooLarge, "request header block exceeds \(limit) bytes")
    }
    // MARK: 5xx
    /// 501: a transfer coding other than `chunked`.
    package static func notImplemented(_ detail: String) -> HTTP1RequestError { .init(.notImplemented, detail) }
    /// 505: an HTTP version other than 1.0 and 1.1 (`HTTP/2.0`, `HTTP/3.0`).
    package static func versionNotSupported(_ version: String) -> HTTP1RequestError {
        .init(.versionNotSupported, "\(version) is not supported; use HTTP/1.1")
    }
}
