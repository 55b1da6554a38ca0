/// The HTTP/2 settings this server advertises and the bounds it enforces.
///
/// Defaults follow what APNs advertises where that matters to a client (1000 concurrent
/// streams) and RFC 9113's defaults elsewhere. Every bound exists so that a misbehaving
/// client cannot make an in-process fake use unbounded memory.
package struct HTTP2Configuration: Sendable, Hashable {
    /// SETTINGS_MAX_CONCURRENT_STREAMS. APNs allows 1000 streams per connection; streams
    /// beyond this get RST_STREAM REFUSED_STREAM (a client may retry them).
    package var maxConcurrentStreams: Int = 1000
    /// SETTINGS_INITIAL_WINDOW_SIZE: how much request body a stream may send before we
    /// acknowledge it with WINDOW_UPDATE (we do as the body is buffered, up to `maxBodyBytes`).
    package var initialWindowSize: Int = 65_535
    /// The connection-level receive window, raised from 65,535 by a WINDOW_UPDATE at start.
    /// Body bytes are credited back only once the request reaches the handler (or the body
    /// is dropped), so this bounds what one connection can have buffered.
    package var connectionWindowSize: Int = 1 << 20
    /// Shared across connections (and servers): body bytes are reserved from it as they are
    /// buffered; when it is spent a stream's body is refused (RST_STREAM REFUSED_STREAM).
    /// nil: no cross-connection bound (a codec used on its own).
    package var bodyBudget: RequestBodyBudget? = nil
    /// SETTINGS_MAX_FRAME_SIZE (16,384 is the minimum every peer must accept).
    package var maxFrameSize: Int = 16_384
    /// SETTINGS_MAX_HEADER_LIST_SIZE: a larger request header list gets 431.
    package var maxHeaderListSize: Int = 16_384
    /// The longest `:path`; longer gets 414 at the codec (no handler runs).
    package var maxRequestTargetBytes: Int = 8 * 1024
    /// SETTINGS_HEADER_TABLE_SIZE for the peer's encoder (our decoder's table).
    package var headerTableSize: Int = 4096
    /// A request body larger than this gets 413 and the stream is reset.
    package var maxBodyBytes: Int = 1 << 20
    /// Frames that make no progress (PING, SETTINGS, PRIORITY, empty DATA, unknown types,
    /// client RST_STREAM, WINDOW_UPDATE that releases no DATA) tolerated between two requests before GOAWAY ENHANCE_YOUR_CALM.
    package var maxControlFramesBetweenRequests: Int = 10_000
    /// Streams that may end without a response (reset by the client, refused, or malformed)
    /// in a burst before GOAWAY ENHANCE_YOUR_CALM: the Rapid Reset bound (CVE-2023-44487).
    package var streamResetBurst: Int = 1000
    /// How fast that allowance comes back, in streams per second.
    package var streamResetsPerSecond: Double = 33
    /// Requests (streams opened) on one connection; the last one gets GOAWAY NO_ERROR naming
    /// it, the connection finishes its streams and closes, and the client opens another.
    package var maxRequestsPerConnection: Int = 1_000_000
    /// Closed-stream ids remembered so that frames racing our RST_STREAM are ignored.
    package var rememberedResetStreams: Int = 1024

    package init() {}
}

extension HTTP2Configuration {
    static let maxWindow = Int(Int32.max)

    /// The HTTP/2 part of a server's configuration: its `http2` settings plus the
    /// request limits shared with HTTP/1.1 (`maxBodyBytes`, `maxHeaderBytes`).
    package init(_ server: HTTPServerConfiguration) {
        self.init()
        maxConcurrentStreams = server.http2.maxConcurrentStreams
        // Not shrunk to the body limit: a client that sends before reading our SETTINGS
        // (httpx does) would see its stream window go negative, and httpcore 1.0.9 then sends
        // empty DATA frames forever. The body limit bounds what a stream buffers; DATA past it
        // is credited and dropped.
        let bodyLimit = min(max(0, server.maxBodyBytes), Self.maxWindow - 16_384)
        initialWindowSize = server.http2.initialWindowSize
        // Every concurrent stream's whole body fits in the connection window, so unfinished
        // bodies can never use it all up and stall each other (the window is credited only
        // as bodies reach the handler). Memory across connections is the budget's to bound.
        let streams = max(1, server.http2.maxConcurrentStreams)
        let allBodies = streams > (Self.maxWindow - server.http2.connectionWindowSize) / (bodyLimit + 1024)
            ? Self.maxWindow : streams * (bodyLimit + 1024)
        connectionWindowSize = min(max(server.http2.connectionWindowSize, allBodies), Self.maxWindow)
        bodyBudget = server.requestBodyBudget
        maxFrameSize = server.http2.maxFrameSize
        headerTableSize = server.http2.headerTableSize
        maxHeaderListSize = server.http2.maxHeaderListSize ?? server.maxHeaderBytes
        maxBodyBytes = server.maxBodyBytes
        maxRequestTargetBytes = server.maxRequestTargetBytes
        streamResetBurst = server.http2.streamResetBurst
        streamResetsPerSecond = server.http2.streamResetsPerSecond
        maxRequestsPerConnection = server.maxRequestsPerConnection
    }
}

extension HTTP2Connection {
    /// The connection the server creates when a client opens with the HTTP/2 preface.
    package init(configuration: HTTPServerConfiguration, connectionID: UInt64) {
        self.init(configuration: HTTP2Configuration(configuration), connectionID: connectionID)
    }
}
