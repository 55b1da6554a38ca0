/// The HTTP/2 settings a server advertises and the bounds it enforces on connections that
/// speak HTTP/2 (h2c with prior knowledge, or `h2` over TLS); ``HTTPServerConfiguration/http2``.
///
/// Defaults are RFC 9113's where a client relies on them and small elsewhere; every bound
/// exists so that a misbehaving client cannot make an in-process fake use unbounded memory.
/// The limits HTTP/2 shares with HTTP/1.1 (`maxBodyBytes`, `maxHeaderBytes`,
/// `maxRequestTargetBytes`, `maxRequestsPerConnection`, the request-body budget) are the
/// server configuration's own.
package struct HTTP2Configuration: Sendable, Hashable {
    /// Whether the HTTP/2 preface is answered by ``HTTP2Connection``; when false the
    /// server answers it with GOAWAY HTTP_1_1_REQUIRED (an HTTP/1.1-only fake).
    package var enabled: Bool = true
    /// SETTINGS_MAX_CONCURRENT_STREAMS; streams beyond it get RST_STREAM REFUSED_STREAM (a
    /// client may retry them). FakeAPNs raises it to APNs' 1,000.
    package var maxConcurrentStreams: Int = 100
    /// A smaller SETTINGS_MAX_CONCURRENT_STREAMS a new connection starts with, until the
    /// handler answers a response marked ``HTTPResponse/liftsStreamLimit``: then a SETTINGS
    /// frame raises it to `maxConcurrentStreams`. nil: `maxConcurrentStreams` from the start.
    /// It is enforced only once the peer acknowledged the SETTINGS that announced it (RFC 9113
    /// §6.5.3): streams a client opens in the same flight as its preface are served up to
    /// `maxConcurrentStreams`.
    package var startingMaxConcurrentStreams: Int? = nil
    /// Connections whose TLS client presented a certificate skip `startingMaxConcurrentStreams`.
    package var certifiedClientsStartAtFullLimit: Bool = true
    /// A stream opened beyond a limit the peer has acknowledged: nil refuses it alone
    /// (RST_STREAM REFUSED_STREAM); else GOAWAY REFUSED_STREAM with this debug data, naming the
    /// last stream opened before it (those are answered; it and later ones are not processed).
    package var streamLimitViolationDebugData: [UInt8]? = nil
    /// Debug data of the GOAWAY NO_ERROR a connection sends when it drains (server shutdown,
    /// `maxRequestsPerConnection` reached).
    package var drainingDebugData: [UInt8] = []
    /// Debug data of the GOAWAY a connection sends when the idle (or request) timeout fires;
    /// nil: `drainingDebugData`.
    package var idleDebugData: [UInt8]? = nil
    /// Told of every stream limit announced and every GOAWAY sent, per connection.
    package var observer: HTTP2ConnectionObserver? = nil
    /// SETTINGS_INITIAL_WINDOW_SIZE: how much request body a stream may send before it is
    /// acknowledged with WINDOW_UPDATE (done as the body is buffered, up to `maxBodyBytes`).
    package var initialWindowSize: Int = 65_535
    /// The connection's receive window, at least (raised from 65,535 by a WINDOW_UPDATE at
    /// start). Body bytes are credited back only once the request reaches the handler (or
    /// the body is dropped), so it bounds the body bytes one connection can have buffered;
    /// a connection raises it to `maxConcurrentStreams` × (`maxBodyBytes` + 1 KiB) so that
    /// unfinished bodies can never use it all up and stall one another.
    package var connectionWindowSize: Int = 1 << 20
    /// SETTINGS_MAX_FRAME_SIZE (16 KiB, the minimum every peer must accept, … 16 MiB − 1).
    package var maxFrameSize: Int = 16_384
    /// SETTINGS_HEADER_TABLE_SIZE for the peer's encoder (our HPACK decoder's table).
    package var headerTableSize: Int = 4_096
    /// SETTINGS_MAX_HEADER_LIST_SIZE: a larger request header list gets 431; nil uses
    /// ``HTTPServerConfiguration/maxHeaderBytes``.
    package var maxHeaderListSize: Int? = nil
    /// Frames that make no progress (PING, SETTINGS, PRIORITY, empty DATA, unknown types,
    /// client RST_STREAM, WINDOW_UPDATE that releases no DATA) tolerated between two
    /// requests before GOAWAY ENHANCE_YOUR_CALM.
    package var maxControlFramesBetweenRequests: Int = 10_000
    /// Streams that may end without a response (reset by the client, refused, or malformed)
    /// in a burst before GOAWAY ENHANCE_YOUR_CALM: the Rapid Reset bound (CVE-2023-44487).
    package var streamResetBurst: Int = 1000
    /// How fast that allowance comes back, in streams per second.
    package var streamResetsPerSecond: Double = 33
    /// Closed-stream ids remembered so that frames racing our RST_STREAM are ignored.
    package var rememberedResetStreams: Int = 1024

    package init() {}
}

extension HTTP2Configuration {
    static let maxWindow = Int(Int32.max)

    /// The connection window a connection of `server` opens: at least
    /// ``connectionWindowSize``, raised so that every concurrent stream's whole body fits
    /// (the window is credited only as bodies reach the handler, so unfinished bodies could
    /// otherwise use it all up and stall each other). Memory across connections is the
    /// request-body budget's to bound.
    static func connectionWindow(for server: HTTPServerConfiguration) -> Int {
        let settings = server.http2
        let bodyLimit = min(max(0, server.maxBodyBytes), maxWindow - 16_384)
        let streams = max(1, settings.maxConcurrentStreams)
        let floor = min(max(0, settings.connectionWindowSize), maxWindow)
        let allBodies = streams > (maxWindow - floor) / (bodyLimit + 1024) ? maxWindow : streams * (bodyLimit + 1024)
        return min(max(floor, allBodies), maxWindow)
    }
}
