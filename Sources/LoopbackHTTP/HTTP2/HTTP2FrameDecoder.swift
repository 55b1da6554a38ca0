/// Splits the peer's bytes into frames (RFC 9113 §4), checking what can be checked
/// without connection state: lengths (FRAME_SIZE_ERROR), padding and stream-id-zero rules
/// (PROTOCOL_ERROR). Bytes are buffered until a whole frame is there.
package struct HTTP2FrameDecoder: Sendable {
    private var buffer: [UInt8] = []
    private var readIndex = 0
    /// Our SETTINGS_MAX_FRAME_SIZE: larger frames are a connection error.
    package var maximumFrameSize: Int

    package init(maximumFrameSize: Int = 16_384) {
        self.maximumFrameSize = maximumFrameSize
    }

    /// Octets buffered and not yet returned as frames.
    package var bufferedCount: Int { buffer.count - readIndex }

    package mutating func append(_ bytes: UnsafeRawBufferPointer) {
        compact()
        buffer.append(contentsOf: bytes)
    }

    package mutating func append(_ bytes: [UInt8]) {
        compact()
        buffer.append(contentsOf: bytes)
    }

    /// Takes `count` raw octets (the client preface) if that many are buffered.
    package mutating func take(_ count: Int) -> [UInt8]? {
        guard bufferedCount >= count else { return nil }
        let bytes = Array(buffer[readIndex..<(readIndex + count)])
        readIndex += count
        return bytes
    }

    /// The next complete frame, nil if more bytes are needed.
    ///
    /// - Throws: `HTTP2ProtocolError`; after a connection error (nil `stream`) the caller
    ///   must stop reading. After a stream error the frame was consumed and reading continues.
    package mutating func nextFrame() throws(HTTP2ProtocolError) -> HTTP2Frame? {
        guard bufferedCount >= 9 else { return nil }
        let h = readIndex
        let length = Int(buffer[h]) << 16 | Int(buffer[h + 1]) << 8 | Int(buffer[h + 2])
        let type = buffer[h + 3]
        let flags = buffer[h + 4]
        let stream = Self.read32(buffer, h + 5) & 0x7fff_ffff
        if length > maximumFrameSize {
            throw HTTP2ProtocolError(.frameSizeError, "frame of \(length) octets exceeds SETTINGS_MAX_FRAME_SIZE \(maximumFrameSize)")
        }
        guard bufferedCount >= 9 + length else { return nil }
        let start = h + 9
        let payload = buffer[start..<(start + length)]
        readIndex = start + length
        return try Self.parse(type: type, flags: flags, stream: stream, payload: payload)
    }

    private mutating func compact() {
        if readIndex > 0 && (readIndex == buffer.count || readIndex >= 65_536) {
            buffer.removeFirst(readIndex)
            readIndex = 0
        }
    }

    static func read32(_ bytes: [UInt8], _ index: Int) -> UInt32 {
        UInt32(bytes[index]) << 24 | UInt32(bytes[index + 1]) << 16 | UInt32(bytes[index + 2]) << 8 | UInt32(bytes[index + 3])
    }

    private static func read32(_ bytes: ArraySlice<UInt8>, _ index: Int) -> UInt32 {
        UInt32(bytes[index]) << 24 | UInt32(bytes[index + 1]) << 16 | UInt32(bytes[index + 2]) << 8 | UInt32(bytes[index + 3])
    }

    /// Removes the PADDED framing: returns the content range, or a PROTOCOL_ERROR.
    private static func unpad(_ payload: ArraySlice<UInt8>, flags: UInt8, type: String) throws(HTTP2ProtocolError) -> (ArraySlice<UInt8>, UInt8?) {
        guard flags & HTTP2Frame.flagPadded != 0 else { return (payload, nil) }
        guard let padLength = payload.first else {
            throw HTTP2ProtocolError(.frameSizeError, "\(type) frame with PADDED flag has no Pad Length octet")
        }
        let contentLength = payload.count - 1 - Int(padLength)
        guard contentLength >= 0 else {
            throw HTTP2ProtocolError(.protocolError, "\(type) padding (\(padLength)) exceeds the payload (\(payload.count))")
        }
        let start = payload.startIndex + 1
        return (payload[start..<(start + contentLength)], padLength)
    }

    private static func parse(type: UInt8, flags: UInt8, stream: UInt32, payload: ArraySlice<UInt8>) throws(HTTP2ProtocolError) -> HTTP2Frame {
        func needsStream(_ name: String) throws(HTTP2ProtocolError) {
            if stream == 0 { throw HTTP2ProtocolError(.protocolError, "\(name) frame on stream 0") }
        }
        func needsConnection(_ name: String) throws(HTTP2ProtocolError) {
            if stream != 0 { throw HTTP2ProtocolError(.protocolError, "\(name) frame on stream \(stream), must be 0") }
        }
        let p = payload.startIndex
        switch type {
        case HTTP2Frame.typeData:
            try needsStream("DATA")
            let (content, padding) = try unpad(payload, flags: flags, type: "DATA")
            return HTTP2Frame(stream: stream, payload: .data(Array(content), endStream: flags & HTTP2Frame.flagEndStream != 0, padding: padding))
        case HTTP2Frame.typeHeaders:
            try needsStream("HEADERS")
            var (content, padding) = try unpad(payload, flags: flags, type: "HEADERS")
            var priority: HTTP2Frame.Priority?
            if flags & HTTP2Frame.flagPriority != 0 {
                guard content.count >= 5 else {
                    throw HTTP2ProtocolError(.frameSizeError, "HEADERS with PRIORITY flag shorter than 5 octets")
                }
                let word = read32(content, content.startIndex)
                priority = .init(exclusive: word & 0x8000_0000 != 0, dependency: word & 0x7fff_ffff, weight: content[content.startIndex + 4])
                content = content.dropFirst(5)
            }
            return HTTP2Frame(stream: stream, payload: .headers(
                block: Array(content), endStream: flags & HTTP2Frame.flagEndStream != 0,
                endHeaders: flags & HTTP2Frame.flagEndHeaders != 0, priority: priority, padding: padding))
        case HTTP2Frame.typePriority:
            try needsStream("PRIORITY")
            guard payload.count == 5 else {
                throw HTTP2ProtocolError(.frameSizeError, stream: stream, "PRIORITY frame of \(payload.count) octets, must be 5")
            }
            let word = read32(payload, p)
            return HTTP2Frame(stream: stream, payload: .priority(.init(exclusive: word & 0x8000_0000 != 0, dependency: word & 0x7fff_ffff, weight: payload[p + 4])))
        case HTTP2Frame.typeRSTStream:
            try needsStream("RST_STREAM")
            guard payload.count == 4 else {
                throw HTTP2ProtocolError(.frameSizeError, "RST_STREAM frame of \(payload.count) octets, must be 4")
            }
            return HTTP2Frame(stream: stream, payload: .rstStream(HTTP2ErrorCode(rawValue: read32(payload, p))))
        case HTTP2Frame.typeSettings:
            try needsConnection("SETTINGS")
            let ack = flags & HTTP2Frame.flagAck != 0
            if ack && !payload.isEmpty { throw HTTP2ProtocolError(.frameSizeError, "SETTINGS ACK with a payload") }
            guard payload.count % 6 == 0 else {
                throw HTTP2ProtocolError(.frameSizeError, "SETTINGS payload of \(payload.count) octets is not a multiple of 6")
            }
            var settings: [HTTP2Frame.Setting] = []
            var i = p
            while i < payload.endIndex {
                settings.append(.init(UInt16(payload[i]) << 8 | UInt16(payload[i + 1]), read32(payload, i + 2)))
                i += 6
            }
            return HTTP2Frame(stream: 0, payload: .settings(ack: ack, settings))
        case HTTP2Frame.typePushPromise:
            try needsStream("PUSH_PROMISE")
            let (content, padding) = try unpad(payload, flags: flags, type: "PUSH_PROMISE")
            guard content.count >= 4 else { throw HTTP2ProtocolError(.frameSizeError, "PUSH_PROMISE shorter than 4 octets") }
            return HTTP2Frame(stream: stream, payload: .pushPromise(
                promisedStream: read32(content, content.startIndex) & 0x7fff_ffff, block: Array(content.dropFirst(4)),
                endHeaders: flags & HTTP2Frame.flagEndHeaders != 0, padding: padding))
        case HTTP2Frame.typePing:
            try needsConnection("PING")
            guard payload.count == 8 else { throw HTTP2ProtocolError(.frameSizeError, "PING frame of \(payload.count) octets, must be 8") }
            let opaque = UInt64(read32(payload, p)) << 32 | UInt64(read32(payload, p + 4))
            return HTTP2Frame(stream: 0, payload: .ping(ack: flags & HTTP2Frame.flagAck != 0, opaque: opaque))
        case HTTP2Frame.typeGoAway:
            try needsConnection("GOAWAY")
            guard payload.count >= 8 else { throw HTTP2ProtocolError(.frameSizeError, "GOAWAY frame shorter than 8 octets") }
            return HTTP2Frame(stream: 0, payload: .goAway(
                lastStream: read32(payload, p) & 0x7fff_ffff, code: HTTP2ErrorCode(rawValue: read32(payload, p + 4)),
                debugData: Array(payload.dropFirst(8))))
        case HTTP2Frame.typeWindowUpdate:
            guard payload.count == 4 else {
                throw HTTP2ProtocolError(.frameSizeError, "WINDOW_UPDATE frame of \(payload.count) octets, must be 4")
            }
            return HTTP2Frame(stream: stream, payload: .windowUpdate(increment: read32(payload, p) & 0x7fff_ffff))
        case HTTP2Frame.typeContinuation:
            try needsStream("CONTINUATION")
            return HTTP2Frame(stream: stream, payload: .continuation(block: Array(payload), endHeaders: flags & HTTP2Frame.flagEndHeaders != 0))
        default:
            return HTTP2Frame(stream: stream, payload: .unknown(type: type, flags: flags, payload: Array(payload)))
        }
    }
}
