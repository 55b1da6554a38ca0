/// The protocol spoken on one connection, chosen from its first bytes.
///
/// A connection starts `.sniffing`: if its first 24 bytes are the HTTP/2 client preface
/// (h2c with prior knowledge) it becomes HTTP/2, otherwise HTTP/1.1; the decision is made
/// as soon as a byte differs from the preface, so HTTP/1.1 requests are not delayed.
///
/// HTTP/2 is ``HTTP2Connection``; ``HTTP2PrefaceRefusal`` remains for servers configured
/// without HTTP/2 (`configuration.http2.enabled == false`).
package enum AnyConnectionCodec: ConnectionCodec {
    case sniffing(ProtocolSniffer)
    case http1(HTTP1Codec)
    case http2(HTTP2Connection)
    /// HTTP/2 is disabled: answers the preface with GOAWAY HTTP_1_1_REQUIRED.
    case http2Unavailable(HTTP2PrefaceRefusal)
    /// TLS (the server has an identity); the HTTP codec runs inside it.
    indirect case tls(TLSConnectionCodec)
    /// Only while a case's payload is being mutated in place (avoids copying its buffers).
    case transitioning

    package init(configuration: HTTPServerConfiguration, connectionID: UInt64) {
        if let identity = configuration.tls {
            self = .tls(TLSConnectionCodec(configuration: configuration, identity: identity, connectionID: connectionID))
        } else {
            self = .sniffing(ProtocolSniffer(configuration: configuration, connectionID: connectionID))
        }
    }

    package var activity: ConnectionActivity {
        switch self {
        case .sniffing(let sniffer): return sniffer.buffered.isEmpty ? .idle : .readingRequest
        case .http1(let codec): return codec.activity
        case .http2(let codec): return codec.activity
        case .http2Unavailable(let codec): return codec.activity
        case .tls(let codec): return codec.activity
        case .transitioning: return .idle
        }
    }

    /// Request-body octets buffered and not yet handed to the handler.
    package var bufferedBodyBytes: Int {
        switch self {
        case .http1(let codec): return codec.bufferedBodyBytes
        case .http2(let codec): return codec.bufferedBodyBytes
        case .tls(let codec): return codec.inner?.bufferedBodyBytes ?? 0
        case .sniffing, .http2Unavailable, .transitioning: return 0
        }
    }

    /// HTTP/2 response DATA queued behind flow control (0 for HTTP/1.1).
    package var queuedResponseBytes: Int {
        switch self {
        case .http2(let codec): return codec.queuedResponseBytes
        case .tls(let codec): return codec.inner?.queuedResponseBytes ?? 0
        default: return 0
        }
    }

    /// Octets held in request bodies and (HTTP/2) queued response DATA, roughly: what
    /// dropping this codec frees.
    package var heldBufferBytes: Int {
        switch self {
        case .http2(let codec): return codec.bufferedBodyBytes + codec.queuedResponseBytes
        case .tls(let codec): return codec.inner?.heldBufferBytes ?? 0
        default: return bufferedBodyBytes
        }
    }

    /// HTTP/2: when the longest-stalled queued response last made progress (see
    /// ``HTTP2Connection/oldestStalledSend``); nil for HTTP/1.1, whose unsent output is the shell's.
    package var oldestStalledSend: UInt64? {
        switch self {
        case .http2(let codec): return codec.oldestStalledSend
        case .tls(let codec): return codec.inner?.oldestStalledSend
        default: return nil
        }
    }

    /// HTTP/2: resets the streams whose response made no progress since `cutoff`.
    package mutating func resetStalledSends(madeNoProgressSince cutoff: UInt64, into actions: inout [ConnectionAction]) {
        switch self {
        case .http2(var codec):
            self = .transitioning
            codec.resetStalledSends(madeNoProgressSince: cutoff, into: &actions)
            self = .http2(codec)
        case .tls(var codec):
            self = .transitioning
            codec.resetStalledSends(madeNoProgressSince: cutoff, into: &actions)
            self = .tls(codec)
        default:
            break
        }
    }

    /// HTTP/2 (also inside TLS): gives every body still buffered back to the process-wide
    /// ``RequestBodyBudget``; the connection is going away.
    package mutating func releaseBufferedBodies() {
        switch self {
        case .http2(var codec):
            self = .transitioning
            codec.releaseBufferedBodies()
            self = .http2(codec)
        case .tls(var codec):
            self = .transitioning
            codec.inner?.releaseBufferedBodies()
            self = .tls(codec)
        default:
            break
        }
    }

    /// Nothing to do while sniffing; the chosen codec is started once the protocol is known.
    package mutating func start(into actions: inout [ConnectionAction]) {
        switch self {
        case .http1(var codec):
            self = .transitioning
            codec.start(into: &actions)
            self = .http1(codec)
        case .http2(var codec):
            self = .transitioning
            codec.start(into: &actions)
            self = .http2(codec)
        case .http2Unavailable(var codec):
            self = .transitioning
            codec.start(into: &actions)
            self = .http2Unavailable(codec)
        case .sniffing, .tls, .transitioning:
            break
        }
    }

    package mutating func receive(_ bytes: UnsafeRawBufferPointer, into actions: inout [ConnectionAction]) {
        // `consume self` moves the payload out instead of copying it (no retain and release
        // of every buffer per call); `self` is set again on every path.
        switch consume self {
        case .sniffing(var sniffer):
            self = .transitioning
            sniffer.buffered.append(contentsOf: bytes)
            guard sniffer.verdict != nil else {
                self = .sniffing(sniffer)
                return
            }
            self = sniffer.makeCodec()
            self.start(into: &actions)
            sniffer.buffered.withUnsafeBytes { self.receive($0, into: &actions) }
        case .http1(var codec):
            self = .transitioning
            codec.receive(bytes, into: &actions)
            self = .http1(codec)
        case .http2(var codec):
            self = .transitioning
            codec.receive(bytes, into: &actions)
            self = .http2(codec)
        case .http2Unavailable(var codec):
            self = .transitioning
            codec.receive(bytes, into: &actions)
            self = .http2Unavailable(codec)
        case .tls(var codec):
            self = .transitioning
            codec.receive(bytes, into: &actions)
            self = .tls(codec)
        case .transitioning:
            self = .transitioning
        }
    }

    package mutating func respond(_ response: HTTPResponse, stream: UInt32, into actions: inout [ConnectionAction]) {
        switch consume self {  // moved, not copied (see receive)
        case .http1(var codec):
            self = .transitioning
            codec.respond(response, stream: stream, into: &actions)
            self = .http1(codec)
        case .http2(var codec):
            self = .transitioning
            codec.respond(response, stream: stream, into: &actions)
            self = .http2(codec)
        case .http2Unavailable(var codec):
            self = .transitioning
            codec.respond(response, stream: stream, into: &actions)
            self = .http2Unavailable(codec)
        case .tls(var codec):
            self = .transitioning
            codec.respond(response, stream: stream, into: &actions)
            self = .tls(codec)
        case .sniffing(let sniffer):
            self = .sniffing(sniffer)
        case .transitioning:
            self = .transitioning
        }
    }

    package mutating func abandon(stream: UInt32, disposition: ResponseDisposition, into actions: inout [ConnectionAction]) {
        switch self {
        case .http1(var codec):
            self = .transitioning
            codec.abandon(stream: stream, disposition: disposition, into: &actions)
            self = .http1(codec)
        case .http2(var codec):
            self = .transitioning
            codec.abandon(stream: stream, disposition: disposition, into: &actions)
            self = .http2(codec)
        case .http2Unavailable(var codec):
            self = .transitioning
            codec.abandon(stream: stream, disposition: disposition, into: &actions)
            self = .http2Unavailable(codec)
        case .tls(var codec):
            self = .transitioning
            codec.abandon(stream: stream, disposition: disposition, into: &actions)
            self = .tls(codec)
        case .sniffing, .transitioning:
            break
        }
    }

    package mutating func peerClosed(into actions: inout [ConnectionAction]) {
        switch self {
        case .sniffing, .transitioning:
            actions.append(.close)
        case .http1(var codec):
            self = .transitioning
            codec.peerClosed(into: &actions)
            self = .http1(codec)
        case .http2(var codec):
            self = .transitioning
            codec.peerClosed(into: &actions)
            self = .http2(codec)
        case .http2Unavailable(var codec):
            self = .transitioning
            codec.peerClosed(into: &actions)
            self = .http2Unavailable(codec)
        case .tls(var codec):
            self = .transitioning
            codec.peerClosed(into: &actions)
            self = .tls(codec)
        }
    }

    package mutating func shutdown(into actions: inout [ConnectionAction]) {
        switch self {
        case .sniffing, .transitioning:
            actions.append(.close)
        case .http1(var codec):
            self = .transitioning
            codec.shutdown(into: &actions)
            self = .http1(codec)
        case .http2(var codec):
            self = .transitioning
            codec.shutdown(into: &actions)
            self = .http2(codec)
        case .http2Unavailable(var codec):
            self = .transitioning
            codec.shutdown(into: &actions)
            self = .http2Unavailable(codec)
        case .tls(var codec):
            self = .transitioning
            codec.shutdown(into: &actions)
            self = .tls(codec)
        }
    }

    /// Delivers a handler's response according to its disposition (`.delay` and `.hang`
    /// are the shell's business and never arrive here; a delayed response arrives as `.send`).
    package mutating func deliver(_ response: HTTPResponse, stream: UInt32, into actions: inout [ConnectionAction]) {
        if case .tls(var codec) = self {
            self = .transitioning
            codec.deliver(response, stream: stream, into: &actions)
            self = .tls(codec)
            return
        }
        switch response.disposition {
        case .send, .delay, .hang:
            respond(response, stream: stream, into: &actions)
        case .goAway:
            if case .http1(var codec) = self {
                // HTTP/1.1 has no GOAWAY: the response is written with `connection: close`.
                self = .transitioning
                codec.respond(response, stream: stream, forceClose: true, into: &actions)
                self = .http1(codec)
            } else {
                abandon(stream: stream, disposition: response.disposition, into: &actions)
            }
        case .reset, .loseResponse:
            abandon(stream: stream, disposition: response.disposition, into: &actions)
        }
    }

    /// The idle or request timeout fired. HTTP/1.1 answers a partial request with 408;
    /// other protocols shut down gracefully.
    package mutating func timedOut(into actions: inout [ConnectionAction]) {
        switch self {
        case .http1(var codec):
            self = .transitioning
            codec.requestTimedOut(into: &actions)
            self = .http1(codec)
        case .tls(var codec):
            self = .transitioning
            codec.timedOut(into: &actions)
            self = .tls(codec)
        default:
            shutdown(into: &actions)
            actions.append(.close)
        }
    }
}

/// Buffers a connection's first bytes until they show which protocol it speaks.
package struct ProtocolSniffer {
    /// The HTTP/2 client connection preface (RFC 9113 §3.4).
    package static let http2Preface: [UInt8] = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)

    package enum Verdict: Equatable { case http1, http2 }

    let configuration: HTTPServerConfiguration
    let connectionID: UInt64
    var buffered: [UInt8] = []

    /// nil while the bytes so far are a proper prefix of the preface.
    package var verdict: Verdict? { Self.verdict(for: buffered) }

    /// The verdict for a connection's first bytes.
    package static func verdict(for bytes: [UInt8]) -> Verdict? {
        for (index, byte) in bytes.prefix(http2Preface.count).enumerated() where http2Preface[index] != byte {
            return .http1
        }
        return bytes.count >= http2Preface.count ? .http2 : nil
    }

    func makeCodec() -> AnyConnectionCodec {
        switch verdict {
        case .http2:
            guard configuration.http2.enabled else { return .http2Unavailable(HTTP2PrefaceRefusal()) }
            return .http2(HTTP2Connection(configuration: configuration, connectionID: connectionID))
        case .http1, nil: return .http1(HTTP1Codec(configuration: configuration, connectionID: connectionID))
        }
    }
}
