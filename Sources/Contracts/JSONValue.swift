/// A position in a source text: 1-based line and column (column counts Unicode scalars),
/// and the 0-based byte offset.
public struct SourcePosition: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// The line, counting from 1.
    public var line: Int
    /// The column, counting Unicode scalars from 1.
    public var column: Int
    /// The byte offset from the start of the text, counting from 0.
    public var offset: Int

    /// A position at `line`, `column` and byte `offset`.
    public init(line: Int, column: Int, offset: Int) {
        self.line = line
        self.column = column
        self.offset = offset
    }

    public static func < (lhs: SourcePosition, rhs: SourcePosition) -> Bool { lhs.offset < rhs.offset }
    public var description: String { "\(line):\(column)" }
}

/// A JSON value with the position where it starts in the source.
public struct JSONNode: Sendable, Hashable {
    /// The value.
    public var value: JSONValue
    /// Where the value starts in the source.
    public var position: SourcePosition

    /// A node holding `value`, starting at `position` (the text's start by default).
    public init(_ value: JSONValue, at position: SourcePosition = SourcePosition(line: 1, column: 1, offset: 0)) {
        self.value = value
        self.position = position
    }
}

/// A JSON number as written, told apart as integer or decimal.
///
/// Foundation on Linux reads `1`, `1.0` and `true` alike; contracts must not
/// (`"mutable-content": true` is a violation, `"orderVersion": 7.5` too).
public struct JSONNumber: Sendable, Hashable, CustomStringConvertible {
    /// The literal exactly as it appeared in the source, e.g. `7`, `-0.5`, `1e3`.
    public var literal: String
    /// The value when the literal is an integer (no fraction, no exponent) that fits in `Int64`.
    public var integerValue: Int64?
    /// The value as a double (always set; may be rounded or infinite for huge literals).
    public var doubleValue: Double
    /// True when the literal has no fraction and no exponent (even if it overflows `Int64`).
    public var isIntegerLiteral: Bool

    /// A number with each reading given; the reader fills these from the literal.
    public init(literal: String, integerValue: Int64?, doubleValue: Double, isIntegerLiteral: Bool) {
        self.literal = literal
        self.integerValue = integerValue
        self.doubleValue = doubleValue
        self.isIntegerLiteral = isIntegerLiteral
    }

    /// The integer `value`, with its decimal literal.
    public init(_ value: Int64) {
        self.init(literal: String(value), integerValue: value, doubleValue: Double(value), isIntegerLiteral: true)
    }

    public var description: String { literal }
}

/// One member of a JSON object: its key, where the key starts, and its value.
public struct JSONMember: Sendable, Hashable {
    /// The key, unescaped.
    public var key: String
    /// Where the key's opening quote is.
    public var keyPosition: SourcePosition
    /// The member's value and its position.
    public var value: JSONNode

    /// A member with `key` at `keyPosition` and its `value`.
    public init(key: String, keyPosition: SourcePosition, value: JSONNode) {
        self.key = key
        self.keyPosition = keyPosition
        self.value = value
    }
}

/// A JSON value tree. Objects keep their members in source order, duplicates included,
/// so a validator can report a duplicate key with both positions.
///
/// Only numbers are boxed (a `JSONNumber` is large); strings, arrays and objects already
/// hold their storage by reference, so boxing them too would cost an allocation per value.
public enum JSONValue: Sendable, Hashable {
    /// JSON `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number, as written.
    indirect case number(JSONNumber)
    /// A string, unescaped.
    case string(String)
    /// An array, in order, each element with its position.
    case array([JSONNode])
    /// An object's members in source order, duplicate keys included.
    case object([JSONMember])
}
