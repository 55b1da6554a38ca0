import Foundation
import Contracts
import FakeAPNs
import FakeBackend
import FakeSupport

/// Everything an adapter needs to reach the fakes of one scenario run: where they listen,
/// the accounts' bearer tokens, the device token, the topic and the provider-token key.
///
/// The fakes themselves are exposed too, for an adapter that wants to look (a scenario's
/// checks never depend on an adapter touching them).
public struct ScenarioEnvironment: Sendable {
    /// The running FakeBackend (sessions `s1` → `a1`, `s2` → `a2`).
    public let backend: FakeBackend
    /// The running FakeAPNs (sandbox; the topic below; payload contract violations rejected).
    public let apns: FakeAPNs
    /// The clock both fakes read. Sleep on it (`PushClock.sleep(for:)`) for Retry-After
    /// and backoff, and the wait costs no wall time while the fakes see it pass.
    public let clock: PushClock
    /// How long a check waits for what an adapter's call should have caused.
    public let grace: Duration
    /// The app's bundle id, the `apns-topic` FakeAPNs accepts.
    public let topic: String
    /// The device token iOS hands the app (lowercase hex, registered in FakeAPNs).
    public let deviceToken: String
    /// The device's push-to-start token for the order tracker's Live Activities (lowercase
    /// hex): what `pushToStartTokenUpdates` hands the app. The `order-tracker` scenario
    /// registers it in FakeAPNs and passes it to
    /// ``LiveActivitySender/pushToStartTokenRegistered(_:device:)``.
    public let pushToStartToken: String
    /// The account the user signs in with.
    public let account: String
    /// Bearer token → account, as FakeBackend knows them.
    public let sessions: [String: String]
    /// The provider-token key registered in FakeAPNs.
    public let keyID: String
    /// The team the key belongs to (the token's `iss`).
    public let teamID: String
    /// The private half of the registered key.
    public let signingKey: APNsSigningKey

    /// The `apns-topic` of a Live Activity push: ``topic`` + `.push-type.liveactivity`.
    public var liveActivityTopic: String { topic + ".push-type.liveactivity" }

    /// FakeBackend's base URL, `http://127.0.0.1:PORT`.
    public var backendURL: URL { backend.baseURL }
    /// FakeAPNs' base URL, `http://127.0.0.1:PORT`; pushes go to `/3/device/<token>`.
    public var apnsURL: URL { apns.baseURL }

    /// The bearer token that signs in as `account` ("" for an unknown account).
    public func bearer(for account: String) -> String {
        sessions.first { $0.value == account }?.key ?? ""
    }

    /// A provider token (`authorization: bearer <token>`) signed with the registered key.
    /// Mint one and reuse it: FakeAPNs, like APNs, answers 429 TooManyProviderTokenUpdates
    /// to a connection that changes its token more often than every 20 minutes.
    /// - Parameter issuedAt: the token's `iat`; nil: now on ``clock``.
    public func providerToken(issuedAt: Date? = nil) -> String {
        ProviderToken.mint(keyID: keyID, teamID: teamID, issuedAt: issuedAt ?? clock.now, signingKey: signingKey)
    }
}
