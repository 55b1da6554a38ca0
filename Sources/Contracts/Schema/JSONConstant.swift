/// A JSON scalar constant, used by ``Schema/Kind/constants(_:)`` and by rule forms.
public enum JSONConstant: Sendable, Hashable, CustomStringConvertible {
    /// JSON `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// An integer.
    case integer(Int64)
    /// A string.
    case string(String)

    /// True when `node` is exactly this constant (`1` never equals `true`; `1.0` is not `1`).
    public func matches(_ node: JSONNode) -> Bool {
        switch (self, node.value) {
        case (.null, .null): return true
        case let (.bool(expected), .bool(found)): return expected == found
        case let (.integer(expected), .number(found)): return found.isIntegerLiteral && found.integerValue == expected
        case let (.string(expected), .string(found)): return expected == found
        default: return false
        }
    }

    /// The constant as JSON text: `null`, `true`, `7`, `"ORDER_UPDATE"`.
    public var description: String {
        switch self {
        case .null: return "null"
        case .bool(let value): return value ? "true" : "false"
        case .integer(let value): return String(value)
        case .string(let value): return "\"\(value)\""
        }
    }
}
