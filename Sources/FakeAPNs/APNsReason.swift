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

    public var description: String { "\(status) \(reason)" }

    /// True when APNs counts this answer as an error on the connection (410 is not one).
    public var countsAsConnectionError: Bool { status >= 400 && status != 410 }

    // MARK: 400
    public static let badCollapseId = APNsReason(status: 400, reason: "BadCollapseId")
    public static let badDeviceToken = APNsReason(status: 400, reason: "BadDeviceToken")
    public static let badExpirationDate = APNsReason(status: 400, reason: "BadExpirationDate")
    public static let badMessageId = APNsReason(status: 400, reason: "BadMessageId")
    public static let badPriority = APNsReason(status: 400, reason: "BadPriority")
    public static let badTopic = APNsReason(status: 400, reason: "BadTopic")
    public static let deviceTokenNotForTopic = APNsReason(status: 400, reason: "DeviceTokenNotForTopic")
    public static let duplicateHeaders = APNsReason(status: 400, reason: "DuplicateHeaders")
    public static let idleTimeout = APNsReason(status: 400, reason: "IdleTimeout")
    public static let invalidPushType = APNsReason(status: 400, reason: "InvalidPushType")
    public static let missingDeviceToken = APNsReason(status: 400, reason: "MissingDeviceToken")
    public static let missingTopic = APNsReason(status: 400, reason: "MissingTopic")
    public static let payloadEmpty = APNsReason(status: 400, reason: "PayloadEmpty")
    public static let topicDisallowed = APNsReason(status: 400, reason: "TopicDisallowed")
    /// Fake-only: the payload is not a JSON object. Apple documents no reason for this case.
    public static let invalidPayloadJSON = APNsReason(status: 400, reason: "FakeAPNsInvalidPayloadJSON")
    /// Fake-only: the payload breaks the Contracts' `payload` rules and the fake runs in
    /// ``PayloadContractMode/reject`` mode. Real APNs never checks an app's own rules.
    public static let payloadContractViolation = APNsReason(status: 400, reason: "FakeAPNsPayloadContractViolation")

    // MARK: 403
    public static let badCertificate = APNsReason(status: 403, reason: "BadCertificate")
    public static let badCertificateEnvironment = APNsReason(status: 403, reason: "BadCertificateEnvironment")
    public static let expiredProviderToken = APNsReason(status: 403, reason: "ExpiredProviderToken")
    public static let forbidden = APNsReason(status: 403, reason: "Forbidden")
    public static let invalidProviderToken = APNsReason(status: 403, reason: "InvalidProviderToken")
    public static let missingProviderToken = APNsReason(status: 403, reason: "MissingProviderToken")
    public static let unrelatedKeyIdInToken = APNsReason(status: 403, reason: "UnrelatedKeyIdInToken")
    public static let badEnvironmentKeyIdInToken = APNsReason(status: 403, reason: "BadEnvironmentKeyIdInToken")

    // MARK: 404, 405
    public static let badPath = APNsReason(status: 404, reason: "BadPath")
    public static let methodNotAllowed = APNsReason(status: 405, reason: "MethodNotAllowed")

    // MARK: 410
    public static let expiredToken = APNsReason(status: 410, reason: "ExpiredToken")
    public static let unregistered = APNsReason(status: 410, reason: "Unregistered")

    // MARK: 413
    public static let payloadTooLarge = APNsReason(status: 413, reason: "PayloadTooLarge")

    // MARK: 429
    public static let tooManyProviderTokenUpdates = APNsReason(status: 429, reason: "TooManyProviderTokenUpdates")
    public static let tooManyRequests = APNsReason(status: 429, reason: "TooManyRequests")

    // MARK: 5xx
    public static let internalServerError = APNsReason(status: 500, reason: "InternalServerError")
    public static let serviceUnavailable = APNsReason(status: 503, reason: "ServiceUnavailable")
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
