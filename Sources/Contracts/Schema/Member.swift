/// One declared member of an object schema.
public struct Member: Sendable, Hashable {
    /// The key as written on the wire.
    public var name: String
    /// The member's value schema.
    public var schema: Schema
    /// True when the member must be present.
    public var isRequired: Bool
    /// The rule id reported when a required member is missing, instead of `<contract>.required`
    /// (e.g. `payload.aps-required`).
    public var requiredRuleID: String?
    /// For values read by apps (`backendToApp`): what an app does with a value it cannot read,
    /// e.g. "the app opens Home". A member with a fallback may gain new values without
    /// breaking old apps; the breaking-change diff reads this.
    public var unknownValueFallback: String?

    /// Declares a member; prefer ``required(_:_:rule:)`` and ``optional(_:_:fallback:)``.
    public init(name: String, schema: Schema, isRequired: Bool, requiredRuleID: String? = nil, unknownValueFallback: String? = nil) {
        self.name = name
        self.schema = schema
        self.isRequired = isRequired
        self.requiredRuleID = requiredRuleID
        self.unknownValueFallback = unknownValueFallback
    }

    /// A member that must be present; `rule` overrides the generic `<contract>.required` id.
    public static func required(_ name: String, _ schema: Schema, rule: String? = nil) -> Member {
        Member(name: name, schema: schema, isRequired: true, requiredRuleID: rule)
    }

    /// A member that may be absent; `fallback` says what a reader does with a value it cannot read.
    public static func optional(_ name: String, _ schema: Schema, fallback: String? = nil) -> Member {
        Member(name: name, schema: schema, isRequired: false, unknownValueFallback: fallback)
    }
}
