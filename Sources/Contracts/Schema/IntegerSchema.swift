/// An integer node's inclusive bounds.
public struct IntegerSchema: Sendable, Hashable {
    /// The smallest value allowed (inclusive), if bounded.
    public var minimum: Int64?
    /// The largest value allowed (inclusive), if bounded.
    public var maximum: Int64?

    /// An integer, optionally bounded.
    public init(minimum: Int64? = nil, maximum: Int64? = nil) {
        self.minimum = minimum
        self.maximum = maximum
    }
}
