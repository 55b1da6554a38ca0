/// A condition on members of a document, as JSON Schema can express it.
public indirect enum RuleCondition: Sendable, Hashable {
    /// The member exists (JSON Schema `required`).
    case present([String])
    /// The member does not exist (`not` + `required`).
    case absent([String])
    /// The member exists and equals one of the constants (`required` + `enum`/`const`).
    case equals([String], [JSONConstant])
    /// The member exists, is a string, and has the format (`required` + `type` + `pattern`).
    case matches([String], StringFormat)
    /// Every condition holds (`allOf`).
    case allOf([RuleCondition])
    /// At least one condition holds (`anyOf`).
    case anyOf([RuleCondition])
    /// The condition does not hold (`not`).
    case not(RuleCondition)

    /// Evaluates the condition on `document`.
    public func holds(for document: JSONNode) -> Bool {
        switch self {
        case .present(let path):
            return NodeQuery.node(at: path, in: document) != nil
        case .absent(let path):
            return NodeQuery.node(at: path, in: document) == nil
        case .equals(let path, let constants):
            guard let node = NodeQuery.node(at: path, in: document) else { return false }
            return constants.contains { $0.matches(node) }
        case .matches(let path, let format):
            guard let node = NodeQuery.node(at: path, in: document), case .string(let text) = node.value else { return false }
            return format.matches(text)
        case .allOf(let conditions):
            return conditions.allSatisfy { $0.holds(for: document) }
        case .anyOf(let conditions):
            return conditions.contains { $0.holds(for: document) }
        case .not(let condition):
            return !condition.holds(for: document)
        }
    }
}
