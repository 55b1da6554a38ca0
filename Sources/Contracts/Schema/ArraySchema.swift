/// An array node: one schema for every item, and optional bounds on the count.
public struct ArraySchema: Sendable, Hashable {
    public var items: Schema
    public var minItems: Int?
    public var maxItems: Int?

    public init(items: Schema, minItems: Int? = nil, maxItems: Int? = nil) {
        self.items = items
        self.minItems = minItems
        self.maxItems = maxItems
    }
}
