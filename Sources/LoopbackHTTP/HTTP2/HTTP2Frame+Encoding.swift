extension HTTP2Frame {
    /// Appends the frame's wire form (9-octet header and payload) to `output`.
    /// The caller keeps payloads within the peer's SETTINGS_MAX_FRAME_SIZE.
    package func encode(into output: inout [UInt8]) {
        let headerStart = output.count
        Self.appendHeaderRoom(to: &output)
        var type: UInt8 = 0
        var flags: UInt8 = 0
        switch payload {
        case .data(let data, let endStream, let padding):
            type = Self.typeData
            if endStream { flags |= Self.flagEndStream }
            if let padding { flags |= Self.flagPadded; output.append(padding) }
            output.append(contentsOf: data)
            if let padding { output.append(contentsOf: repeatElement(0, count: Int(padding))) }
        case .headers(let block, let endStream, let endHeaders, let priority, let padding):
            type = Self.typeHeaders
            if endStream { flags |= Self.flagEndStream }
            if endHeaders { flags |= Self.flagEndHeaders }
            if let padding { flags |= Self.flagPadded; output.append(padding) }
            if let priority { flags |= Self.flagPriority; Self.append(priority, into: &output) }
            output.append(contentsOf: block)
            if let padding { output.append(contentsOf: repeatElement(0, count: Int(padding))) }
        case .priority(let priority):
            type = Self.typePriority
            Self.append(priority, into: &output)
        case .rstStream(let code):
            type = Self.typeRSTStream
            Self.append32(code.rawValue, into: &output)
        case .settings(let ack, let settings):
            type = Self.typeSettings
            if ack { flags |= Self.flagAck }
            for setting in settings {
                output.append(UInt8(truncatingIfNeeded: setting.identifier >> 8))
                output.append(UInt8(truncatingIfNeeded: setting.identifier))
                Self.append32(setting.value, into: &output)
            }
        case .pushPromise(let promised, let block, let endHeaders, let padding):
            type = Self.typePushPromise
            if endHeaders { flags |= Self.flagEndHeaders }
            if let padding { flags |= Self.flagPadded; output.append(padding) }
            Self.append32(promised & 0x7fff_ffff, into: &output)
            output.append(contentsOf: block)
            if let padding { output.append(contentsOf: repeatElement(0, count: Int(padding))) }
        case .ping(let ack, let opaque):
            type = Self.typePing
            if ack { flags |= Self.flagAck }
            Self.append32(UInt32(truncatingIfNeeded: opaque >> 32), into: &output)
            Self.append32(UInt32(truncatingIfNeeded: opaque), into: &output)
        case .goAway(let lastStream, let code, let debugData):
            type = Self.typeGoAway
            Self.append32(lastStream & 0x7fff_ffff, into: &output)
            Self.append32(code.rawValue, into: &output)
            output.append(contentsOf: debugData)
        case .windowUpdate(let increment):
            type = Self.typeWindowUpdate
            Self.append32(increment & 0x7fff_ffff, into: &output)
        case .continuation(let block, let endHeaders):
            type = Self.typeContinuation
            if endHeaders { flags |= Self.flagEndHeaders }
            output.append(contentsOf: block)
        case .unknown(let unknownType, let unknownFlags, let bytes):
            type = unknownType
            flags = unknownFlags
            output.append(contentsOf: bytes)
        }
        Self.fillHeader(at: headerStart, type: type, flags: flags, stream: stream, in: &output)
    }

    /// Appends the 9 octets ``fillHeader(at:type:flags:stream:in:)`` fills in once the payload
    /// follows them (copied from one array: `append(contentsOf: repeatElement(0, count: 9))`
    /// went through a generic path, ~160 instructions).
    static func appendHeaderRoom(to output: inout [UInt8]) {
        output.append(contentsOf: headerRoom)
    }

    private static let headerRoom = [UInt8](repeating: 0, count: 9)

    /// Fills the 9 octets at `headerStart` with a frame header whose payload is everything
    /// in `output` after them.
    static func fillHeader(at headerStart: Int, type: UInt8, flags: UInt8, stream: UInt32, in output: inout [UInt8]) {
        let length = output.count - headerStart - 9
        output[headerStart] = UInt8(truncatingIfNeeded: length >> 16)
        output[headerStart + 1] = UInt8(truncatingIfNeeded: length >> 8)
        output[headerStart + 2] = UInt8(truncatingIfNeeded: length)
        output[headerStart + 3] = type
        output[headerStart + 4] = flags
        output[headerStart + 5] = UInt8(truncatingIfNeeded: stream >> 24) & 0x7f
        output[headerStart + 6] = UInt8(truncatingIfNeeded: stream >> 16)
        output[headerStart + 7] = UInt8(truncatingIfNeeded: stream >> 8)
        output[headerStart + 8] = UInt8(truncatingIfNeeded: stream)
    }

    /// At least the octets ``encode(into:)`` appends: the 9-octet header and the payload.
    var encodedSize: Int {
        switch payload {
        case .data(let data, _, let padding): return 10 + data.count + Int(padding ?? 0)
        case .headers(let block, _, _, _, let padding): return 15 + block.count + Int(padding ?? 0)
        case .settings(_, let settings): return 9 + 6 * settings.count
        case .pushPromise(_, let block, _, let padding): return 14 + block.count + Int(padding ?? 0)
        case .goAway(_, _, let debugData): return 17 + debugData.count
        case .continuation(let block, _): return 9 + block.count
        case .unknown(_, _, let bytes): return 9 + bytes.count
        case .priority, .rstStream, .ping, .windowUpdate: return 17
        }
    }

    /// The frame's wire form.
    package var bytes: [UInt8] {
        var output: [UInt8] = []
        encode(into: &output)
        return output
    }

    static func append32(_ value: UInt32, into output: inout [UInt8]) {
        output.append(UInt8(truncatingIfNeeded: value >> 24))
        output.append(UInt8(truncatingIfNeeded: value >> 16))
        output.append(UInt8(truncatingIfNeeded: value >> 8))
        output.append(UInt8(truncatingIfNeeded: value))
    }

    private static func append(_ priority: Priority, into output: inout [UInt8]) {
        append32((priority.dependency & 0x7fff_ffff) | (priority.exclusive ? 0x8000_0000 : 0), into: &output)
        output.append(priority.weight)
    }
}
