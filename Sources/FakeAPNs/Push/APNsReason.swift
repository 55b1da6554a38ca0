import Contracts

/// An error answer the fake sends: the HTTP status and the `reason` string of the JSON body
/// (and, for a scripted fault, its `timestamp`). Any status and string fit, so a fault can
/// script answers Apple does not document.
///
/// Apple's reasons and their statuses come from the one table, `APNsErrorReason` in
/// Contracts (`APNsErrorReason.fakeSource` says which ones the fake's validation produces
/// and which only a scripted fault); the static members here name them for
/// ``APNsFault/reason(_:)``. Two fake-only reasons (``invalidPayloadJSON`` and
/// ``payloadContractViolation``) cover cases Apple documents no reason for, and say so in
/// their names.
public struct APNsReason: Error, Sendable, Hashable, CustomStringConvertible {
    /// The HTTP status code sent with this reason.
    public var status: Int
    /// The `reason` value of the JSON error body, e.g. `APNsErrorReason.badDeviceToken.rawValue`.
    public var reason: String
    /// The body's `timestamp` (ms since 1970) a scripted fault sends. nil: a 410 fault gets
    /// the fake's clock's "now" (APNs sends a timestamp with every 410), others none.
    public var timestamp: Int64?

    /// One of Apple's reasons, with its status from the Contracts' table.
    public init(_ reason: APNsErrorReason) {
        self.init(status: reason.status, reason: reason.rawValue)
    }

    /// Any status and reason, e.g. for a scripted fault.
    public init(status: Int, reason: String) {
        self.status = status
        self.reason = reason
    }

    /// Any status and reason with the body's `timestamp` (ms since 1970), e.g. a scripted
    /// 410 as of a given time: `APNsReason(status: 410, reason: "Unregistered", timestamp: ms)`.
    public init(status: Int, reason: String, timestamp: Int64?) {
        self.init(status: status, reason: reason)
        self.timestamp = timestamp
    }

    /// This reason with the body's `timestamp` set, e.g. `.unregistered.at(ms)` for a fault.
    public func at(_ timestamp: Int64) -> APNsReason {
        APNsReason(status: status, reason: reason, timestamp: timestamp)
    }

    /// "status reason", e.g. `400` and the reason string.
    public var description: String { "\(status) \(reason)" }

    /// True when APNs counts this answer as an error on the connection (410 is not one).
    public var countsAsConnectionError: Bool { status >= 400 && status != 410 }

    // MARK: 400
    /// Apple's `APNsErrorReason.badCollapseId`.
    public static let badCollapseId = APNsReason(.badCollapseId)
    /// Apple's `APNsErrorReason.badDeviceToken`.
    public static let badDeviceToken = APNsReason(.badDeviceToken)
    /// Apple's `APNsErrorReason.badExpirationDate`.
    public static let badExpirationDate = APNsReason(.badExpirationDate)
    /// Apple's `APNsErrorReason.badMessageId`.
    public static let badMessageId = APNsReason(.badMessageId)
    /// Apple's `APNsErrorReason.badPriority`.
    public static let badPriority = APNsReason(.badPriority)
    /// Apple's `APNsErrorReason.badTopic`.
    public static let badTopic = APNsReason(.badTopic)
    /// Apple's `APNsErrorReason.deviceTokenNotForTopic`.
    public static let deviceTokenNotForTopic = APNsReason(.deviceTokenNotForTopic)
    /// Apple's `APNsErrorReason.duplicateHeaders`.
    public static let duplicateHeaders = APNsReason(.duplicateHeaders)
    /// Apple's `APNsErrorReason.idleTimeout`.
    public static let idleTimeout = APNsReason(.idleTimeout)
    /// Apple's `APNsErrorReason.invalidPushType`.
    public static let invalidPushType = APNsReason(.invalidPushType)
    /// Apple's `APNsErrorReason.missingDeviceToken`.
    public static let missingDeviceToken = APNsReason(.missingDeviceToken)
    /// Apple's `APNsErrorReason.missingTopic`.
    public static let missingTopic = APNsReason(.missingTopic)
    /// Apple's `APNsErrorReason.payloadEmpty`.
    public static let payloadEmpty = APNsReason(.payloadEmpty)
    /// Apple's `APNsErrorReason.topicDisallowed`.
    public static let topicDisallowed = APNsReason(.topicDisallowed)
    /// Fake-only: the payload is not a JSON object. Apple documents no reason for this case.
    public static let invalidPayloadJSON = APNsReason(status: 400, reason: "FakeAPNsInvalidPayloadJSON")
    /// Fake-only: the payload breaks the Contracts' `payload` rules and the fake runs in
    /// ``PayloadContractMode/reject`` mode. Real APNs never checks an app's own rules.
    public static let payloadContractViolation = APNsReason(status: 400, reason: "FakeAPNsPayloadContractViolation")

