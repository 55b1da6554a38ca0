import Foundation

/// A device token as the backend holds it after a successful `PUT /v1/devices/{token}`.
public struct RegisteredDevice: Sendable, Hashable, Codable {
    /// The token, lowercase hex (tokens compare case-insensitively).
    public var token: String
    /// The account that registered it last (from the bearer, never from the body).
    public var account: String
    /// `production` or `sandbox`.
    public var environment: String
    /// The app version that registered, `MAJOR.MINOR.PATCH`.
    public var appVersion: String
    /// Base64 of the device's P-256 public key.
    public var publicKey: String
    /// `ios`.
    public var platform: String
    /// When the record last changed; an identical PUT leaves it alone (PUT is idempotent).
    public var updatedAt: Date

    /// A device record from its parts.
    public init(token: String, account: String, environment: String, appVersion: String,
                publicKey: String, platform: String = "ios", updatedAt: Date) {
        self.token = token
        self.account = account
        self.environment = environment
        self.appVersion = appVersion
        self.publicKey = publicKey
        self.platform = platform
        self.updatedAt = updatedAt
    }

    /// True when both describe the same registration, whatever the time.
    func sameRegistration(as other: RegisteredDevice) -> Bool {
        token == other.token && account == other.account && environment == other.environment
            && appVersion == other.appVersion && publicKey == other.publicKey && platform == other.platform
    }
}
