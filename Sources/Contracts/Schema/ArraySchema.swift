/// An array node: one schema for every item, and optional bounds on the count.
public struct ArraySchema: Sendable, Hashable {
    /// The schema every item follows.
    public var items: Schema
    /// The fewest items allowed, if bounded.
    public var minItems: Int?
    /// The most items allowed, if bounded.
    public var maxItems: Int?

    /// An array of `items`, optionally bounded in count.
    public init(items: Schema, minItems: Int? = nil, maxItems: Int? = nil) {
        self.items = items
        self.minItems = minItems
        self.maxItems = maxItems
    }
}
