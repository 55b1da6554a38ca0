/// A cross-field rule as data, for the rules JSON Schema can express: "if `when` holds,
/// `then` must hold" (JSON Schema `if`/`then`).
///
/// Paths name object members from the document root; every member on the way must be an
/// object. An exporter emits `present(["aps", "alert"])` as
/// `{"required": ["aps"], "properties": {"aps": {"type": "object", "required": ["alert"]}}}`.
public struct RuleForm: Sendable, Hashable {
    /// The condition that makes the rule apply (JSON Schema `if`).
    public var when: RuleCondition
    /// What must hold when it applies (JSON Schema `then`).
    public var then: RuleCondition

    /// The rule "if `when` holds, `then` must hold".
    public init(when: RuleCondition, then: RuleCondition) {
        self.when = when
        self.then = then
    }

    /// True when `document` satisfies the rule (the condition does not hold, or the
    /// requirement does). The tests use this to keep a form and its check in agreement.
    public func holds(for document: JSONNode) -> Bool {
        !when.holds(for: document) || then.holds(for: document)
    }
}
