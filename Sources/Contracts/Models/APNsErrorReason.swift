/// Every reason APNs gives in an error response, with its HTTP status. Raw values are the
/// exact strings APNs sends.
///
/// Where Apple's documentation and the wire disagree, the raw value is what APNs returns and
/// the documented spelling decodes too: Apple's "Handling notification responses from APNs"
/// lists `BadEnvironmentKeyIdInToken`, but senders (APNSwift since October 2025, Firebase's
/// `third-party-auth-error` reports, provider logs) receive `BadEnvironmentKeyInToken`.
/// ``documentedName`` gives the docs' spelling.
///
/// This file is the one table of APNs reasons in the package: the strings, their statuses and
/// Apple's meaning. FakeAPNs, the contracts, the docs and the reason-table tests all read it;
/// nothing else spells a reason string.
public enum APNsErrorReason: String, Sendable, Hashable, Codable, CaseIterable {
    // MARK: 400
    /// 400: the `apns-collapse-id` header is over 64 bytes.
    case badCollapseId = "BadCollapseId"
    /// 400: the device token is malformed, or belongs to the other environment.
    case badDeviceToken = "BadDeviceToken"
    /// 400: the `apns-expiration` header is not a valid value.
    case badExpirationDate = "BadExpirationDate"
    /// 400: the `apns-id` header is not a UUID.
    case badMessageId = "BadMessageId"
    /// 400: the `apns-priority` header is not 1, 5 or 10.
    case badPriority = "BadPriority"
    /// 400: the `apns-topic` header is not valid.
    case badTopic = "BadTopic"
    /// 400: the device token does not belong to the topic.
    case deviceTokenNotForTopic = "DeviceTokenNotForTopic"
    /// 400: a header was sent more than once.
    case duplicateHeaders = "DuplicateHeaders"
    /// 400: the connection was idle too long.
    case idleTimeout = "IdleTimeout"
    /// 400: the `apns-push-type` header is not a known type.
    case invalidPushType = "InvalidPushType"
    /// 400: the path has no device token.
    case missingDeviceToken = "MissingDeviceToken"
    /// 400: no `apns-topic` header, and the topic could not be inferred.
    case missingTopic = "MissingTopic"
    /// 400: the body is empty.
    case payloadEmpty = "PayloadEmpty"
    /// 400: pushing to this topic is not allowed.
    case topicDisallowed = "TopicDisallowed"
    // MARK: 400, broadcast push and channel management (Apple, iOS 18)
    /// 400: the `apns-channel-id` header is not a channel id (not base64).
    case badChannelId = "BadChannelId"
    /// 400: a channel request's parameters are wrong (an unknown member, a `message-storage-policy` other than 0 or 1, a non-zero `apns-expiration` on a channel without storage).
    case badRequestParams = "BadRequestParams"
    /// 400: a channel or broadcast body is not a JSON object, or a broadcast tries to start an activity.
    case badRequestPayload = "BadRequestPayload"
    /// 400: the environment has its 10,000 channels already.
    case cannotCreateChannelConfig = "CannotCreateChannelConfig"
    /// 400: the app has no broadcast capability.
    case featureNotEnabled = "FeatureNotEnabled"
    /// 400: no `apns-channel-id` header.
    case missingChannelId = "MissingChannelId"
    /// 400: no `push-type` member (channel creation) or `apns-push-type` header (broadcast).
    case missingPushType = "MissingPushType"
    /// 400: the topic (`apns-topic` or the certificate's) names another app than the path's bundle id.
    case topicMismatch = "TopicMismatch"
    // MARK: 403
    /// 403: the client certificate is not valid.
    case badCertificate = "BadCertificate"
    /// 403: the client certificate is for the other environment.
    case badCertificateEnvironment = "BadCertificateEnvironment"
    /// 403: the provider token is older than an hour.
    case expiredProviderToken = "ExpiredProviderToken"
    /// 403: the action is not allowed.
    case forbidden = "Forbidden"
    /// 403: the provider token is not valid, or its signature does not verify.
    case invalidProviderToken = "InvalidProviderToken"
    /// 403: no provider token and no client certificate.
    case missingProviderToken = "MissingProviderToken"
    /// 403: the token's key id does not belong to the topic's team.
    case unrelatedKeyIdInToken = "UnrelatedKeyIdInToken"
    /// APNs returns `BadEnvironmentKeyInToken`; Apple's table spells it
    /// `BadEnvironmentKeyIdInToken`, which decodes to this case too.
    case badEnvironmentKeyInToken = "BadEnvironmentKeyInToken"
    // MARK: 404, 405
    /// 404: the request path is not `/3/device/<token>`.
    case badPath = "BadPath"
    /// 405: the method is not `POST`.
    case methodNotAllowed = "MethodNotAllowed"
    /// Broadcast: the channel does not exist (in this environment, for this bundle id).
    case channelNotRegistered = "ChannelNotRegistered"
    // MARK: 410
    /// 410: the device token has expired.
    case expiredToken = "ExpiredToken"
    /// 410: the device token is no longer active for the topic; the body carries the time it stopped.
    case unregistered = "Unregistered"
    // MARK: 413, 429
    /// 413: the payload is larger than the push type allows.
    case payloadTooLarge = "PayloadTooLarge"
    /// 429: the provider token was changed too often.
    case tooManyProviderTokenUpdates = "TooManyProviderTokenUpdates"
    /// 429: too many requests to the same device token.
    case tooManyRequests = "TooManyRequests"
    // MARK: 5xx
    /// 500: an internal server error.
    case internalServerError = "InternalServerError"
    /// 503: the service is unavailable.
    case serviceUnavailable = "ServiceUnavailable"
    /// 503: the APNs server is shutting down.
    case shutdown = "Shutdown"

