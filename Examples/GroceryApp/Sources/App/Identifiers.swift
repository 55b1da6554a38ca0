import Foundation

/// The account a session signs in as, and a push was sent to (`accountId`).
public struct AccountID: RawRepresentable, Hashable, Sendable, Codable, ExpressibleByStringLiteral, CustomStringConvertible {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { rawValue = value }
    public var description: String { rawValue }
}

/// A push's `notificationId`: drops repeats, keys the opens report.
public struct NotificationID: RawRepresentable, Hashable, Sendable, Codable, ExpressibleByStringLiteral, CustomStringConvertible {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { rawValue = value }
    public var description: String { rawValue }
}

/// The address APNs gives this app on this phone, as lowercase hex (the `{token}` of
/// `/v1/devices/{token}`).
public struct DeviceToken: Hashable, Sendable, CustomStringConvertible {
    /// Lowercase hex, two digits per byte.
    public let hex: String

    /// The token iOS hands `application(_:didRegisterForRemoteNotificationsWithDeviceToken:)`.
    public init(_ data: Data) {
        hex = data.map { byte in
            let digits = String(byte, radix: 16)
            return byte < 16 ? "0" + digits : digits
        }.joined()
    }

    /// A token from hex in any case; nil unless it is 1–100 bytes of hex digits.
    public init?(hex: String) {
        guard hex.utf8.count % 2 == 0, (2...200).contains(hex.utf8.count),
              hex.utf8.allSatisfy({ UInt8(ascii: "0")...UInt8(ascii: "9") ~= $0 || UInt8(ascii: "a")...UInt8(ascii: "f") ~= ($0 | 0x20) })
        else { return nil }
        self.hex = hex.lowercased()
    }

    public var description: String { hex }
}
