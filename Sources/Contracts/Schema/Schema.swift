/// The shape of one JSON value in a contract, as introspectable data.
///
/// A schema is declared once and drives everything: the validator walks it, the JSON Schema
/// and OpenAPI exporters translate it, and the breaking-change diff compares two of them.
/// It is therefore plain data (no closures except the hand-written matchers inside
/// ``StringFormat``, which also carry their regular expression for emission).
///
/// ```swift
/// let body: Schema = .object([
///     .required("action", .string(oneOf: ["open", "trackOrder", "seeOffer"])),
/// ])
/// ```
public struct Schema: Sendable, Hashable {
    /// What kind of value the node accepts.
    public indirect enum Kind: Sendable, Hashable {
        /// A JSON object with declared members.
        case object(ObjectSchema)
        /// A JSON string, optionally limited in length, to a format, or to a set of values.
        case string(StringSchema)
        /// A JSON number written as an integer (no fraction, no exponent), optionally in a range.
        case integer(IntegerSchema)
        /// Any JSON number, optionally in a range.
        case number(NumberSchema)
        /// `true` or `false`.
        case boolean
        /// The integer `0` or `1` standing for a flag. Booleans are rejected: APNs reads
        /// `"mutable-content": true` as absent.
        case integerFlag
        /// Exactly one of the listed constants (JSON Schema `enum` over mixed types).
        case constants([JSONConstant])
        /// A JSON array whose items all follow one schema.
        case array(ArraySchema)
        /// The wrapped schema, or `null`.
        case nullable(Schema)
        /// A value that follows at least one of the alternatives (e.g. `alert`: string or object).
        case anyOf([Schema])
        /// A member that must never be present; `reason` says why (JSON Schema `false`).
        case forbidden(reason: String)
        /// Any JSON value.
        case any
    }

    /// What kind of value the node accepts.
    public var kind: Kind
    /// One line for humans and for the emitted schema's `description`.
    public var summary: String?
    /// The rule id reported for this node's own violations (type, enum, format, length,
    /// range, flag, forbidden) instead of the contract's generic ids, e.g.
    /// `payload.image-url-https` for `imageUrl`.
    public var ruleID: String?
    /// One line saying what ``ruleID`` requires, for rule catalogs and documentation.
    public var ruleSummary: String?
    /// What to do when this node is wrong, appended to every message about it.
    public var advice: String?

    /// A schema node; the static builders (`.object`, `.string`, …) read better.
    public init(_ kind: Kind, summary: String? = nil, ruleID: String? = nil, ruleSummary: String? = nil, advice: String? = nil) {
        self.kind = kind
        self.summary = summary
        self.ruleID = ruleID
        self.ruleSummary = ruleSummary
        self.advice = advice
    }
}

// MARK: - Building schemas

extension Schema {
    /// An object; unknown members are violations unless `unknownMembers` is `.allow`.
    public static func object(_ members: [Member], unknownMembers: ObjectSchema.UnknownMembers = .reject) -> Schema {
        Schema(.object(ObjectSchema(members: members, unknownMembers: unknownMembers)))
    }

    /// A string. Lengths count Unicode scalars (as JSON Schema's `minLength`/`maxLength` do).
    public static func string(minLength: Int? = nil, maxLength: Int? = nil, format: StringFormat? = nil) -> Schema {
        Schema(.string(StringSchema(minLength: minLength, maxLength: maxLength, format: format)))
    }

    /// A string that must be one of `values` (JSON Schema `enum`).
    public static func string(oneOf values: [String]) -> Schema {
        Schema(.string(StringSchema(allowedValues: values)))
    }

    /// An integer literal, optionally bounded (both bounds inclusive).
    public static func integer(minimum: Int64? = nil, maximum: Int64? = nil) -> Schema {
        Schema(.integer(IntegerSchema(minimum: minimum, maximum: maximum)))
    }

    /// Any number, optionally bounded (both bounds inclusive).
    public static func number(minimum: Double? = nil, maximum: Double? = nil) -> Schema {
        Schema(.number(NumberSchema(minimum: minimum, maximum: maximum)))
    }

    /// `true` or `false`.
    public static var boolean: Schema { Schema(.boolean) }

    /// The integer 0 or 1 (never a boolean).
    public static var integerFlag: Schema { Schema(.integerFlag) }

    /// Any JSON value.
    public static var any: Schema { Schema(.any) }

    /// One of the listed constants.
    public static func constants(_ values: [JSONConstant]) -> Schema { Schema(.constants(values)) }

    /// An array of `items`, optionally bounded in count.
    public static func array(of items: Schema, minItems: Int? = nil, maxItems: Int? = nil) -> Schema {
        Schema(.array(ArraySchema(items: items, minItems: minItems, maxItems: maxItems)))
    }

    /// `schema` or `null`.
    public static func nullable(_ schema: Schema) -> Schema { Schema(.nullable(schema)) }

    /// A value that follows at least one of `alternatives`.
    public static func anyOf(_ alternatives: [Schema]) -> Schema { Schema(.anyOf(alternatives)) }

    /// A member that must never appear; `reason` is told to whoever sends it.
    public static func forbidden(_ reason: String) -> Schema { Schema(.forbidden(reason: reason)) }

    /// This schema with a one-line summary.
    public func summary(_ text: String) -> Schema {
        var copy = self
        copy.summary = text
        return copy
    }

    /// This schema reporting its own violations under `id` instead of the generic ids;
    /// `summary` says in one line what the rule requires.
    public func rule(_ id: String, _ summary: String? = nil) -> Schema {
        var copy = self
        copy.ruleID = id
        copy.ruleSummary = summary
        return copy
    }

    /// This schema with advice appended to every message about it.
    public func advice(_ text: String) -> Schema {
        var copy = self
        copy.advice = text
        return copy
    }
}
