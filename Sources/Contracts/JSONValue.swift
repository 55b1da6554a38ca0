/// A position in a source text: 1-based line and column (column counts Unicode scalars),
/// and the 0-based byte offset.
public struct SourcePosition: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    public var line: Int
    public var column: Int
    public var offset: Int

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
    public var value: JSONValue
    public var position: SourcePosition

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

    public init(literal: String, integerValue: Int64?, doubleValue: Double, isIntegerLiteral: Bool) {
        self.literal = literal
        self.integerValue = integerValue
        self.doubleValue = doubleValue
        self.isIntegerLiteral = isIntegerLiteral
    }

    public init(_ value: Int64) {
        self.init(literal: String(value), integerValue: value, doubleValue: Double(value), isIntegerLiteral: true)
    }

    public var description: String { literal }
}

/// One member of a JSON object: its key, where the key starts, and its value.
public struct JSONMember: Sendable, Hashable {
    public var key: String
    public var keyPosition: SourcePosition
    public var value: JSONNode

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
    case null
    case bool(Bool)
    indirect case number(JSONNumber)
    case string(String)
    case array([JSONNode])
    case object([JSONMember])
}
