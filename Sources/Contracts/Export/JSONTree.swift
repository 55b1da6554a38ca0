/// A JSON value built in memory for output (schemas, OpenAPI, reports) and read back from
/// golden files for comparison. Objects are dictionaries: ``JSONTreeWriter`` sorts their
/// keys, so the same tree is always the same text.
public indirect enum JSONTree: Sendable, Hashable {
    /// JSON `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number written without fraction or exponent.
    case integer(Int64)
    /// Any other number.
    case number(Double)
    /// A string.
    case string(String)
    /// An array, in order.
    case array([JSONTree])
    /// An object; the writer sorts its keys.
    case object([String: JSONTree])

    /// The tree of a parsed document. Duplicate keys keep the last value; an integer literal
    /// beyond 64 bits becomes a double.
    public init(_ node: JSONNode) {
        switch node.value {
        case .null: self = .null
        case .bool(let value): self = .bool(value)
        case .number(let number):
            if number.isIntegerLiteral, let integer = number.integerValue {
                self = .integer(integer)
            } else {
                self = .number(number.doubleValue)
            }
        case .string(let text): self = .string(text)
        case .array(let items): self = .array(items.map(JSONTree.init))
        case .object(let members):
            var result: [String: JSONTree] = [:]
            for member in members { result[member.key] = JSONTree(member.value) }
            self = .object(result)
        }
    }

    /// The member `key` of an object; nil for anything else.
    public subscript(key: String) -> JSONTree? {
        guard case .object(let members) = self else { return nil }
        return members[key]
    }

    /// The members of an object; nil for anything else.
    public var objectValue: [String: JSONTree]? {
        if case .object(let members) = self { return members }
        return nil
    }

    /// The items of an array; nil for anything else.
    public var arrayValue: [JSONTree]? {
        if case .array(let items) = self { return items }
        return nil
    }

    /// The text of a string; nil for anything else.
    public var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// The value of a number as a double (integers converted); nil for anything else.
    public var numberValue: Double? {
        switch self {
        case .integer(let value): return Double(value)
        case .number(let value): return value
        default: return nil
        }
    }

    /// The tree of a JSON constant.
    public init(_ constant: JSONConstant) {
        switch constant {
        case .null: self = .null
        case .bool(let value): self = .bool(value)
        case .integer(let value): self = .integer(value)
        case .string(let value): self = .string(value)
        }
    }

    /// An array of strings.
    public static func strings(_ values: [String]) -> JSONTree { .array(values.map(JSONTree.string)) }
}
