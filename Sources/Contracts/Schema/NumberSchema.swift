/// A number node's inclusive bounds.
public struct NumberSchema: Sendable, Hashable {
    /// The smallest value allowed (inclusive), if bounded.
    public var minimum: Double?
    /// The largest value allowed (inclusive), if bounded.
    public var maximum: Double?

    /// A number, optionally bounded.
    public init(minimum: Double? = nil, maximum: Double? = nil) {
        self.minimum = minimum
        self.maximum = maximum
    }
}
