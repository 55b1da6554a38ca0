/// Writing responses: HEADERS (+ CONTINUATION) at once, DATA within the peer's windows.
extension HTTP2Connection {
    /// Writes the response for `stream` if it is still waiting for one; a stream the client
    /// reset meanwhile is silently skipped.
    mutating func writeResponse(_ response: HTTPResponse, stream: UInt32) {
        // Asked in place: `streams[stream]` copied the whole stream to read its state.
        guard withStream(stream, { $0.state == .awaitingResponse }) == true else { return }
        // The block is encoded field by field straight into `output`, behind a HEADERS frame
        // header (a field array, a block array and a frame value, then copying the block, cost
        // ~900 instructions a response); one over the peer's frame size is cut out again and
        // sent as HEADERS + CONTINUATION. Room for every field as raw octets is reserved up
        // front (Huffman only shortens them): growing the block while it is written cost
        // ~1,700 instructions per FakeAPNs 200 (callgrind).
        let endStream = response.body.isEmpty
        let headerStart = output.count
        var room = 9 + 16 + 14 + (endStream ? 0 : 38)  // header, slack, :status, content-length
        for field in response.headers { room += field.name.utf8.count + field.value.utf8.count + 4 }
        reserveOutput(room)
        HTTP2Frame.appendHeaderRoom(to: &output)
        encoder.beginBlock(into: &output)
        encoder.encodeField(name: ":status", value: String(response.status.code), into: &output)
        var hasLength = false
        for field in response.headers {
            let name = field.name.utf8.contains(where: { $0 >= 0x41 && $0 <= 0x5a }) ? field.name.lowercased() : field.name
            // The names below start with c, k, p, t or u: any other (apns-id…) skips the six
            // string comparisons (~400 instructions per FakeAPNs 200).
            if let first = name.utf8.first, Self.mayBeFramingName(startingWith: first) {
                switch name {
                case "connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade":
                    continue  // HTTP/1.1 framing; malformed in HTTP/2 (RFC 9113 §8.2.2).
                case "content-length":
                    hasLength = true
                default:
                    break
                }
            }
            encoder.encodeField(name: name, value: field.value, into: &output)
        }
        if !hasLength && !endStream {
            encoder.encodeField(name: "content-length", value: String(response.body.count), into: &output)
        }
        if output.count - headerStart - 9 <= peerMaxFrameSize {
            let flags = HTTP2Frame.flagEndHeaders | (endStream ? HTTP2Frame.flagEndStream : 0)
            HTTP2Frame.fillHeader(at: headerStart, type: HTTP2Frame.typeHeaders, flags: flags, stream: stream, in: &output)
        } else {
            let block = Array(output[(headerStart + 9)...])
            output.removeSubrange(headerStart...)
            writeHeaderBlock(block, stream: stream, endStream: endStream)
        }
        if endStream {
            finishStream(stream)
            return
        }
        let now = TimerQueue<Never>.now
        withStream(stream) { s in
            s.pendingData = response.body
            s.pendingOffset = 0
            s.state = .sending
            s.lastSendProgress = now
        }
        sendQueue.append(stream)
        sendPendingData()
    }

    /// Whether a field name starting with `byte` may be one `writeResponse(_:stream:)` drops
    /// or notes: c, k, p, t or u (one bit each in a mask over a–z).
    static func mayBeFramingName(startingWith byte: UInt8) -> Bool {
        let letter = byte &- UInt8(ascii: "a")
        let initials: UInt32 = 1 << 2 | 1 << 10 | 1 << 15 | 1 << 19 | 1 << 20  // c k p t u
        return letter < 26 && (initials >> UInt32(letter)) & 1 != 0
    }

