/// How an ``HTTPServer`` listens, and the limits it enforces on every connection.
///
/// The defaults are safe for tests: loopback only, a free port, bounded headers and
/// bodies, and timeouts so a stuck client cannot hold a fake forever.
package struct HTTPServerConfiguration: Sendable, Hashable {
    /// The address to bind. Loopback by default; any other address (e.g. `"0.0.0.0"`)
    /// must be set here explicitly. A `:` in the value means IPv6 (e.g. `"::1"`).
    package var host: String = "127.0.0.1"
    /// The port to bind; 0 picks a free one (read it back from ``HTTPServer/port``).
    package var port: UInt16 = 0
    /// The largest request head (request line and header fields, CRLFs included), 8 KiB as
    /// nginx's `large_client_header_buffers` (an APNs JWT is ~200 bytes). Larger: HTTP/1.1
    /// answers 431 and closes; HTTP/2 advertises it as SETTINGS_MAX_HEADER_LIST_SIZE and
    /// answers a larger header list 431 on its stream (the connection stays).
    package var maxHeaderBytes: Int = 8 * 1024
    /// Requests one connection may dispatch per loop turn (fairness): one 64 KiB read can
    /// carry ~2,500 tiny pipelined requests; past this many the rest wait for the next turn,
    /// after the other ready connections have been served.
    package var maxDispatchesPerTurn: Int = 64
    /// The longest request target (HTTP/2 `:path`), 8 KiB as nginx's
    /// `large_client_header_buffers`. Longer: 414 before any handler runs (HTTP/1.1 closes;
    /// HTTP/2 answers on the stream), so a fake never builds, echoes or holds an answer
    /// about a path that long. A head over `maxHeaderBytes` is 431 first.
    package var maxRequestTargetBytes: Int = 8 * 1024
    /// The largest request body. Larger: 413 without buffering the rest (HTTP/1.1 closes
    /// after the answer; HTTP/2 resets the stream after it).
    package var maxBodyBytes: Int = 1024 * 1024
    /// Whether a request whose body exceeds `maxBodyBytes` reaches the handler (marked
    /// ``HTTPRequest/bodyLimitExceeded``, body empty) so it can answer in its own words and
    /// journal it; when false the server answers a plain-text 413 itself.
    package var dispatchesOversizedRequests: Bool = false
    /// Request-body bytes buffered at once across connections and servers: past its limit
    /// new bodies are refused (HTTP/2 RST_STREAM REFUSED_STREAM, HTTP/1.1 503 and close)
    /// rather than buffered. ``RequestBodyBudget/shared`` (64 MiB for the whole process)
    /// unless a test gives a server its own.
    package var requestBodyBudget: RequestBodyBudget = .shared
    /// Response bytes held for peers that do not read, across connections and servers: past
    /// its limit the HTTP/2 streams stalled the longest are reset (RST_STREAM CANCEL), then,
    /// if that is not enough, the connections stalled the longest are closed. ``HeldOutputBudget/shared``
    /// (64 MiB for the whole process) unless a test gives a server its own.
    package var heldOutputBudget: HeldOutputBudget = .shared
    /// Seconds a connection may sit with no request in progress before it is closed.
    package var idleTimeout: Double = 60
    /// Seconds a request may take to arrive in full (head and body) once its first byte
    /// arrived; then HTTP/1.1 answers 408 and closes. Stops slow-header clients.
    package var requestTimeout: Double = 10
    /// At most this many open connections. A client that connects when all are open is
    /// admitted by closing the connection idle the longest (nothing in flight or unwritten);
    /// only when every connection is busy does it wait in the listen backlog, and accepting
    /// resumes as connections close.
    package var maxConnections: Int = 4096
    /// Requests served on one connection before the server ends it gracefully (nginx's
    /// `keepalive_requests`): HTTP/1.1 answers the last with `connection: close`, HTTP/2
    /// sends GOAWAY NO_ERROR naming it and finishes the streams before it. Generous, since
    /// APNs senders keep one connection for hours; it bounds what one connection can cost.
    package var maxRequestsPerConnection: Int = 1_000_000
    /// Seconds `stop()` waits for in-flight responses (including delayed ones) before it
    /// closes connections regardless.
    package var shutdownGracePeriod: Double = 2
    /// Unwritten output above which the server stops reading from a connection until the
    /// peer catches up, so a client that never reads cannot grow memory without bound.
    package var maxPendingOutputBytes: Int = 4 * 1024 * 1024
    /// The kernel interface of the server's event loop; `nil` (the default) takes
    /// `EventPoller.Backend.selected`: `LOOPBACK_POLLER=poll|epoll`, else epoll on Linux and
    /// poll on Darwin. Set it to run one server on a given backend (tests run both).
    package var poller: EventPoller.Backend? = nil
    /// When set, every connection speaks TLS 1.3 presenting this certificate chain and key
    /// (ALPN `h2` and `http/1.1`); nil (the default) serves plain HTTP/1.1 and h2c. Test-only
    /// TLS: see ``TLSServerConnection`` for what it implements.
    package var tls: TLSServerIdentity? = nil
    /// Settings for connections that speak HTTP/2 (h2c with prior knowledge, or `h2` over TLS).
    package var http2: HTTP2Configuration = HTTP2Configuration()

    package init() {}
}
