/// Small lookups the cross-field rules share. Objects keep duplicates; a lookup takes the
/// last occurrence, as most JSON readers (and APNs) do.
enum NodeQuery {
    /// The last member called `name` of `node`, when `node` is an object.
    static func member(_ name: String, of node: JSONNode) -> JSONMember? {
        guard case .object(let members) = node.value, let index = lastIndex(of: name, in: members) else { return nil }
        return members[index]
    }

    /// The value of the last member called `name` of `node`, when `node` is an object
    /// (no copy of the member's key).
    static func value(_ name: String, of node: JSONNode) -> JSONNode? {
        guard case .object(let members) = node.value, let index = lastIndex(of: name, in: members) else { return nil }
        return members[index].value
    }

    /// The value at `first`/`second` from `document`, when both steps are object members;
    /// `node(at: [first, second], in:)` without building the path.
    static func value(_ first: String, _ second: String, in document: JSONNode) -> JSONNode? {
        guard let parent = value(first, of: document) else { return nil }
        return value(second, of: parent)
    }

    /// The index of the last member called `name`.
    @inline(__always)
    static func lastIndex(of name: String, in members: [JSONMember]) -> Int? {
        let count = name.utf8.count
        var index = members.count
        while index > 0 {
            index &-= 1
            if members[index].key.utf8.count == count && members[index].key == name { return index }
        }
        return nil
    }

    /// The node at a member path from `document`, when every step is an object member.
    static func node(at path: [String], in document: JSONNode) -> JSONNode? {
        var current = document
        for index in path.indices {
            guard let next = value(path[index], of: current) else { return nil }
            current = next
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