    /// Reads what APNs sends, or the spelling in Apple's documentation where it differs.
    public init?(rawValue: String) {
        if let reason = Self.byName[rawValue] {
            self = reason
        } else {
            return nil
        }
    }

    /// The spelling in Apple's table of reasons, where it differs from what APNs sends.
    public var documentedName: String {
        self == .badEnvironmentKeyInToken ? "BadEnvironmentKeyIdInToken" : rawValue
    }

    /// Every spelling that decodes: each raw value and each differing documented name.
    public static let allSpellings: [String] = allCases.flatMap { reason in
        reason.documentedName == reason.rawValue ? [reason.rawValue] : [reason.rawValue, reason.documentedName]
    }

    /// Renamed: the spelling APNs returns is ``badEnvironmentKeyInToken``.
    @available(*, deprecated, renamed: "badEnvironmentKeyInToken")
    public static var badEnvironmentKeyIdInToken: APNsErrorReason { .badEnvironmentKeyInToken }

    private static let byName: [String: APNsErrorReason] = {
        var names: [String: APNsErrorReason] = [:]
        for reason in allCases {
            names[reason.rawValue] = reason
            names[reason.documentedName] = reason
        }
        return names
    }()

    /// The HTTP status APNs answers with this reason.
    public var status: Int { row.status }

    /// What the reason means, after Apple's "Handling notification responses from APNs".
    public var summary: String { row.summary }

    /// True for the 410 reasons, whose responses carry a `timestamp`.
    public var carriesTimestamp: Bool { status == 410 }

    /// The table: one row per reason.
    private var row: (status: Int, summary: String) {
        switch self {
        case .badCollapseId: (400, "The `apns-collapse-id` is longer than 64 bytes.")
        case .badDeviceToken: (400, "The device token is malformed, unknown, or of the other environment.")
        case .badExpirationDate: (400, "`apns-expiration` is not a non-negative integer.")
        case .badMessageId: (400, "`apns-id` is not a UUID (8-4-4-4-12 hex digits).")
        case .badPriority: (400, "`apns-priority` is not 10, 5 or 1, or is 10 on a background push.")
        case .badTopic: (400, "`apns-topic` is malformed or does not fit the push type.")
        case .deviceTokenNotForTopic: (400, "The device token is not registered for this topic.")
        case .duplicateHeaders: (400, "A header APNs reads once was sent more than once.")
        case .idleTimeout: (400, "The connection was idle too long (APNs sends it in a GOAWAY).")
        case .invalidPushType: (400, "`apns-push-type` is not one APNs knows.")
        case .missingDeviceToken: (400, "The path has no device token after `/3/device/`.")
        case .missingTopic: (400, "`apns-topic` is missing (it is required with token authentication).")
        case .payloadEmpty: (400, "The request has no payload.")
        case .topicDisallowed: (400, "Pushes to this topic are not allowed.")
        case .badChannelId: (400, "`apns-channel-id` is not a channel id APNs issues (base64).")
        case .badRequestParams: (400, "A channel request's parameters are wrong (e.g. `message-storage-policy`, or an expiration on a channel that stores nothing).")
        case .badRequestPayload: (400, "A channel or broadcast body is not what the API takes (not a JSON object, or a broadcast `start`).")
        case .cannotCreateChannelConfig: (400, "The app already has 10,000 channels in this environment.")
        case .featureNotEnabled: (400, "Broadcast push is not enabled for this bundle id.")
        case .missingChannelId: (400, "`apns-channel-id` is missing.")
        case .missingPushType: (400, "`apns-push-type` (broadcast) or `push-type` (channel body) is missing.")
        case .topicMismatch: (400, "`apns-topic` or the certificate's topic is not the bundle id in the path.")
        case .badCertificate: (403, "The client certificate is invalid (certificate authentication only).")
        case .badCertificateEnvironment: (403, "The client certificate is for the other environment.")
        case .expiredProviderToken: (403, "The provider token is older than an hour; mint a new one.")
        case .forbidden: (403, "The action is not allowed.")
        case .invalidProviderToken: (403, "The provider token is malformed, its key unknown or its signature wrong.")
        case .missingProviderToken: (403, "No `authorization: bearer <token>` header.")
        case .unrelatedKeyIdInToken: (403, "The token's team differs from the connection's first token.")
        case .badEnvironmentKeyInToken: (403, "The token's key is for the other environment.")
        case .badPath: (404, "The path is not `/3/device/<token>`.")
        case .methodNotAllowed: (405, "The method is not POST.")
        case .channelNotRegistered: (404, "The channel does not exist in this environment for this bundle id.")
        case .expiredToken: (410, "The device token has expired.")
        case .unregistered: (410, "The device token is no longer active for the topic (the body carries a timestamp).")
        case .payloadTooLarge: (413, "The payload exceeds 4096 bytes (5120 for VoIP).")
        case .tooManyProviderTokenUpdates: (429, "The provider token was replaced too often (within 20 minutes).")
        case .tooManyRequests: (429, "Too many requests to the same device token.")
        case .internalServerError: (500, "An internal server error.")
        case .serviceUnavailable: (503, "The service is unavailable.")
        case .shutdown: (503, "The APNs server is shutting down.")
        }
    }
}
