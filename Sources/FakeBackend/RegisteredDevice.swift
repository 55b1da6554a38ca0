import Foundation
import Contracts

/// A device token as the backend holds it after a successful `PUT /v1/devices/{token}`.
///
/// Its values are the members of ``Fields``, read and set as the device's own
/// (`device.account`, `device.updatedAt = now`). They are kept in one box, so a copy (into
/// every snapshot) is one retain; setting one puts the changed values in a new box.
@dynamicMemberLookup
public struct RegisteredDevice: Sendable, Hashable, Codable {
    /// The values of a device record (equality, hashing and the JSON shape are theirs,
    /// member by member).
    public struct Fields: Sendable, Hashable, Codable {
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
    }

    /// The values, in one box (the handler reads the stored device on every PUT).
    @usableFromInline var storage: ValueBox<Fields>

    /// One of the device's values, e.g. `device.account`.
    @inlinable
    public subscript<Value>(dynamicMember member: WritableKeyPath<Fields, Value>) -> Value {
        get { storage.value[keyPath: member] }
        set { storage = storage.setting(member, to: newValue) }
    }

    /// A device record from its parts.
    public init(token: String, account: String, environment: String, appVersion: String,
                publicKey: String, platform: String = "ios", updatedAt: Date) {
        storage = ValueBox(Fields(token: token, account: account, environment: environment, appVersion: appVersion,
                                 publicKey: publicKey, platform: platform, updatedAt: updatedAt))
    }

    /// True when both describe the same registration, whatever the time.
    func sameRegistration(as other: RegisteredDevice) -> Bool {
        var mine = storage.value
        mine.updatedAt = other.updatedAt
        return mine == other.storage.value
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

extension RegisteredDevice {
    /// A device token as the backend keys it: `bytes` (valid UTF-8, a path parameter)
    /// lowercased, with no second String when they are lowercase ASCII already (checked eight
    /// bytes at a time: a token is 64 bytes, read on every PUT).
    static func token(lowercasing bytes: UnsafeBufferPointer<UInt8>) -> String {
        let text = String(decoding: bytes, as: UTF8.self)
        return SWAR.isLowercaseASCII(bytes) ? text : text.lowercased()
    }
}
