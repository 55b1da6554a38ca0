/// An HTTP/2 error code (RFC 9113 §7). A struct, not an enum: a peer may send codes
/// this server does not know, and they must round-trip unchanged.
package struct HTTP2ErrorCode: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    package var rawValue: UInt32
    package init(rawValue: UInt32) { self.rawValue = rawValue }

    package static let noError = HTTP2ErrorCode(rawValue: 0x0)
    package static let protocolError = HTTP2ErrorCode(rawValue: 0x1)
    package static let internalError = HTTP2ErrorCode(rawValue: 0x2)
    package static let flowControlError = HTTP2ErrorCode(rawValue: 0x3)
    package static let settingsTimeout = HTTP2ErrorCode(rawValue: 0x4)
    package static let streamClosed = HTTP2ErrorCode(rawValue: 0x5)
    package static let frameSizeError = HTTP2ErrorCode(rawValue: 0x6)
    package static let refusedStream = HTTP2ErrorCode(rawValue: 0x7)
    package static let cancel = HTTP2ErrorCode(rawValue: 0x8)
    package static let compressionError = HTTP2ErrorCode(rawValue: 0x9)
    package static let connectError = HTTP2ErrorCode(rawValue: 0xa)
    package static let enhanceYourCalm = HTTP2ErrorCode(rawValue: 0xb)
    package static let inadequateSecurity = HTTP2ErrorCode(rawValue: 0xc)
    package static let http11Required = HTTP2ErrorCode(rawValue: 0xd)

    package var description: String {
        let names = ["NO_ERROR", "PROTOCOL_ERROR", "INTERNAL_ERROR", "FLOW_CONTROL_ERROR", "SETTINGS_TIMEOUT",
                     "STREAM_CLOSED", "FRAME_SIZE_ERROR", "REFUSED_STREAM", "CANCEL", "COMPRESSION_ERROR",
                     "CONNECT_ERROR", "ENHANCE_YOUR_CALM", "INADEQUATE_SECURITY", "HTTP_1_1_REQUIRED"]
        return rawValue < UInt32(names.count) ? names[Int(rawValue)] : "0x\(String(rawValue, radix: 16))"
    }
}
