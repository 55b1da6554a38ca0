/// The body of `PUT /v1/devices/{token}`. The account is not here: the bearer session names it.
public struct DeviceRegistration: Sendable, Hashable, Codable {
    /// The platform; only iOS exists in v1.
    public enum Platform: String, Sendable, Hashable, Codable, CaseIterable {
        /// iOS.
        case ios
    }

    /// The APNs environment the token belongs to. Sandbox tokens must not reach production.
    public enum Environment: String, Sendable, Hashable, Codable, CaseIterable {
        /// Tokens from production builds (App Store, TestFlight).
        case production
        /// Tokens from development builds.
        case sandbox
    }

    /// The platform (`ios`).
    public var platform: Platform
    /// The APNs environment the token belongs to.
    public var environment: Environment
    /// MAJOR.MINOR.PATCH, e.g. `4.2.0`.
    public var appVersion: String
    /// Base64 of the device's 65-byte uncompressed P-256 public key; the backend encrypts
    /// `secret` to it.
    public var publicKey: String

    /// A registration body from its members.
    public init(platform: Platform = .ios, environment: Environment, appVersion: String, publicKey: String) {
        self.platform = platform
        self.environment = environment
        self.appVersion = appVersion
        self.publicKey = publicKey
    }
}
