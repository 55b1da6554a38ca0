/// Streamed response bodies (``ResponseDisposition/stream(_:)``, ``ResponseStream``) as the
/// loop writes them: the head at once, then the producer's chunks whenever the connection
/// holds less than ``ResponseStream/connectionLowWater`` unwritten bytes, so what one
/// stream can hold is its own capacity plus that much (charged to the held-output budget).
extension ServerLoop {
    /// Starts writing `body` as the answer to `stream`; HTTP/2 (or a connection already
    /// closing) gets a 505 naming HTTP/1.1 instead and the stream ends as refused.
    func startStream(_ body: ResponseStream, head: HTTPResponse, stream: UInt32, on connection: ServerConnection,
                     into actions: inout [ConnectionAction]) {
        guard case .http1(let box) = connection.codec, !connection.closeWhenFlushed, !stopping,
              connection.responseStream == nil else {
            body.end(stopping ? .serverStopped : .refused)
            let refusal = HTTPResponse(
                status: HTTPStatus(code: 505), headers: ["content-type": "text/plain; charset=utf-8"],
                body: Array("This response is a stream, served over HTTP/1.1 only; connect with HTTP/1.1.\n".utf8))
            connection.deliver(refusal, stream: stream, into: &actions)
            return
        }
        var headBytes: [UInt8] = []
        let framing = box.codec.startStream(head, stream: stream, writingTo: &headBytes)
        let start = actions.count
        actions.append(.write(headBytes))
        connection.tls?.protect(&actions, from: start)
        guard let framing else {
            // HEAD, 204 or 304: the head alone; no body follows.
            body.end(.finished)
            connection.deliver(HTTPResponse(status: .ok, disposition: .loseResponse), stream: stream, into: &actions)
            return
        }
        connection.responseStream = StreamedBody(body: body, stream: stream, framing: framing)
        let control = control, fd = connection.fd, id = connection.id
        body.attach { control.send(.pumpStream(fd: fd, id: id)) }
        // The run() that applied this response flushes the connection next, which pumps.
    }

    /// Moves what the producer offered into the connection's output (framed), and ends the
    /// response once the producer finished. False when the connection is gone.
    func pumpStream(_ connection: ServerConnection) -> Bool {
        guard let streaming = connection.responseStream, streaming.body.hasWork else { return true }
        let (chunks, finished) = streaming.body.take()
        enqueueStreamBytes(chunks, last: finished, of: streaming, on: connection)
        guard finished else { return true }
        streaming.body.end(.finished)
        return endStream(connection)
    }

    /// The server stops: what was offered goes out with the last chunk, the producer learns
    /// it (``ResponseStream/Ending/serverStopped``), and the connection closes now rather
    /// than after the grace period.
    func endStreamForStop(_ connection: ServerConnection) {
        guard let streaming = connection.responseStream else { return }
        let (chunks, _) = streaming.body.take()
        streaming.body.end(.serverStopped)
        enqueueStreamBytes(chunks, last: true, of: streaming, on: connection)
        guard endStream(connection) else { return }
        flushAndSettle(connection)
    }

    /// Frames `chunks` (and the last chunk when `last`), seals them when the connection has
    /// TLS, and appends them to its output.
    private func enqueueStreamBytes(_ chunks: [[UInt8]], last: Bool, of streaming: StreamedBody, on connection: ServerConnection) {
        var bytes: [UInt8] = []
        switch streaming.framing {
        case .chunked:
            for chunk in chunks { HTTP1ResponseWriter.appendChunk(chunk, to: &bytes) }
            if last { bytes.append(contentsOf: HTTP1ResponseWriter.lastChunk) }
        case .closeDelimited:
            for chunk in chunks { bytes.append(contentsOf: chunk) }
        }
        guard !bytes.isEmpty else { return }
        var actions: [ConnectionAction] = [.write(bytes)]
        connection.tls?.protect(&actions, from: 0)
        for case .write(let sealed) in actions { connection.enqueue(sealed) }
    }

    /// The body is complete: the codec ends the request and the connection closes once its
    /// output is written. False when the connection is gone.
    private func endStream(_ connection: ServerConnection) -> Bool {
        guard let streaming = connection.responseStream else { return true }
        connection.responseStream = nil
        var actions: [ConnectionAction] = []
        connection.deliver(HTTPResponse(status: .ok, disposition: .loseResponse), stream: streaming.stream, into: &actions)
        for action in actions {
            switch action {
            case .write(let bytes):
                connection.enqueue(bytes)
            case .close:
                if case .open(let peerClosed) = connection.lifecycle {
                    connection.lifecycle = .closing(peerClosed: peerClosed, discarded: 0)
                }
            case .reset:
                destroy(connection, reset: true)
                return false
            case .dispatch:
                break  // the codec dispatches nothing once it closes
            }
        }
        return true
    }
}

/// The streamed body a connection is writing.
struct StreamedBody {
    let body: ResponseStream
    /// The request it answers.
    let stream: UInt32
    let framing: HTTP1Codec.StreamFraming
}
