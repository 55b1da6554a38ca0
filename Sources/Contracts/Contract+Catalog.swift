extension Contract {
    /// Every rule id this contract can report, each once: the ids its schema can raise
    /// (generic `<namespace>.*` ids and the schema's own overrides) and its cross-field rules.
    public var ruleCatalog: [RuleDescriptor] {
        var collector = CatalogCollector(namespace: ruleNamespace)
        collector.visit(schema, where: "the document")
        for rule in rules {
            collector.add(rule.id, rule.severity, rule.summary, .crossField)
        }
        return collector.descriptors
    }

    /// The ids of ``ruleCatalog``.
    public var ruleIDs: [String] { ruleCatalog.map(\.id) }
}

/// Walks a schema and lists the rule ids a validation of it can raise.
private struct CatalogCollector {
    let ids: GenericRuleIDs
    var descriptors: [RuleDescriptor] = []
    var seen = Set<String>()

    init(namespace: String) {
        ids = GenericRuleIDs(namespace: namespace)
    }

    mutating func add(_ id: String, _ summary: String) {
        add(id, .error, summary, .schema)
    }

    mutating func add(_ id: String, _ severity: Violation.Severity, _ summary: String, _ origin: RuleDescriptor.Origin) {
        guard seen.insert(id).inserted else { return }
        descriptors.append(RuleDescriptor(id: id, severity: severity, summary: summary, origin: origin))
    }

    /// Adds the ids `schema` can raise; `place` names the value in summaries of overrides.
    mutating func visit(_ schema: Schema, where place: String) {
        let own = schema.ruleID
        func node(_ generic: String, _ summary: String) -> (String, String) {
            if let own { return (own, schema.ruleSummary ?? "\(place): \(summary)") }
            return (generic, summary)
        }
        switch schema.kind {
        case .any:
            return
        case .object(let object):
            let (id, summary) = node(ids.type, "A value has the JSON type its schema declares.")
            add(id, summary)
            add(ids.duplicateKey, "An object has each key once.")
            if object.unknownMembers == .reject {
                add(ids.unknownMember, "An object has only the members its schema declares.")
            }
            for member in object.members {
                if member.isRequired {
                    let shared = member.schema.ruleID == member.requiredRuleID ? member.schema.ruleSummary : nil
                    add(member.requiredRuleID ?? ids.required,
                        member.requiredRuleID == nil ? "Required members are present." : shared ?? "\"\(member.name)\" is present.")
                }
                visit(member.schema, where: "\"\(member.name)\"")
            }
        case .string(let string):
            let (id, summary) = node(ids.type, "A value has the JSON type its schema declares.")
            add(id, summary)
            if string.allowedValues != nil {
                let (id, summary) = node(ids.enumeration, "A value is one of the values its schema lists.")
                add(id, summary)
            }
            if string.minLength != nil || string.maxLength != nil {
                let (id, summary) = node(ids.length, "A string's length is within its schema's bounds.")
                add(id, summary)
            }
            if string.format != nil {
                let (id, summary) = node(ids.format, "A string has its schema's format.")
                add(id, summary)
            }
        case .integer:
            let (id, summary) = node(ids.type, "A value has the JSON type its schema declares.")
            add(id, summary)
            // Always: a literal beyond 64 bits is a range violation even without bounds.
            let (rangeID, rangeSummary) = node(ids.range, "A number is within its schema's bounds.")
            add(rangeID, rangeSummary)
        case .number(let number):
            let (id, summary) = node(ids.type, "A value has the JSON type its schema declares.")
            add(id, summary)
            if number.minimum != nil || number.maximum != nil {
                let (rangeID, rangeSummary) = node(ids.range, "A number is within its schema's bounds.")
                add(rangeID, rangeSummary)
            }
        case .boolean:
            let (id, summary) = node(ids.type, "A value has the JSON type its schema declares.")
            add(id, summary)
        case .integerFlag:
            let (id, summary) = node(ids.integerFlag, "A flag is the integer 0 or 1, never a boolean.")
            add(id, summary)
        case .constants:
            let (id, summary) = node(ids.enumeration, "A value is one of the values its schema lists.")
            add(id, summary)
        case .array(let array):
            let (id, summary) = node(ids.type, "A value has the JSON type its schema declares.")
            add(id, summary)
            if array.minItems != nil || array.maxItems != nil {
                let (lengthID, lengthSummary) = node(ids.length, "An array's item count is within its schema's bounds.")
                add(lengthID, lengthSummary)
            }
            visit(array.items, where: place + " items")
        case .nullable(let inner):
            visit(inner, where: place)
        case .anyOf(let alternatives):
            let (id, summary) = node(ids.type, "A value has the JSON type its schema declares.")
            add(id, summary)
            for alternative in alternatives { visit(alternative, where: place) }
        case .forbidden(let reason):
            let (id, _) = node(ids.forbidden, reason)
            add(id, schema.ruleSummary ?? "\(place) is never sent: \(reason)")
        }
    }
}
