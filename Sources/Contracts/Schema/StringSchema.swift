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
