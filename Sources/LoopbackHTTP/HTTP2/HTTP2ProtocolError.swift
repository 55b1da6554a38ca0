/// A violation of RFC 9113 found while reading the peer's frames: a connection error
/// (GOAWAY) when `stream` is nil, else a stream error (RST_STREAM on that stream).
package struct HTTP2ProtocolError: Error, Equatable, CustomStringConvertible {
    package var code: HTTP2ErrorCode
    package var stream: UInt32?
    package var message: String

    package init(_ code: HTTP2ErrorCode, stream: UInt32? = nil, _ message: String) {
        self.code = code
        self.stream = stream
        self.message = message
    }

    package var description: String {
        if let stream { return "stream \(stream): \(code): \(message)" }
        return "connection: \(code): \(message)"
    }
}
