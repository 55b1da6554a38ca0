/// A notification's id: 1–64 of `[A-Za-z0-9_-]`. Dedupes taps and keys analytics.
public struct NotificationID: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The id as sent.
    public let rawValue: String

    /// Validates `string` as the `notification-id` contract does; nil otherwise.
    public init?(_ string: String) {
        guard !string.isEmpty, string.utf8.count <= 64, StringFormat.identifier.matches(string) else { return nil }
        rawValue = string
    }

    public var description: String { rawValue }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let id = NotificationID(text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "expected 1-64 of A-Z a-z 0-9 _ -, found \"\(text)\"")
        }
        self = id
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
