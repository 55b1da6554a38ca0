/// The APNs environment a token belongs to; sandbox tokens must not reach production.
public enum APNsEnvironment: String, Hashable, Sendable, Codable {
    case production
    case sandbox
}

/// The body of `PUT /v1/devices/{token}`. It never names the account: the bearer does.
public struct DeviceRegistrationBody: Hashable, Sendable, Encodable {
    /// Always `ios`.
    public let platform = "ios"
    public var environment: APNsEnvironment
    /// MAJOR.MINOR.PATCH, from `CFBundleShortVersionString`.
    public var appVersion: String
    /// Base64 of the device key's 65-byte uncompressed P-256 public half (first byte 0x04);
    /// the service extension decrypts `secret` with its private half.
    public var publicKey: String

    public init(environment: APNsEnvironment, appVersion: String, publicKey: String) {
        self.environment = environment
        self.appVersion = appVersion
        self.publicKey = publicKey
    }

    private enum CodingKeys: String, CodingKey {
        case platform, environment, appVersion, publicKey
    }
}
