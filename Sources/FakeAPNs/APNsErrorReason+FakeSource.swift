import Contracts

extension APNsErrorReason {
    /// How the fake APNs server comes to answer with a reason.
    public enum FakeSource: String, Sendable, Hashable, CaseIterable {
        /// The fake's request validation answers with it when a request breaks Apple's rule.
        case validation
        /// Only a scripted fault (`APNsFault.reason(…)`, `goAway(reason:)` or the admin API)
        /// produces it: the fake has no idle GOAWAY, no expiring tokens and no outages of its
        /// own.
        case scriptedFaultOnly
    }

    /// Whether the fake APNs server's validation produces this reason, or only a scripted fault.
    ///
    /// The fake's half of the reason table: Contracts' ``APNsErrorReason`` holds each reason's
    /// string, status and meaning; this switch names every reason, so a reason added there
    /// does not compile here until the fake says how it produces it.
    public var fakeSource: FakeSource {
        switch self {
        case .badCollapseId, .badDeviceToken, .badExpirationDate, .badMessageId, .badPriority, .badTopic,
             .deviceTokenNotForTopic, .duplicateHeaders, .invalidPushType, .missingDeviceToken, .missingTopic,
             .payloadEmpty, .topicDisallowed,
             .expiredProviderToken, .invalidProviderToken, .missingProviderToken, .unrelatedKeyIdInToken,
             .badEnvironmentKeyInToken,
             .badCertificate, .badCertificateEnvironment,  // on a certificate connection (APNsClientCertificates)
             .badPath, .methodNotAllowed,
             .unregistered,
             .payloadTooLarge,
             .tooManyProviderTokenUpdates, .tooManyRequests:
            .validation
        case .idleTimeout,
             .forbidden,
             .expiredToken,
             .internalServerError, .serviceUnavailable, .shutdown:
            .scriptedFaultOnly
        }
    }
}
