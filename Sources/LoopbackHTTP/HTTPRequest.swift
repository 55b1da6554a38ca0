/// The protocol that carried a request. A fake rarely needs it; the journal records it.
package enum HTTPProtocolVersion: String, Sendable, Hashable {
    case http1_1 = "HTTP/1.1"
    case http2 = "HTTP/2"
}

/// A complete request, body read whole, as a fake's handler sees it.
///
/// The same value arrives whether HTTP/1.1 or HTTP/2 carried it; for HTTP/2 the
/// pseudo-headers become `method`, `path` and `authority` and are not in `headers`.
package struct HTTPRequest: Sendable, Hashable {
    package var method: String
    /// The request target as sent: path and optional query, e.g. `/v1/devices/ab12?x=1`.
    package var path: String
    /// `Host` (HTTP/1.1) or `:authority` (HTTP/2), if sent.
    package var authority: String?
    package var headers: HTTPFields
    package var body: [UInt8]
    package var version: HTTPProtocolVersion
    /// Identifies the connection within its server, so per-connection rules
    /// (e.g. APNs provider-token refresh) can be applied. Stable for the connection's life.
    package var connectionID: UInt64
    /// The body was larger than the server's `maxBodyBytes`: `body` is empty and the rest of
    /// the upload is discarded (HTTP/1.1: the connection closes after the answer; HTTP/2:
    /// the stream is reset with NO_ERROR after it). Only a server configured with
    /// `dispatchesOversizedRequests` hands such a request to its handler; the handler
    /// answers it, e.g. 413 with its own body.
    package var bodyLimitExceeded: Bool
    /// The host name the client sent in TLS server_name (SNI), on a TLS connection that
    /// sent one; nil on plain connections.
    package var tlsServerName: String? = nil
    /// The certificate the TLS client presented and proved (its CertificateVerify checked),
    /// when the server asked for one (``TLSServerIdentity/clientAuthentication``); nil on
    /// plain connections and for a client that sent none. Whether it chains to a trusted CA
    /// is ``TLSClientCertificate/trust``.
    package var tlsClientCertificate: TLSClientCertificate? = nil
    /// The HTTP/2 stream that carried the request; nil for HTTP/1.1.
    package var streamID: UInt32? = nil

    /// The path without its query string.
    package var pathWithoutQuery: Substring {
        if let q = path.firstIndex(of: "?") { return path[..<q] }
        return path[...]
    }
}

extension HTTPRequest {
    /// Written here, in an extension, so that it delegates to the memberwise initializer the
    /// compiler then keeps: one written in the type builds `self` in a variable it returns by
    /// copy, and the optimizer left that copy (every field retained and released again, per
    /// request) in place.
    package init(
        method: String,
        path: String,
        authority: String? = nil,
        headers: HTTPFields = HTTPFields(),
        body: [UInt8] = [],
        version: HTTPProtocolVersion = .http1_1,
        connectionID: UInt64 = 0,
        bodyLimitExceeded: Bool = false
    ) {
        self.init(
            method: method, path: path, authority: authority, headers: headers, body: body, version: version,
            connectionID: connectionID, bodyLimitExceeded: bodyLimitExceeded, tlsServerName: nil, tlsClientCertificate: nil,
            streamID: nil)
    }
}
