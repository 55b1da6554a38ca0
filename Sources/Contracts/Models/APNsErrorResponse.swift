/// The JSON body of an APNs error response: `{"reason": "Unregistered", "timestamp": 1700000000000}`.
public struct APNsErrorResponse: Sendable, Hashable, Codable {
    /// Apple's reason string, e.g. `Unregistered`.
    public var reason: APNsErrorReason
    /// For 410 responses: when APNs last confirmed the token invalid, in milliseconds since 1970.
    public var timestamp: Int64?

    /// An error body; `timestamp` (ms since 1970) only with 410.
    public init(reason: APNsErrorReason, timestamp: Int64? = nil) {
        self.reason = reason
        self.timestamp = timestamp
    }
}
