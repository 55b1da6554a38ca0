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
        /// The broadcast API (`POST /4/broadcasts/apps/…`) or the channel management listener
        /// answers with it (Docs/readme/broadcast.md); pushes to `/3/device/…` never get it.
        case broadcast
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
        case .badChannelId, .badRequestParams, .badRequestPayload, .cannotCreateChannelConfig, .featureNotEnabled,
             .missingChannelId, .missingPushType, .topicMismatch, .channelNotRegistered:
            .broadcast
        case .idleTimeout,
             .forbidden,
             .expiredToken,
             .internalServerError, .serviceUnavailable, .shutdown:
            .scriptedFaultOnly
        }
    }
}
