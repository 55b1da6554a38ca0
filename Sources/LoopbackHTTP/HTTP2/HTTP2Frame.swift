/// One HTTP/2 frame (RFC 9113 §6), as read from or written to the wire.
package struct HTTP2Frame: Sendable, Equatable {
    /// Stream dependency information carried by PRIORITY and HEADERS (parsed, then ignored).
    /// Only the decoder and the tests make one, so the memberwise initializer Swift writes
    /// (internal) is enough.
    package struct Priority: Sendable, Equatable {
        package var exclusive: Bool
        package var dependency: UInt32
        package var weight: UInt8
    }

    /// A SETTINGS parameter (RFC 9113 §6.5.2); unknown identifiers are kept and ignored.
    package struct Setting: Sendable, Equatable {
        package var identifier: UInt16
        package var value: UInt32
        package init(_ identifier: UInt16, _ value: UInt32) {
            self.identifier = identifier
            self.value = value
        }
        package static let headerTableSize: UInt16 = 0x1
        package static let enablePush: UInt16 = 0x2
        package static let maxConcurrentStreams: UInt16 = 0x3
        package static let initialWindowSize: UInt16 = 0x4
        package static let maxFrameSize: UInt16 = 0x5
        package static let maxHeaderListSize: UInt16 = 0x6
    }

    package enum Payload: Sendable, Equatable {
        /// `padding` counts the padding octets (nil: no PADDED flag).
        case data([UInt8], endStream: Bool, padding: UInt8?)
        case headers(block: [UInt8], endStream: Bool, endHeaders: Bool, priority: Priority?, padding: UInt8?)
        case priority(Priority)
        case rstStream(HTTP2ErrorCode)
        case settings(ack: Bool, [Setting])
        case pushPromise(promisedStream: UInt32, block: [UInt8], endHeaders: Bool, padding: UInt8?)
        case ping(ack: Bool, opaque: UInt64)
        case goAway(lastStream: UInt32, code: HTTP2ErrorCode, debugData: [UInt8])
        case windowUpdate(increment: UInt32)
        case continuation(block: [UInt8], endHeaders: Bool)
        /// A frame type this endpoint does not know: ignored (RFC 9113 §4.1, §5.5).
        case unknown(type: UInt8, flags: UInt8, payload: [UInt8])
    }

    package var stream: UInt32
    package var payload: Payload

    package init(stream: UInt32, payload: Payload) {
        self.stream = stream
        self.payload = payload
    }

    // MARK: Frame types and flags
    package static let typeData: UInt8 = 0x0
    package static let typeHeaders: UInt8 = 0x1
    package static let typePriority: UInt8 = 0x2
    package static let typeRSTStream: UInt8 = 0x3
    package static let typeSettings: UInt8 = 0x4
    package static let typePushPromise: UInt8 = 0x5
    package static let typePing: UInt8 = 0x6
    package static let typeGoAway: UInt8 = 0x7
    package static let typeWindowUpdate: UInt8 = 0x8
    package static let typeContinuation: UInt8 = 0x9

    package static let flagEndStream: UInt8 = 0x1
    package static let flagAck: UInt8 = 0x1
    package static let flagEndHeaders: UInt8 = 0x4
    package static let flagPadded: UInt8 = 0x8
    package static let flagPriority: UInt8 = 0x20

    /// The 24 octets a client sends first (RFC 9113 §3.4).
    package static let clientPreface: [UInt8] = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)
}
