/// A number node's inclusive bounds.
public struct NumberSchema: Sendable, Hashable {
    public var minimum: Double?
    public var maximum: Double?

    public init(minimum: Double? = nil, maximum: Double? = nil) {
        self.minimum = minimum
        self.maximum = maximum
    }
}