    // MARK: 403
    /// Apple's `APNsErrorReason.badCertificate`.
    public static let badCertificate = APNsReason(.badCertificate)
    /// Apple's `APNsErrorReason.badCertificateEnvironment`.
    public static let badCertificateEnvironment = APNsReason(.badCertificateEnvironment)
    /// Apple's `APNsErrorReason.expiredProviderToken`.
    public static let expiredProviderToken = APNsReason(.expiredProviderToken)
    /// Apple's `APNsErrorReason.forbidden`.
    public static let forbidden = APNsReason(.forbidden)
    /// Apple's `APNsErrorReason.invalidProviderToken`.
    public static let invalidProviderToken = APNsReason(.invalidProviderToken)
    /// Apple's `APNsErrorReason.missingProviderToken`.
    public static let missingProviderToken = APNsReason(.missingProviderToken)
    /// Apple's `APNsErrorReason.unrelatedKeyIdInToken`.
    public static let unrelatedKeyIdInToken = APNsReason(.unrelatedKeyIdInToken)
    /// Apple's `APNsErrorReason.badEnvironmentKeyInToken`: `BadEnvironmentKeyInToken`, the
    /// spelling APNs returns (its docs say `BadEnvironmentKeyIdInToken`).
    public static let badEnvironmentKeyInToken = APNsReason(.badEnvironmentKeyInToken)
    /// Renamed: APNs returns `BadEnvironmentKeyInToken`.
    @available(*, deprecated, renamed: "badEnvironmentKeyInToken")
    public static var badEnvironmentKeyIdInToken: APNsReason { .badEnvironmentKeyInToken }

    // MARK: 404, 405
    /// Apple's `APNsErrorReason.badPath`.
    public static let badPath = APNsReason(.badPath)
    /// Apple's `APNsErrorReason.methodNotAllowed`.
    public static let methodNotAllowed = APNsReason(.methodNotAllowed)

    // MARK: 410
    /// Apple's `APNsErrorReason.expiredToken`.
    public static let expiredToken = APNsReason(.expiredToken)
    /// Apple's `APNsErrorReason.unregistered`.
    public static let unregistered = APNsReason(.unregistered)

    // MARK: 413
    /// Apple's `APNsErrorReason.payloadTooLarge`.
    public static let payloadTooLarge = APNsReason(.payloadTooLarge)

    // MARK: 429
    /// Apple's `APNsErrorReason.tooManyProviderTokenUpdates`.
    public static let tooManyProviderTokenUpdates = APNsReason(.tooManyProviderTokenUpdates)
    /// Apple's `APNsErrorReason.tooManyRequests`.
    public static let tooManyRequests = APNsReason(.tooManyRequests)

    // MARK: 5xx
    /// Apple's `APNsErrorReason.internalServerError`.
    public static let internalServerError = APNsReason(.internalServerError)
    /// Apple's `APNsErrorReason.serviceUnavailable`.
    public static let serviceUnavailable = APNsReason(.serviceUnavailable)
    /// Apple's `APNsErrorReason.shutdown`.
    public static let shutdown = APNsReason(.shutdown)

    /// The JSON error body: `{"reason":"…"}`, with `"timestamp"` (ms since 1970) when given
    /// (or, when not, this reason's own ``timestamp``).
    public func body(timestamp: Int64? = nil) -> [UInt8] {
        let timestamp = timestamp ?? self.timestamp
        var text = "{\"reason\":" + JSONTreeWriter.quoted(reason)
        if let timestamp { text += ",\"timestamp\":\(timestamp)" }
        text += "}"
        return Array(text.utf8)
    }
}
