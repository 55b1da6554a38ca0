/// Reading frames: the preface, then each frame type's rules (RFC 9113 §6).
extension HTTP2Connection {
    static let maxWindow = Int(Int32.max)
    /// Octets of an over-limit body dropped per stream before it is reset (CANCEL); the
    /// HTTP/1.1 shell stops discarding at the same size.
    static let maxDiscardedBodyBytes = 64 * 1024 * 1024

    mutating func processBuffered() {
        if phase == .awaitingPreface {
            guard let preface = frames.take(HTTP2Frame.clientPreface.count) else { return }
            guard preface == HTTP2Frame.clientPreface else {
                connectionError(HTTP2ProtocolError(.protocolError, "connection preface is not PRI * HTTP/2.0"))
                return
            }
            phase = .awaitingSettings
        }
        while phase != .closed {
            // Draining ends at the frame that leaves no stream open, not at the end of the
            // read: later frames in the same read must not change the outcome (fuzz-found).
            finishIfDrained()
            guard phase != .closed else { return }
            let frame: HTTP2Frame?
            do {
                frame = try frames.nextFrame()
            } catch {
                if let stream = error.stream, pendingBlock == nil {
                    guard streamErrorKeepsConnection(stream, error.code) else { return }
                    continue
                }
                connectionError(error)
                return
            }
            guard let frame else { return }
            do {
                try process(frame)
            } catch {
                if let stream = error.stream {
                    guard streamErrorKeepsConnection(stream, error.code) else { return }
                } else {
                    connectionError(error)
                    return
                }
            }
        }
    }

    /// Resets `stream` for a stream error the peer caused (§5.4.2); false (after GOAWAY
    /// ENHANCE_YOUR_CALM) if that exhausted the reset budget.
    mutating func streamErrorKeepsConnection(_ stream: UInt32, _ code: HTTP2ErrorCode) -> Bool {
        resetStream(stream, code)
        do {
            try spendResetBudget()
            return true
        } catch {
            connectionError(error)
            return false
        }
    }

    /// Spends one unit of the budget for frames that carry no request progress.
    mutating func spendControlBudget() throws(HTTP2ProtocolError) {
        controlFrameBudget -= 1
        if controlFrameBudget < 0 {
            throw HTTP2ProtocolError(.enhanceYourCalm, "more than \(configuration.maxControlFramesBetweenRequests) control frames without a request")
        }
    }

    mutating func process(_ frame: HTTP2Frame) throws(HTTP2ProtocolError) {
        if phase == .awaitingSettings {
            guard case .settings(ack: false, _) = frame.payload else {
                throw HTTP2ProtocolError(.protocolError, "the first frame after the preface must be SETTINGS")
            }
            phase = .active
        }
        if let pending = pendingBlock {
            guard case .continuation = frame.payload, frame.stream == pending.stream else {
                throw HTTP2ProtocolError(.protocolError, "expected CONTINUATION for stream \(pending.stream)")
            }
        }
        switch frame.payload {
        case .data(let data, let endStream, let padding):
            try receiveData(stream: frame.stream, data: data, endStream: endStream,
                            flowLength: data.count + (padding.map { Int($0) + 1 } ?? 0))
        case .headers(let block, let endStream, let endHeaders, let priority, _):
            if let priority, priority.dependency == frame.stream {
                // Decode the block anyway so HPACK stays in step, then refuse the stream.
                try beginHeaderBlock(stream: frame.stream, block: block, endStream: endStream, endHeaders: endHeaders,
                                     forcedError: HTTP2ProtocolError(.protocolError, stream: frame.stream, "stream depends on itself"))
            } else {
                try beginHeaderBlock(stream: frame.stream, block: block, endStream: endStream, endHeaders: endHeaders, forcedError: nil)
            }
        case .continuation(let block, let endHeaders):
            guard var pending = pendingBlock else {
                throw HTTP2ProtocolError(.protocolError, "CONTINUATION without a preceding HEADERS on stream \(frame.stream)")
            }
            pending.block.append(contentsOf: block)
            pending.frames += 1
            let limit = 4 * maxHeaderListSize + 1024
            if pending.block.count > limit || pending.frames > 1024 {
                pendingBlock = nil
                throw HTTP2ProtocolError(.enhanceYourCalm, "header block on stream \(frame.stream) exceeds \(limit) octets or 1024 frames without END_HEADERS")
            }
            if endHeaders {
                pendingBlock = nil
                try completeHeaderBlock(pending)
            } else {
                pendingBlock = pending
            }
        case .priority(let priority):
            try spendControlBudget()
            if priority.dependency == frame.stream {
                throw HTTP2ProtocolError(.protocolError, stream: frame.stream, "stream depends on itself")
            }
        case .rstStream:
            if frame.stream > lastClientStream {
                throw HTTP2ProtocolError(.protocolError, "RST_STREAM on idle stream \(frame.stream)")
            }
            try spendControlBudget()
            let cancelled = streams[frame.stream] != nil
            closeStream(frame.stream)
            finishIfDrained()
            // Cancelled before its response was complete: what Rapid Reset repeats.
            if cancelled { try spendResetBudget() }
        case .settings(let ack, let settings):
            try spendControlBudget()
            if ack {
                settingsAcknowledged = true
            } else {
                try apply(settings)
                write(HTTP2Frame(stream: 0, payload: .settings(ack: true, [])))
                sendPendingData()
            }
        case .pushPromise:
            throw HTTP2ProtocolError(.protocolError, "a client must not send PUSH_PROMISE")
        case .ping(let ack, let opaque):
            try spendControlBudget()
            if !ack { write(HTTP2Frame(stream: 0, payload: .ping(ack: true, opaque: opaque))) }
        case .goAway:
            peerSentGoAway = true
            finishIfDrained()
        case .windowUpdate(let increment):
            let written = output.count
            try windowUpdate(stream: frame.stream, increment: Int(increment))
            // One that lets no DATA out is a control frame (a flood on a closed stream).
            if output.count == written { try spendControlBudget() }
        case .unknown:
            try spendControlBudget()
        }
    }

