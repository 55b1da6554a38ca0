/// The cases `contract-check sender-check` runs against a sender, in DESIGN's order, each on
/// fresh FakeAPNs state ("Checking a sender in any language").
public enum SenderCheckCase: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Alert pushes answered 200, with `apns-push-type` and `apns-topic`, over HTTP/2,
    /// bodies meeting the payload contract.
    case basic
    /// 50 pushes over at most 2 connections.
    case connectionReuse = "connection-reuse"
    /// One provider token for the case's pushes, no TooManyProviderTokenUpdates.
    case providerTokenReuse = "provider-token-reuse"
    /// 403 ExpiredProviderToken once: a new token, the push resent.
    case expiredProviderToken = "expired-provider-token"
    /// 20 pushes at once on a connection that allows one stream until the first valid token.
    case maxConcurrentStreams = "max-concurrent-streams"
    /// GOAWAY with unanswered streams: reconnect, each push delivered once.
    case goaway
    /// 429 TooManyRequests: back off, deliver later, no tight loop.
    case throttling
    /// 500 and 503: retried with backoff, delivered.
    case serverErrors = "server-errors"
    /// 410 Unregistered with a timestamp: `token-invalid`, nothing more to the token until it
    /// registers again.
    case unregistered
    /// 400 BadDeviceToken: not retried, `token-invalid`.
    case badDeviceToken = "bad-device-token"
    /// 413 PayloadTooLarge: not retried, `failed`.
    case payloadTooLarge = "payload-too-large"
    /// The order tracker's Live Activity, judged by the `order-tracker` scenario's checks.
    case orderTracker = "order-tracker"
    /// With certificate authentication: the certificate is presented, no token needed.
    case certificate

    /// The name `--case` takes.
    public var description: String { rawValue }

    /// The one sentence `--list` prints.
    public var summary: String {
        switch self {
        case .basic:
            "Alert pushes are answered 200: sent over HTTP/2 with apns-push-type and apns-topic, bodies meeting the payload contract."
        case .connectionReuse:
            "50 pushes go over at most 2 connections: APNs treats a connection per push as a denial-of-service attack."
        case .providerTokenReuse:
            "One provider token serves all pushes: a token minted per push gets 429 TooManyProviderTokenUpdates."
        case .expiredProviderToken:
            "After 403 ExpiredProviderToken the sender mints a new token and resends the push."
        case .maxConcurrentStreams:
            "20 pushes at once on a new token connection that allows 1 stream until the first valid token: all delivered, each once."
        case .goaway:
            "After a GOAWAY the sender reconnects and delivers each unanswered push exactly once."
        case .throttling:
            "After 429 TooManyRequests the sender backs off and delivers later, without a tight retry loop."
        case .serverErrors:
            "After 500 InternalServerError and 503 ServiceUnavailable the sender retries with backoff and delivers."
        case .unregistered:
            "After 410 Unregistered the sender answers token-invalid and sends nothing more to the token until it registers again."
        case .badDeviceToken:
            "After 400 BadDeviceToken the sender answers token-invalid and does not retry."
        case .payloadTooLarge:
            "After 413 PayloadTooLarge the sender answers failed and does not retry."
        case .orderTracker:
            "The order tracker's Live Activity: increasing timestamps, 2001-epoch dates, nothing personal, the activity's 160-hex token, the priority-10 budget, nothing after end."
        case .certificate:
            "With --auth certificate: the sender presents its client certificate and needs no provider token."
        }
    }

    /// The case named `name`, or nil.
    public init?(name: String) { self.init(rawValue: name) }
}
