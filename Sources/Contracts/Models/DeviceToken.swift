/// An APNs device token: 1–100 bytes, written as hex. Compared case-insensitively, so it is
/// stored lowercase.
public struct DeviceToken: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The token as lowercase hex.
    public let hex: String

    /// Validates `string` as the `device-token` contract does; nil when it is not an even
    /// number (2–200) of hex digits.
    public init?(_ string: String) {
        let count = string.utf8.count
        guard count >= 2, count <= 200, StringFormat.hexBytes.matches(string) else { return nil }
        hex = String(decoding: string.utf8.map { $0 >= 0x41 && $0 <= 0x46 ? $0 + 0x20 : $0 }, as: UTF8.self)
    }

    /// The token from its bytes (1–100 of them), as the app delegate receives it; nil otherwise.
    public init?(bytes: [UInt8]) {
        guard !bytes.isEmpty, bytes.count <= 100 else { return nil }
        let digits: [UInt8] = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        hex = String(decoding: text, as: UTF8.self)
    }

    /// The token's bytes.
    public var bytes: [UInt8] {
        var result: [UInt8] = []
        var high: UInt8?
        for byte in hex.utf8 {
            let nibble = byte <= 0x39 ? byte &- 0x30 : byte &- 0x61 &+ 10
            if let first = high {
                result.append(first << 4 | nibble)
                high = nil
            } else {
                high = nibble
            }
        }
        return result
    }

    public var description: String { hex }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let token = DeviceToken(text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "expected 2-200 hex digits (an even number), found \"\(text)\"")
        }
        self = token
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(hex)
    }
}