    mutating func apply(_ settings: [HTTP2Frame.Setting]) throws(HTTP2ProtocolError) {
        for setting in settings {
            let value = Int(setting.value)
            switch setting.identifier {
            case HTTP2Frame.Setting.headerTableSize:
                encoder.setMaximumTableSize(min(value, 4096))
            case HTTP2Frame.Setting.enablePush:
                if value > 1 { throw HTTP2ProtocolError(.protocolError, "SETTINGS_ENABLE_PUSH must be 0 or 1, got \(value)") }
            case HTTP2Frame.Setting.initialWindowSize:
                if value > Self.maxWindow {
                    throw HTTP2ProtocolError(.flowControlError, "SETTINGS_INITIAL_WINDOW_SIZE \(value) exceeds 2^31-1")
                }
                let delta = value - peerInitialWindowSize
                peerInitialWindowSize = value
                if delta > 0 { windowGrants &+= 1 }
                for id in Array(streams.keys) {
                    let window = withStream(id) { stream -> Int in
                        stream.sendWindow += delta
                        return stream.sendWindow
                    } ?? 0
                    if window > Self.maxWindow {
                        throw HTTP2ProtocolError(.flowControlError, "SETTINGS_INITIAL_WINDOW_SIZE makes stream \(id)'s window exceed 2^31-1")
                    }
                }
            case HTTP2Frame.Setting.maxFrameSize:
                if value < 16_384 || value > 16_777_215 {
                    throw HTTP2ProtocolError(.protocolError, "SETTINGS_MAX_FRAME_SIZE \(value) outside 16384...16777215")
                }
                peerMaxFrameSize = value
            default:
                break
            }
        }
    }

    mutating func windowUpdate(stream: UInt32, increment: Int) throws(HTTP2ProtocolError) {
        if increment > 0 { windowGrants &+= 1 }
        if stream == 0 {
            if increment == 0 { throw HTTP2ProtocolError(.protocolError, "WINDOW_UPDATE with increment 0 on the connection") }
            connectionSendWindow += increment
            if connectionSendWindow > Self.maxWindow {
                throw HTTP2ProtocolError(.flowControlError, "connection window exceeds 2^31-1")
            }
            sendPendingData()
            return
        }
        if stream > lastClientStream {
            throw HTTP2ProtocolError(.protocolError, "WINDOW_UPDATE on idle stream \(stream)")
        }
        if increment == 0 { throw HTTP2ProtocolError(.protocolError, stream: stream, "WINDOW_UPDATE with increment 0") }
        guard let window = withStream(stream, { s -> Int in
            s.sendWindow += increment
            return s.sendWindow
        }) else { return }
        if window > Self.maxWindow {
            throw HTTP2ProtocolError(.flowControlError, stream: stream, "stream window exceeds 2^31-1")
        }
        sendPendingData()
    }

