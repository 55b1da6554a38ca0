/// A string node's limits. Lengths count Unicode scalars, as JSON Schema's `minLength` and
/// `maxLength` do; for the ASCII formats used here (hex, identifiers) that is also bytes.
public struct StringSchema: Sendable, Hashable {
    public var minLength: Int?
    public var maxLength: Int?
    /// A format checked by a hand-written matcher and emitted as its `pattern`.
    public var format: StringFormat?
    /// When set, the only values accepted (JSON Schema `enum`).
    public var allowedValues: [String]?

    public init(minLength: Int? = nil, maxLength: Int? = nil, format: StringFormat? = nil, allowedValues: [String]? = nil) {
        self.minLength = minLength
        self.maxLength = maxLength
        self.format = format
        self.allowedValues = allowedValues
    }
}

/// An integer node's inclusive bounds.
public struct IntegerSchema: Sendable, Hashable {
    public var minimum: Int64?
    public var maximum: Int64?

    public init(minimum: Int64? = nil, maximum: Int64? = nil) {
        self.minimum = minimum
        self.maximum = maximum
    }
}

/// A number node's inclusive bounds.
public struct NumberSchema: Sendable, Hashable {
    public var minimum: Double?
    public var maximum: Double?

    public init(minimum: Double? = nil, maximum: Double? = nil) {
        self.minimum = minimum
        self.maximum = maximum
    }
}

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
