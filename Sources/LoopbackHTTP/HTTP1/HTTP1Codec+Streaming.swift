/// A streamed response (``ResponseDisposition/stream(_:)``) as the HTTP/1.1 codec sees it:
/// the head goes out at once, the request stays in flight until the stream ends, and the
/// connection closes afterwards (input arriving meanwhile is dropped, as for any response
/// that closes).
extension HTTP1Codec {
    /// How a streamed body is framed on the wire.
    package enum StreamFraming: Sendable, Hashable {
        /// HTTP/1.1: chunks, then the last chunk.
        case chunked
        /// HTTP/1.0: the bytes as they are; the close ends the body.
        case closeDelimited
    }

    /// Appends the head of the streamed answer to `stream` to `output` and keeps the request
    /// in flight, closing after it. Nil when `stream` is not the request awaited, or when no
    /// body may follow (HEAD, 204, 304): then the head alone was written, and the caller
    /// ends the response as ``abandon(stream:disposition:into:)`` does.
    package mutating func startStream(_ response: HTTPResponse, stream: UInt32, writingTo output: inout [UInt8]) -> StreamFraming? {
        guard case .awaitingResponse(var flight) = state, flight.stream == stream else { return nil }
        flight.afterResponse = .close
        state = .awaitingResponse(flight)
        let chunked = flight.minorVersion >= 1
        HTTP1ResponseWriter.serializeStreamHead(response, chunked: chunked, into: &output)
        let code = response.status.code
        if flight.isHead || code == 204 || code == 304 { return nil }
        return chunked ? .chunked : .closeDelimited
    }
}
