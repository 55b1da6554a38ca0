/// The generic rule ids of one namespace (`payload.type`, `payload.required`, …), built once
/// per contract (see ``Contract/ruleNamespace``) rather than on every validation. A class, so
/// copying a ``Contract`` (once per checked file) retains one object, not ten strings.
final class GenericRuleIDs: Sendable, Hashable {
    let namespace: String
    let type: String
    let required: String
    let unknownMember: String
    let duplicateKey: String
    let enumeration: String
    let format: String
    let length: String
    let range: String
    let integerFlag: String
    let forbidden: String

    init(namespace: String) {
        self.namespace = namespace
        type = namespace + ".type"
        required = namespace + ".required"
        unknownMember = namespace + ".unknown-member"
        duplicateKey = namespace + ".duplicate-key"
        enumeration = namespace + ".enum"
        format = namespace + ".format"
        length = namespace + ".length"
        range = namespace + ".range"
        integerFlag = namespace + ".integer-flag"
        forbidden = namespace + ".forbidden"
    }

    static func == (lhs: GenericRuleIDs, rhs: GenericRuleIDs) -> Bool { lhs.namespace == rhs.namespace }

    func hash(into hasher: inout Hasher) { hasher.combine(namespace) }
}
