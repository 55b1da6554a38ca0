import Foundation

/// A device token as the backend holds it after a successful `PUT /v1/devices/{token}`.
public struct RegisteredDevice: Sendable, Hashable, Codable {
    /// The token, lowercase hex (tokens compare case-insensitively).
    public var token: String {
        get { storage.fields.token }
        set { update { $0.token = newValue } }
    }
    /// The account that registered it last (from the bearer, never from the body).
    public var account: String {
        get { storage.fields.account }
        set { update { $0.account = newValue } }
    }
    /// `production` or `sandbox`.
    public var environment: String {
        get { storage.fields.environment }
        set { update { $0.environment = newValue } }
    }
    /// The app version that registered, `MAJOR.MINOR.PATCH`.
    public var appVersion: String {
        get { storage.fields.appVersion }
        set { update { $0.appVersion = newValue } }
    }
    /// Base64 of the device's P-256 public key.
    public var publicKey: String {
        get { storage.fields.publicKey }
        set { update { $0.publicKey = newValue } }
    }
    /// `ios`.
    public var platform: String {
        get { storage.fields.platform }
        set { update { $0.platform = newValue } }
    }
    /// When the record last changed; an identical PUT leaves it alone (PUT is idempotent).
    public var updatedAt: Date {
        get { storage.fields.updatedAt }
        set { update { $0.updatedAt = newValue } }
    }

    /// The values, in one immutable box: the handler reads the stored device on every PUT
    /// to see whether it changes, and a copy is then one retain rather than one per String.
    /// A setter puts the changed values in a new box.
    private let storage: Storage

    private final class Storage: Sendable {
        let fields: Fields
        init(_ fields: Fields) { self.fields = fields }
    }

    /// The stored values (equality and hashing are theirs, member by member).
    private struct Fields: Sendable, Hashable {
        var token: String
        var account: String
        var environment: String
        var appVersion: String
        var publicKey: String
        var platform: String
        var updatedAt: Date
    }

    private mutating func update(_ change: (inout Fields) -> Void) {
        var fields = storage.fields
        change(&fields)
        self = RegisteredDevice(storage: Storage(fields))
    }

    private init(storage: Storage) {
        self.storage = storage
    }

    /// A device record from its parts.
    public init(token: String, account: String, environment: String, appVersion: String,
                publicKey: String, platform: String = "ios", updatedAt: Date) {
        storage = Storage(Fields(token: token, account: account, environment: environment, appVersion: appVersion,
                                 publicKey: publicKey, platform: platform, updatedAt: updatedAt))
    }

    /// True when both describe the same registration, whatever the time.
    func sameRegistration(as other: RegisteredDevice) -> Bool {
        token == other.token && account == other.account && environment == other.environment
            && appVersion == other.appVersion && publicKey == other.publicKey && platform == other.platform
    }

    public static func == (lhs: RegisteredDevice, rhs: RegisteredDevice) -> Bool {
        lhs.storage === rhs.storage || lhs.storage.fields == rhs.storage.fields
    }

    public func hash(into hasher: inout Hasher) {
        storage.fields.hash(into: &hasher)
    }

    private enum CodingKeys: String, CodingKey {
        case token, account, environment, appVersion, publicKey, platform, updatedAt
    }

    /// Reads a device as `GET /devices` writes it.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(token: try container.decode(String.self, forKey: .token),
                  account: try container.decode(String.self, forKey: .account),
                  environment: try container.decode(String.self, forKey: .environment),
                  appVersion: try container.decode(String.self, forKey: .appVersion),
                  publicKey: try container.decode(String.self, forKey: .publicKey),
                  platform: try container.decode(String.self, forKey: .platform),
                  updatedAt: try container.decode(Date.self, forKey: .updatedAt))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(token, forKey: .token)
        try container.encode(account, forKey: .account)
        try container.encode(environment, forKey: .environment)
        try container.encode(appVersion, forKey: .appVersion)
        try container.encode(publicKey, forKey: .publicKey)
        try container.encode(platform, forKey: .platform)
        try container.encode(updatedAt, forKey: .updatedAt)
    }
}

extension RegisteredDevice: CustomReflectable {
    /// The values, as a struct with these stored properties would show them (`print`,
    /// `dump`, test failure messages), not the box they are kept in.
    public var customMirror: Mirror {
        Mirror(self, children: [
            "token": token, "account": account, "environment": environment, "appVersion": appVersion,
            "publicKey": publicKey, "platform": platform, "updatedAt": updatedAt,
        ] as KeyValuePairs<String, Any>, displayStyle: .struct)
    }
}