    mutating func receiveData(stream: UInt32, data: [UInt8], endStream: Bool, flowLength: Int) throws(HTTP2ProtocolError) {
        if flowLength > connectionReceiveWindow {
            throw HTTP2ProtocolError(.flowControlError, "DATA of \(flowLength) octets exceeds the connection window \(connectionReceiveWindow)")
        }
        connectionReceiveWindow -= flowLength
        if data.isEmpty && !endStream { try spendControlBudget() }
        // One lookup: the checks and the buffering below work on the stream in its slot
        // (nothing changes the table in between).
        let found = streams.index(forKey: stream)
        var buffering: (window: Int, buffered: Int)?
        if let slot = found {
            buffering = withStream(at: slot) { s in
                !s.discardingBody && s.state == .receiving ? (s.receiveWindow, s.body.count) : nil
            }
        }
        guard let slot = found, let buffering else {
            // Not buffered: the connection window comes back at once.
            creditConnection(flowLength)
            guard let slot = found else {
                if stream > lastClientStream { throw HTTP2ProtocolError(.protocolError, "DATA on idle stream \(stream)") }
                if recentlyReset.contains(stream) { return }
                throw HTTP2ProtocolError(.streamClosed, stream: stream, "DATA on closed stream")
            }
            if withStream(at: slot, { $0.discardingBody }) {
                try discardData(stream: stream, flowLength: flowLength, endStream: endStream)
                return
            }
            throw HTTP2ProtocolError(.streamClosed, stream: stream, "DATA after END_STREAM")
        }
        if flowLength > buffering.window {
            creditConnection(flowLength)
            throw HTTP2ProtocolError(.flowControlError, stream: stream, "DATA exceeds the stream window")
        }
        if buffering.buffered + data.count <= maxBodyBytes, !bodyBudget.reserve(data.count) {
            // The process holds as much request body as it may: refuse this one rather than
            // buffer it (REFUSED_STREAM: the handler never ran, the client may retry).
            creditConnection(flowLength)
            resetStream(stream, .refusedStream)
            try spendResetBudget()
            return
        }
        let tooLarge = Self.buffer(data, flowLength: flowLength, limit: maxBodyBytes, in: &streams.values[slot])
        if tooLarge {
            try refuseBody(stream, stillReceiving: !endStream)
            // The DATA that crossed the limit is dropped too: its window goes back, or a
            // client that used the whole window would wait for one that never opens.
            if !endStream { creditStream(stream, flowLength) }
            return
        }
        bufferedBodyBytes += data.count
        if endStream {
            try finishRequest(stream)
        } else {
            creditStream(stream, flowLength)
        }
    }

    /// `data` joins the stream's body unless the body would exceed `limit` (then true).
    private static func buffer(_ data: [UInt8], flowLength: Int, limit: Int, in s: inout HTTP2Stream) -> Bool {
        s.receiveWindow -= flowLength
        s.heldConnectionCredit += flowLength
        guard s.body.count + data.count <= limit else { return true }
        if s.body.isEmpty { s.body = data } else { s.body.append(contentsOf: data) }  // one DATA frame: no copy
        return false
    }

    /// DATA of a body over the limit: credited as it arrives (so the client can finish its
    /// upload and read the answer) and dropped; at END_STREAM an answered stream closes.
    mutating func discardData(stream: UInt32, flowLength: Int, endStream: Bool) throws(HTTP2ProtocolError) {
        let (exceeded, dropped) = withStream(stream) { s -> (Bool, Int) in
            guard flowLength <= s.receiveWindow else { return (true, 0) }
            s.receiveWindow -= flowLength
            s.discardedBytes += flowLength
            return (false, s.discardedBytes)
        } ?? (false, 0)
        if exceeded { throw HTTP2ProtocolError(.flowControlError, stream: stream, "DATA exceeds the stream window") }
        if dropped > Self.maxDiscardedBodyBytes {
            // Answered already: NO_ERROR asks the client to stop (RFC 9113 §8.1).
            resetStream(stream, streams[stream]?.answered == true ? .noError : .cancel)
            return
        }
        if endStream {
            endDiscarding(stream)
        } else {
            creditStream(stream, flowLength)
        }
    }

    /// The over-limit body ended (END_STREAM on DATA or trailers).
    mutating func endDiscarding(_ stream: UInt32) {
        streams[stream]?.discardingBody = false
        if streams[stream]?.answered == true { closeStream(stream) }
    }

    /// Returns connection-level window to the peer once half of it is used.
    mutating func creditConnection(_ length: Int) {
        connectionUncredited += length
        if connectionUncredited >= configuration.connectionWindowSize / 2 {
            write(HTTP2Frame(stream: 0, payload: .windowUpdate(increment: UInt32(clamping: connectionUncredited))))
            connectionReceiveWindow += connectionUncredited
            connectionUncredited = 0
        }
    }

    mutating func creditStream(_ stream: UInt32, _ length: Int) {
        let threshold = max(configuration.initialWindowSize / 2, 1)
        let credit = withStream(stream) { s -> Int in
            s.uncreditedBytes += length
            guard s.uncreditedBytes >= threshold else { return 0 }
            let credit = s.uncreditedBytes
            s.uncreditedBytes = 0
            s.receiveWindow += credit
            return credit
        } ?? 0
        if credit > 0 { write(HTTP2Frame(stream: stream, payload: .windowUpdate(increment: UInt32(clamping: credit)))) }
    }
}
