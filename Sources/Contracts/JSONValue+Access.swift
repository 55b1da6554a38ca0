/// Typed views of a `JSONValue`, so validators and tests read a tree without `switch` noise.
/// Each returns nil when the value is of another type: `true` is not an integer, `1` is not a Bool.
public extension JSONValue {
    /// The string, when this is a string.
    var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// The Boolean, when this is `true` or `false` (never for `0`/`1`).
    var boolValue: Bool? {
        if case .bool(let flag) = self { return flag }
        return nil
    }

    /// The number, when this is a number.
    var numberValue: JSONNumber? {
        if case .number(let number) = self { return number }
        return nil
    }

    /// The integer, when this is an integer literal that fits `Int64` (`1.0` and `1e0` are not).
    var integerValue: Int64? {
        if case .number(let number) = self, number.isIntegerLiteral { return number.integerValue }
        return nil
    }

    /// True for `null`.
    var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The members in source order, duplicates included, when this is an object.
    var objectMembers: [JSONMember]? {
        if case .object(let members) = self { return members }
        return nil
    }

    /// The elements, when this is an array.
    var arrayElements: [JSONNode]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    /// The first member named `key`, when this is an object that has one.
    ///
    /// "First" matches what a client reading the JSON with a last-wins parser would *not*
    /// see; validators report duplicates separately (`duplicateKeys`) for that reason.
    func member(_ key: String) -> JSONMember? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }
    }

    /// Every member whose key already appeared earlier in the same object, paired with that
    /// first occurrence (both carry positions). Empty for non-objects and objects without
    /// duplicates. Only this object's own keys are compared, not nested objects'.
    var duplicateKeys: [(first: JSONMember, duplicate: JSONMember)] {
        guard case .object(let members) = self, members.count > 1 else { return [] }
        var result: [(first: JSONMember, duplicate: JSONMember)] = []
        if members.count <= 16 {
            for (index, member) in members.enumerated() {
                if let first = members[..<index].first(where: { $0.key == member.key }) {
                    result.append((first, member))
                }
            }
            return result
        }
        var firstIndex: [String: Int] = [:]
        for (index, member) in members.enumerated() {
            if let earlier = firstIndex[member.key] {
                result.append((members[earlier], member))
            } else {
                firstIndex[member.key] = index
            }
        }
        return result
    }
}

/// The same views on a node, so `node.member("aps")?.value.member("alert")` reads naturally.
public extension JSONNode {
    /// The string, when this node is a string.
    var stringValue: String? { value.stringValue }
    /// The Boolean, when this node is `true` or `false`.
    var boolValue: Bool? { value.boolValue }
    /// The number, when this node is a number.
    var numberValue: JSONNumber? { value.numberValue }
    /// The integer, when this node is an integer literal that fits `Int64`.
    var integerValue: Int64? { value.integerValue }
    /// True for `null`.
    var isNull: Bool { value.isNull }
    /// The members in source order, duplicates included, when this node is an object.
    var objectMembers: [JSONMember]? { value.objectMembers }
    /// The elements, when this node is an array.
    var arrayElements: [JSONNode]? { value.arrayElements }
    /// The first member named `key`, when this node is an object that has one.
    func member(_ key: String) -> JSONMember? { value.member(key) }
    /// Later members whose key repeats an earlier one, each with that first occurrence.
    var duplicateKeys: [(first: JSONMember, duplicate: JSONMember)] { value.duplicateKeys }
}