    /// The answer is written in full: the stream closes, unless the client is still sending
    /// a body that was over the limit (then it closes at that body's END_STREAM).
    mutating func finishStream(_ stream: UInt32) {
        // One lookup for the flag and the removal (`streams[stream]?.discardingBody` copied
        // the whole stream to read one flag).
        guard let slot = streams.index(forKey: stream) else { return }
        let discarding = withStream(at: slot) { s -> Bool in
            if s.discardingBody { s.answered = true }
            return s.discardingBody
        }
        if !discarding { closeStream(at: slot) }
    }

    /// HEADERS then as many CONTINUATION frames as the peer's SETTINGS_MAX_FRAME_SIZE needs.
    mutating func writeHeaderBlock(_ block: [UInt8], stream: UInt32, endStream: Bool) {
        let size = peerMaxFrameSize
        if block.count <= size {
            write(HTTP2Frame(stream: stream, payload: .headers(block: block, endStream: endStream, endHeaders: true, priority: nil, padding: nil)))
            return
        }
        write(HTTP2Frame(stream: stream, payload: .headers(block: Array(block[0..<size]), endStream: endStream, endHeaders: false, priority: nil, padding: nil)))
        var offset = size
        while offset < block.count {
            let end = min(offset + size, block.count)
            write(HTTP2Frame(stream: stream, payload: .continuation(block: Array(block[offset..<end]), endHeaders: end == block.count)))
            offset = end
        }
    }

    /// Sends queued DATA, stream by stream in queue order, never beyond either window.
    mutating func sendPendingData() {
        guard phase != .closed else { return }
        var index = 0
        while index < sendQueue.count && connectionSendWindow > 0 {
            let id = sendQueue[index]
            let limit = connectionSendWindow
            let maxFrame = peerMaxFrameSize
            var chunks: [(data: [UInt8], end: Bool)] = []
            let finished = withStream(id) { s -> Bool in
                var budget = min(limit, s.sendWindow)
                while budget > 0 && s.pendingOffset < s.pendingData.count {
                    let count = min(budget, maxFrame, s.pendingData.count - s.pendingOffset)
                    let end = s.pendingOffset + count
                    chunks.append((Array(s.pendingData[s.pendingOffset..<end]), end == s.pendingData.count))
                    s.pendingOffset = end
                    s.sendWindow -= count
                    budget -= count
                }
                return s.pendingOffset >= s.pendingData.count
            } ?? true
            if !chunks.isEmpty { streams[id]?.lastSendProgress = TimerQueue<Never>.now }
            for chunk in chunks {
                connectionSendWindow -= chunk.data.count
                write(HTTP2Frame(stream: id, payload: .data(chunk.data, endStream: chunk.end, padding: nil)))
            }
            if finished {
                sendQueue.remove(at: index)
                finishStream(id)
            } else {
                index += 1
            }
        }
        finishIfDrained()
    }

    /// Response DATA queued behind flow control, not yet sent.
    package var queuedResponseBytes: Int {
        sendQueue.reduce(0) { total, id in
            guard let s = streams[id] else { return total }
            return total + s.pendingData.count - s.pendingOffset
        }
    }

    /// When the longest-stalled queued response last made progress; nil when no response
    /// waits for flow-control window.
    package var oldestStalledSend: UInt64? {
        var oldest: UInt64?
        for id in sendQueue {
            guard let progress = streams[id]?.lastSendProgress else { continue }
            if oldest.map({ progress < $0 }) ?? true { oldest = progress }
        }
        return oldest
    }

    /// The send deadline: every stream whose queued response made no progress since
    /// `cutoff` (the peer gave it no window) is reset with CANCEL and its buffers dropped,
    /// as nginx does after `send_timeout`. The connection stays open for other streams.
    package mutating func resetStalledSends(madeNoProgressSince cutoff: UInt64, into actions: inout [ConnectionAction]) {
        guard phase != .closed else { return }
        let stalled = sendQueue.filter { (streams[$0]?.lastSendProgress ?? 0) <= cutoff }
        for id in stalled { resetStream(id, .cancel) }
        finishIfDrained()
        flush(into: &actions)
    }
}
