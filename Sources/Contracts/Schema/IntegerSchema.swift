/// An integer node's inclusive bounds.
public struct IntegerSchema: Sendable, Hashable {
    public var minimum: Int64?
    public var maximum: Int64?

    public init(minimum: Int64? = nil, maximum: Int64? = nil) {
        self.minimum = minimum
        self.maximum = maximum
    }
}
