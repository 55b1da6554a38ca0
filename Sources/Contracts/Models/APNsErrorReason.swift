/// Every reason APNs gives in an error response, with its HTTP status. Raw values are the
/// exact strings APNs sends.
///
/// Where Apple's documentation and the wire disagree, the raw value is what APNs returns and
/// the documented spelling decodes too: Apple's "Handling notification responses from APNs"
/// lists `BadEnvironmentKeyIdInToken`, but senders (APNSwift since October 2025, Firebase's
/// `third-party-auth-error` reports, provider logs) receive `BadEnvironmentKeyInToken`.
/// ``documentedName`` gives the docs' spelling.
///
/// This file is the one table of APNs reasons in the package: the strings, their statuses,
/// Apple's meaning and how the fake APNs server produces each. FakeAPNs, the contracts, the
/// docs and the reason-table tests all read it; nothing else spells a reason string.
public enum APNsErrorReason: String, Sendable, Hashable, Codable, CaseIterable {
    // MARK: 400
    case badCollapseId = "BadCollapseId"
    case badDeviceToken = "BadDeviceToken"
    case badExpirationDate = "BadExpirationDate"
    case badMessageId = "BadMessageId"
    case badPriority = "BadPriority"
    case badTopic = "BadTopic"
    case deviceTokenNotForTopic = "DeviceTokenNotForTopic"
    case duplicateHeaders = "DuplicateHeaders"
    case idleTimeout = "IdleTimeout"
    case invalidPushType = "InvalidPushType"
    case missingDeviceToken = "MissingDeviceToken"
    case missingTopic = "MissingTopic"
    case payloadEmpty = "PayloadEmpty"
    case topicDisallowed = "TopicDisallowed"
    // MARK: 403
    case badCertificate = "BadCertificate"
    case badCertificateEnvironment = "BadCertificateEnvironment"
    case expiredProviderToken = "ExpiredProviderToken"
    case forbidden = "Forbidden"
    case invalidProviderToken = "InvalidProviderToken"
    case missingProviderToken = "MissingProviderToken"
    case unrelatedKeyIdInToken = "UnrelatedKeyIdInToken"
    /// APNs returns `BadEnvironmentKeyInToken`; Apple's table spells it
    /// `BadEnvironmentKeyIdInToken`, which decodes to this case too.
    case badEnvironmentKeyInToken = "BadEnvironmentKeyInToken"
    // MARK: 404, 405
    case badPath = "BadPath"
    case methodNotAllowed = "MethodNotAllowed"
    // MARK: 410
    case expiredToken = "ExpiredToken"
    case unregistered = "Unregistered"
    // MARK: 413, 429
    case payloadTooLarge = "PayloadTooLarge"
    case tooManyProviderTokenUpdates = "TooManyProviderTokenUpdates"
    case tooManyRequests = "TooManyRequests"
    // MARK: 5xx
    case internalServerError = "InternalServerError"
    case serviceUnavailable = "ServiceUnavailable"
    case shutdown = "Shutdown"

    /// How the fake APNs server comes to answer with a reason.
    public enum FakeSource: String, Sendable, Hashable, CaseIterable {
        /// The fake's request validation answers with it when a request breaks Apple's rule.
        case validation
        /// Only a scripted fault (`APNsFault.reason(…)`, `goAway(reason:)` or the admin API)
        /// produces it: the fake has no certificates, no idle GOAWAY, no expiring tokens and
        /// no outages of its own.
        case scriptedFaultOnly
    }

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

    /// Whether the fake APNs server's validation produces this reason, or only a scripted fault.
    public var fakeSource: FakeSource { row.source }

    /// True for the 410 reasons, whose responses carry a `timestamp`.
    public var carriesTimestamp: Bool { status == 410 }

    /// The table: one row per reason.
    private var row: (status: Int, summary: String, source: FakeSource) {
        switch self {
        case .badCollapseId: (400, "The `apns-collapse-id` is longer than 64 bytes.", .validation)
        case .badDeviceToken: (400, "The device token is malformed, unknown, or of the other environment.", .validation)
        case .badExpirationDate: (400, "`apns-expiration` is not a non-negative integer.", .validation)
        case .badMessageId: (400, "`apns-id` is not a UUID (8-4-4-4-12 hex digits).", .validation)
        case .badPriority: (400, "`apns-priority` is not 10, 5 or 1, or is 10 on a background push.", .validation)
        case .badTopic: (400, "`apns-topic` is malformed or does not fit the push type.", .validation)
        case .deviceTokenNotForTopic: (400, "The device token is not registered for this topic.", .validation)
        case .duplicateHeaders: (400, "A header APNs reads once was sent more than once.", .validation)
        case .idleTimeout: (400, "The connection was idle too long (APNs sends it in a GOAWAY).", .scriptedFaultOnly)
        case .invalidPushType: (400, "`apns-push-type` is not one APNs knows.", .validation)
        case .missingDeviceToken: (400, "The path has no device token after `/3/device/`.", .validation)
        case .missingTopic: (400, "`apns-topic` is missing (it is required with token authentication).", .validation)
        case .payloadEmpty: (400, "The request has no payload.", .validation)
        case .topicDisallowed: (400, "Pushes to this topic are not allowed.", .validation)
        case .badCertificate: (403, "The client certificate is invalid (certificate authentication only).", .scriptedFaultOnly)
        case .badCertificateEnvironment: (403, "The client certificate is for the other environment.", .scriptedFaultOnly)
        case .expiredProviderToken: (403, "The provider token is older than an hour; mint a new one.", .validation)
        case .forbidden: (403, "The action is not allowed.", .scriptedFaultOnly)
        case .invalidProviderToken: (403, "The provider token is malformed, its key unknown or its signature wrong.", .validation)
        case .missingProviderToken: (403, "No `authorization: bearer <token>` header.", .validation)
        case .unrelatedKeyIdInToken: (403, "The token's team differs from the connection's first token.", .validation)
        case .badEnvironmentKeyInToken: (403, "The token's key is for the other environment.", .validation)
        case .badPath: (404, "The path is not `/3/device/<token>`.", .validation)
        case .methodNotAllowed: (405, "The method is not POST.", .validation)
        case .expiredToken: (410, "The device token has expired.", .scriptedFaultOnly)
        case .unregistered: (410, "The device token is no longer active for the topic (the body carries a timestamp).", .validation)
        case .payloadTooLarge: (413, "The payload exceeds 4096 bytes (5120 for VoIP).", .validation)
        case .tooManyProviderTokenUpdates: (429, "The provider token was replaced too often (within 20 minutes).", .validation)
        case .tooManyRequests: (429, "Too many requests to the same device token.", .validation)
        case .internalServerError: (500, "An internal server error.", .scriptedFaultOnly)
        case .serviceUnavailable: (503, "The service is unavailable.", .scriptedFaultOnly)
        case .shutdown: (503, "The APNs server is shutting down.", .scriptedFaultOnly)
        }
    }
}
