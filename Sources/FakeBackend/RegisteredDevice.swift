import Foundation

/// A device token as the backend holds it after a successful `PUT /v1/devices/{token}`.
public struct RegisteredDevice: Sendable, Hashable, Codable {
    /// The token, lowercase hex (tokens compare case-insensitively).
    public var token: String {
        get { storage.value.token }
        set { update { $0.token = newValue } }
    }
    /// The account that registered it last (from the bearer, never from the body).
    public var account: String {
        get { storage.value.account }
        set { update { $0.account = newValue } }
    }
    /// `production` or `sandbox`.
    public var environment: String {
        get { storage.value.environment }
        set { update { $0.environment = newValue } }
    }
    /// The app version that registered, `MAJOR.MINOR.PATCH`.
    public var appVersion: String {
        get { storage.value.appVersion }
        set { update { $0.appVersion = newValue } }
    }
    /// Base64 of the device's P-256 public key.
    public var publicKey: String {
        get { storage.value.publicKey }
        set { update { $0.publicKey = newValue } }
    }
    /// `ios`.
    public var platform: String {
        get { storage.value.platform }
        set { update { $0.platform = newValue } }
    }
    /// When the record last changed; an identical PUT leaves it alone (PUT is idempotent).
    public var updatedAt: Date {
        get { storage.value.updatedAt }
        set { update { $0.updatedAt = newValue } }
    }

    /// The values, in one box (the handler reads the stored device on every PUT).
    private var storage: ValueBox<Fields>

    /// The stored values (equality, hashing and the JSON shape are theirs, member by member).
    private struct Fields: Sendable, Hashable, Codable {
        var token: String
        var account: String
        var environment: String
        var appVersion: String
        var publicKey: String
        var platform: String
        var updatedAt: Date
    }

    private mutating func update(_ change: (inout Fields) -> Void) {
        var fields = storage.value
        change(&fields)
        storage = ValueBox(fields)
    }

    /// A device record from its parts.
    public init(token: String, account: String, environment: String, appVersion: String,
                publicKey: String, platform: String = "ios", updatedAt: Date) {
        storage = ValueBox(Fields(token: token, account: account, environment: environment, appVersion: appVersion,
                                 publicKey: publicKey, platform: platform, updatedAt: updatedAt))
    }

    /// True when both describe the same registration, whatever the time.
    func sameRegistration(as other: RegisteredDevice) -> Bool {
        token == other.token && account == other.account && environment == other.environment
            && appVersion == other.appVersion && publicKey == other.publicKey && platform == other.platform
    }

    public static func == (lhs: RegisteredDevice, rhs: RegisteredDevice) -> Bool {
        lhs.storage === rhs.storage || lhs.storage.value == rhs.storage.value
    }

    public func hash(into hasher: inout Hasher) {
        storage.value.hash(into: &hasher)
    }

    /// Reads a device as `GET /devices` writes it.
    public init(from decoder: any Decoder) throws {
        storage = ValueBox(try Fields(from: decoder))
    }

    public func encode(to encoder: any Encoder) throws {
        try storage.value.encode(to: encoder)
    }
}

extension RegisteredDevice: CustomReflectable {
    /// The values, as a struct with these stored properties would show them (`print`,
    /// `dump`, test failure messages), not the box they are kept in.
    public var customMirror: Mirror {
        Mirror(self, children: Mirror(reflecting: storage.value).children, displayStyle: .struct)
    }
}
