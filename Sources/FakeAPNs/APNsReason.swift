/// One of Apple's APNs error answers: the HTTP status and the `reason` string of the JSON body.
///
/// The strings are Apple's, from "Handling notification responses from APNs"; two
/// fake-only reasons (``invalidPayloadJSON`` and ``payloadContractViolation``) cover cases
/// Apple documents no reason for, and say so in their names.
public struct APNsReason: Error, Sendable, Hashable, CustomStringConvertible {
    /// The HTTP status code sent with this reason.
    public var status: Int
    /// The `reason` value of the JSON error body, e.g. `BadDeviceToken`.
    public var reason: String

    /// Any status and reason, e.g. for a scripted fault.
    public init(status: Int, reason: String) {
        self.status = status
        self.reason = reason
    }

    /// "status reason", e.g. `400 BadDeviceToken`.
    public var description: String { "\(status) \(reason)" }

    /// True when APNs counts this answer as an error on the connection (410 is not one).
    public var countsAsConnectionError: Bool { status >= 400 && status != 410 }

    // MARK: 400
    /// The `apns-collapse-id` is longer than 64 bytes.
    public static let badCollapseId = APNsReason(status: 400, reason: "BadCollapseId")
    /// The device token is malformed, unknown, or of the other environment.
    public static let badDeviceToken = APNsReason(status: 400, reason: "BadDeviceToken")
    /// `apns-expiration` is not a non-negative integer.
    public static let badExpirationDate = APNsReason(status: 400, reason: "BadExpirationDate")
    /// `apns-id` is not a UUID (8-4-4-4-12 hex digits).
    public static let badMessageId = APNsReason(status: 400, reason: "BadMessageId")
    /// `apns-priority` is not 10, 5 or 1, or is 10 on a background push.
    public static let badPriority = APNsReason(status: 400, reason: "BadPriority")
    /// `apns-topic` is malformed or does not fit the push type.
    public static let badTopic = APNsReason(status: 400, reason: "BadTopic")
    /// The device token is not registered for this topic.
    public static let deviceTokenNotForTopic = APNsReason(status: 400, reason: "DeviceTokenNotForTopic")
    /// A header APNs reads once was sent more than once.
    public static let duplicateHeaders = APNsReason(status: 400, reason: "DuplicateHeaders")
    /// The connection was idle too long (APNs sends it in a GOAWAY).
    public static let idleTimeout = APNsReason(status: 400, reason: "IdleTimeout")
    /// `apns-push-type` is not one APNs knows.
    public static let invalidPushType = APNsReason(status: 400, reason: "InvalidPushType")
    /// The path has no device token after `/3/device/`.
    public static let missingDeviceToken = APNsReason(status: 400, reason: "MissingDeviceToken")
    /// `apns-topic` is missing (it is required with token authentication).
    public static let missingTopic = APNsReason(status: 400, reason: "MissingTopic")
    /// The request has no payload.
    public static let payloadEmpty = APNsReason(status: 400, reason: "PayloadEmpty")
    /// Pushes to this topic are not allowed (the fake does not serve its bundle id).
    public static let topicDisallowed = APNsReason(status: 400, reason: "TopicDisallowed")
    /// Fake-only: the payload is not a JSON object. Apple documents no reason for this case.
    public static let invalidPayloadJSON = APNsReason(status: 400, reason: "FakeAPNsInvalidPayloadJSON")
    /// Fake-only: the payload breaks the Contracts' `payload` rules and the fake runs in
    /// ``PayloadContractMode/reject`` mode. Real APNs never checks an app's own rules.
    public static let payloadContractViolation = APNsReason(status: 400, reason: "FakeAPNsPayloadContractViolation")

    // MARK: 403
    /// The client certificate is invalid (certificate authentication only).
    public static let badCertificate = APNsReason(status: 403, reason: "BadCertificate")
    /// The client certificate is for the other environment.
    public static let badCertificateEnvironment = APNsReason(status: 403, reason: "BadCertificateEnvironment")
    /// The provider token is older than an hour; mint a new one.
    public static let expiredProviderToken = APNsReason(status: 403, reason: "ExpiredProviderToken")
    /// The action is not allowed.
    public static let forbidden = APNsReason(status: 403, reason: "Forbidden")
    /// The provider token is malformed, its key unknown or its signature wrong.
    public static let invalidProviderToken = APNsReason(status: 403, reason: "InvalidProviderToken")
    /// No `authorization: bearer <token>` header.
    public static let missingProviderToken = APNsReason(status: 403, reason: "MissingProviderToken")
    /// The token's team differs from the connection's first token.
    public static let unrelatedKeyIdInToken = APNsReason(status: 403, reason: "UnrelatedKeyIdInToken")
    /// The token's key is for the other environment.
    public static let badEnvironmentKeyIdInToken = APNsReason(status: 403, reason: "BadEnvironmentKeyIdInToken")

    // MARK: 404, 405
    /// The path is not `/3/device/<token>`.
    public static let badPath = APNsReason(status: 404, reason: "BadPath")
    /// The method is not POST.
    public static let methodNotAllowed = APNsReason(status: 405, reason: "MethodNotAllowed")

    // MARK: 410
    /// The device token has expired.
    public static let expiredToken = APNsReason(status: 410, reason: "ExpiredToken")
    /// The device token is no longer active for the topic (the body carries a timestamp).
    public static let unregistered = APNsReason(status: 410, reason: "Unregistered")

    // MARK: 413
    /// The payload exceeds 4096 bytes (5120 for VoIP).
    public static let payloadTooLarge = APNsReason(status: 413, reason: "PayloadTooLarge")

    // MARK: 429
    /// The provider token was replaced too often (within 20 minutes).
    public static let tooManyProviderTokenUpdates = APNsReason(status: 429, reason: "TooManyProviderTokenUpdates")
    /// Too many requests to the same device token.
    public static let tooManyRequests = APNsReason(status: 429, reason: "TooManyRequests")

    // MARK: 5xx
    /// An internal server error.
    public static let internalServerError = APNsReason(status: 500, reason: "InternalServerError")
    /// The service is unavailable.
    public static let serviceUnavailable = APNsReason(status: 503, reason: "ServiceUnavailable")
    /// The APNs server is shutting down.
    public static let shutdown = APNsReason(status: 503, reason: "Shutdown")

    /// The JSON error body: `{"reason":"…"}`, with `"timestamp"` (ms since 1970) when given.
    public func body(timestamp: Int64? = nil) -> [UInt8] {
        var text = "{\"reason\":\"" + Self.jsonEscaped(reason) + "\""
        if let timestamp { text += ",\"timestamp\":\(timestamp)" }
        text += "}"
        return Array(text.utf8)
    }

    static func jsonEscaped(_ s: String) -> String {
        var out = ""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }
}
