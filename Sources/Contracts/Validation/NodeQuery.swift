/// Small lookups the cross-field rules share. Objects keep duplicates; a lookup takes the
/// last occurrence, as most JSON readers (and APNs) do.
enum NodeQuery {
    /// The last member called `name` of `node`, when `node` is an object.
    static func member(_ name: String, of node: JSONNode) -> JSONMember? {
        guard case .object(let members) = node.value else { return nil }
        let count = name.utf8.count
        var index = members.count
        while index > 0 {
            index &-= 1
            if members[index].key.utf8.count == count && members[index].key == name { return members[index] }
        }
        return nil
    }

    /// The node at a member path from `document`, when every step is an object member.
    static func node(at path: [String], in document: JSONNode) -> JSONNode? {
        var current = document
        for index in path.indices {
            guard let next = member(path[index], of: current) else { return nil }
            current = next.value
        }
        return current
    }

    /// The member at `path` (its key position and value), when every step is an object member.
    static func memberNode(at path: [String], in document: JSONNode) -> JSONMember? {
        guard let last = path.last, let parent = node(at: Array(path.dropLast()), in: document) else { return nil }
        return member(last, of: parent)
    }

    /// The string at `path`, if it is one.
    static func string(at path: [String], in document: JSONNode) -> String? {
        guard let node = node(at: path, in: document), case .string(let text) = node.value else { return nil }
        return text
    }

    /// True when the value at `path` is the integer literal `value`.
    static func isInteger(_ value: Int64, at path: [String], in document: JSONNode) -> Bool {
        guard let node = node(at: path, in: document) else { return false }
        return JSONConstant.integer(value).matches(node)
    }

    /// "true", "7", "\"text\"", "an object" — how a found value is named in messages.
    static func describe(_ node: JSONNode) -> String {
        switch node.value {
        case .null: return "null"
        case .bool(let value): return value ? "true" : "false"
        case .number(let number): return FormatMatchers.clipped(number.literal)
        case .string(let text): return "\"\(FormatMatchers.clipped(text))\""
        case .array(let items): return items.isEmpty ? "an empty array" : "an array"
        case .object(let members): return members.isEmpty ? "an empty object" : "an object"
        }
    }
}
