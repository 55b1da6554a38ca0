/// A string node's limits. Lengths count Unicode scalars, as JSON Schema's `minLength` and
/// `maxLength` do; for the ASCII formats used here (hex, identifiers) that is also bytes.
public struct StringSchema: Sendable, Hashable {
    /// The fewest Unicode scalars allowed, if bounded.
    public var minLength: Int?
    /// The most Unicode scalars allowed, if bounded.
    public var maxLength: Int?
    /// A format checked by a hand-written matcher and emitted as its `pattern`.
    public var format: StringFormat?
    /// When set, the only values accepted (JSON Schema `enum`).
    public var allowedValues: [String]?

    /// A string with optional bounds, format and allowed values.
    public init(minLength: Int? = nil, maxLength: Int? = nil, format: StringFormat? = nil, allowedValues: [String]? = nil) {
        self.minLength = minLength
        self.maxLength = maxLength
        self.format = format
        self.allowedValues = allowedValues
    }

    /// True when `text` breaks none of these limits: exactly when the validator reports
    /// nothing about it (the tests hold the two together). Lets a valid value be accepted
    /// without a document around it.
    func admits(_ text: String) -> Bool {
        // Optional chaining reads the stored values in place; `if let` would copy them
        // (and retain every String in a format) on each call.
        if allowedValues?.contains(text) == false { return false }
        if minLength != nil || maxLength != nil, SchemaValidator.mayViolateLength(text, self) {
            let count = FormatMatchers.scalarCount(text)
            if let minLength, count < minLength { return false }
            if let maxLength, count > maxLength { return false }
        }
        if format?.matches(text) == false { return false }
        return true
    }
}
