/// Whether a rule id is enforced by the emitted JSON Schema, so a third-party validator
/// must reject what it rejects.
public struct RuleExpressibility: Sendable, Hashable {
    /// The rule id.
    public var id: String
    /// True when the emitted JSON Schema enforces the rule.
    public var isExpressible: Bool
    /// Why, in a few words ("if/then", "duplicate keys vanish when parsed", …).
    public var reason: String

    /// A verdict for rule `id`.
    public init(id: String, isExpressible: Bool, reason: String) {
        self.id = id
        self.isExpressible = isExpressible
        self.reason = reason
    }

    /// Every rule id `contract` can report, with the exporter's verdict.
    ///
    /// Schema rules are expressed as keywords, except duplicate keys (a parsed document has
    /// none left to see). Cross-field rules are expressed when they have a ``RuleForm``;
    /// warnings never are (they must not make a valid document fail).
    public static func of(_ contract: Contract) -> [RuleExpressibility] {
        let forms = Dictionary(contract.rules.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        return contract.ruleCatalog.map { descriptor in
            let id = descriptor.id
            switch descriptor.origin {
            case .reader:
                return RuleExpressibility(id: id, isExpressible: false, reason: "not JSON at all")
            case .schema:
                if id.hasSuffix(".duplicate-key") {
                    return RuleExpressibility(id: id, isExpressible: false, reason: "duplicate keys vanish when a validator parses the document")
                }
                return RuleExpressibility(id: id, isExpressible: true, reason: "schema keyword")
            case .crossField:
                if descriptor.severity == .warning {
                    return RuleExpressibility(id: id, isExpressible: false, reason: "a warning, not a constraint")
                }
                if forms[id]?.form != nil {
                    return RuleExpressibility(id: id, isExpressible: true, reason: "if/then")
                }
                return RuleExpressibility(id: id, isExpressible: false, reason: "listed in x-rules")
            }
        }
    }

    /// The verdicts of every contract in `set`; an id is expressible only if it is in every
    /// contract that reports it (the `.apns` file shares the payload's ids).
    public static func of(_ set: ContractSet) -> [RuleExpressibility] {
        var order: [String] = []
        var verdicts: [String: RuleExpressibility] = [:]
        for contract in set.contracts {
            for verdict in of(contract) {
                if let existing = verdicts[verdict.id] {
                    if existing.isExpressible && !verdict.isExpressible { verdicts[verdict.id] = verdict }
                } else {
                    order.append(verdict.id)
                    verdicts[verdict.id] = verdict
                }
            }
        }
        return order.compactMap { verdicts[$0] }
    }
}
