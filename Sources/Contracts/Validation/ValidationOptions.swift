/// What a validation knows beyond the parsed document.
public struct ValidationOptions: Sendable, Hashable {
    /// APNs' limit for a regular push payload, in bytes.
    public static let standardPayloadLimit = 4096
    /// APNs' limit for a VoIP push payload, in bytes.
    public static let voipPayloadLimit = 5120

    /// The number of bytes the document had as sent (or as read from a file). When nil,
    /// size rules measure the document serialised compactly.
    public var sourceByteCount: Int?
    /// The largest payload APNs accepts for this push: 4096, or 5120 for VoIP.
    public var maximumPayloadBytes: Int

    /// Options for a document of `sourceByteCount` bytes as sent (nil: measure it compactly) and a payload limit.
    public init(sourceByteCount: Int? = nil, maximumPayloadBytes: Int = ValidationOptions.standardPayloadLimit) {
        self.sourceByteCount = sourceByteCount
        self.maximumPayloadBytes = maximumPayloadBytes
    }
}
