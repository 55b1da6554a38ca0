/// Walks a document against a ``Schema`` and collects every violation.
///
/// Pointers are built only when a violation is reported: the walk keeps the path as a
/// stack of unescaped tokens.
struct SchemaValidator {
    let ids: GenericRuleIDs
    private(set) var violations: [Violation] = []
    private var path: [String] = []

    init(ids: GenericRuleIDs) {
        self.ids = ids
        path.reserveCapacity(8)
    }

    mutating func validate(_ node: JSONNode, against schema: Schema) {
        switch schema.kind {
        case .any:
            return
        case .object(let object):
            validateObject(node, object, schema)
        case .string(let string):
            validateString(node, string, schema)
        case .integer(let integer):
            validateInteger(node, integer, schema)
        case .number(let number):
            guard case .number(let value) = node.value else { return typeMismatch(node, schema) }
            if let minimum = number.minimum, value.doubleValue < minimum {
                report(node, schema, ids.range, "expected at least \(minimum), found \(value.literal)", "raise it")
            }
            if let maximum = number.maximum, value.doubleValue > maximum {
                report(node, schema, ids.range, "expected at most \(maximum), found \(value.literal)", "lower it")
            }
        case .boolean:
            guard case .bool = node.value else { return typeMismatch(node, schema) }
        case .integerFlag:
            validateFlag(node, schema)
        case .constants(let constants):
            guard !constants.contains(where: { $0.matches(node) }) else { return }
            let list = SchemaValidator.list(constants.map(\.description))
            report(node, schema, ids.enumeration, "expected one of \(list), found \(NodeQuery.describe(node))", "use one of these")
        case .array(let array):
            validateArray(node, array, schema)
        case .nullable(let inner):
            if case .null = node.value { return }
            if !SchemaValidator.accepts(inner, node) { return typeMismatch(node, schema) }
            validate(node, against: inner)
        case .anyOf(let alternatives):
            validateAnyOf(node, alternatives, schema)
        case .forbidden(let reason):
            report(node, schema, ids.forbidden, "expected nothing here, found \(NodeQuery.describe(node))", reason)
        }
    }

    // MARK: - Objects

    private mutating func validateObject(_ node: JSONNode, _ object: ObjectSchema, _ schema: Schema) {
        guard case .object(let members) = node.value else { return typeMismatch(node, schema) }
        reportDuplicates(members)
        // By index: copying each member (key and value) would retain and release both.
        for position in members.indices {
            let key = members[position].key
            guard let index = object.memberIndex(named: key) else {
                if object.unknownMembers == .reject { reportUnknown(members[position], object) }
                continue
            }
            path.append(key)
            if case .forbidden(let reason) = object.members[index].schema.kind {
                let id = object.members[index].schema.ruleID ?? ids.forbidden
                add(id, at: members[position].keyPosition, "expected no member \"\(key)\", found one — \(SchemaValidator.sentence(reason)).")
            } else {
                validate(members[position].value, against: object.members[index].schema)
            }
            path.removeLast()
        }
        for index in object.members.indices where object.members[index].isRequired {
            let name = object.members[index].name
            let count = name.utf8.count
            guard !members.contains(where: { $0.key.utf8.count == count && $0.key == name }) else { continue }
            reportMissing(object.members[index], in: node, members, object)
        }
    }

    private mutating func reportMissing(_ declared: Member, in node: JSONNode, _ members: [JSONMember], _ object: ObjectSchema) {
        let what = SchemaValidator.expectation(declared.schema)
        let why = declared.schema.summary.map { " (\(SchemaValidator.sentence($0)))" } ?? ""
        let undeclared = members.map(\.key).filter { object.memberIndex(named: $0) == nil }
        let found = Suggestion.closest(to: declared.name, among: undeclared, maxEdits: 2).map { "none, but \"\($0)\"" } ?? "none"
        add(declared.requiredRuleID ?? ids.required, at: node.position,
            "expected member \"\(declared.name)\" (\(what)), found \(found) — add it\(why).")
    }

    private mutating func reportDuplicates(_ members: [JSONMember]) {
        guard members.count > 1 else { return }
        if members.count <= 16 {
            for index in 1..<members.count {
                let count = members[index].key.utf8.count
                for earlier in 0..<index where members[earlier].key.utf8.count == count && members[earlier].key == members[index].key {
                    reportDuplicate(members[index], first: members[earlier])
                    break
                }
            }
        } else {
            var seen: [String: SourcePosition] = [:]
            for member in members {
                if let first = seen[member.key] {
                    reportDuplicate(member, firstAt: first)
                } else {
                    seen[member.key] = member.keyPosition
                }
            }
        }
    }

    private mutating func reportDuplicate(_ member: JSONMember, first: JSONMember) {
        reportDuplicate(member, firstAt: first.keyPosition)
    }

    private mutating func reportDuplicate(_ member: JSONMember, firstAt first: SourcePosition) {
        violations.append(Violation(
            pointer: JSONPointer.make(path, appending: member.key), ruleID: ids.duplicateKey, position: member.keyPosition,
            message: "expected each key once, found \"\(member.key)\" again (first at \(first)) — readers keep only one of them; remove the other."))
    }

    private mutating func reportUnknown(_ member: JSONMember, _ object: ObjectSchema) {
        let names = object.members.filter { if case .forbidden = $0.schema.kind { return false }; return true }.map(\.name)
        var advice = "remove it"
        if let suggestion = Suggestion.closest(to: member.key, among: names, maxEdits: 2) {
            advice = "did you mean \"\(suggestion)\"? Rename it or remove it"
        }
        let accepted = names.isEmpty ? "no members" : names.map { "\"\($0)\"" }.joined(separator: ", ")
        violations.append(Violation(
            pointer: JSONPointer.make(path, appending: member.key), ruleID: ids.unknownMember, position: member.keyPosition,
            message: "unexpected member \"\(member.key)\"; expected only \(accepted) — \(advice)."))
    }

    // MARK: - Scalars

    private mutating func validateString(_ node: JSONNode, _ string: StringSchema, _ schema: Schema) {
        guard case .string(let text) = node.value else { return typeMismatch(node, schema) }
        if let allowed = string.allowedValues, !allowed.contains(text) {
            let list = SchemaValidator.list(allowed.map { "\"\($0)\"" })
            let hint = Suggestion.closest(to: text, among: allowed, maxEdits: 2).map { "did you mean \"\($0)\"?" } ?? "use one of these"
            report(node, schema, ids.enumeration, "expected one of \(list), found \"\(FormatMatchers.clipped(text))\"", hint)
        }
        var lengthFailed = false
        if string.minLength != nil || string.maxLength != nil, SchemaValidator.mayViolateLength(text, string) {
            let count = FormatMatchers.scalarCount(text)
            if let minimum = string.minLength, count < minimum {
                lengthFailed = true
                report(node, schema, ids.length, "expected at least \(minimum) characters, found \(count)", "lengthen it")
            }
            if let maximum = string.maxLength, count > maximum {
                lengthFailed = true
                report(node, schema, ids.length, "expected at most \(maximum) characters, found \(count)", "shorten it")
            }
        }
        if let format = string.format, !(lengthFailed && text.isEmpty), let problem = format.problem(with: text) {
            report(node, schema, ids.format, "expected \(format.expectation), found \(problem)", "fix the value")
        }
    }

    private mutating func validateInteger(_ node: JSONNode, _ integer: IntegerSchema, _ schema: Schema) {
        guard case .number(let number) = node.value, number.isIntegerLiteral else { return typeMismatch(node, schema) }
        guard let value = number.integerValue else {
            return report(node, schema, ids.range, "expected an integer that fits in 64 bits, found \(FormatMatchers.clipped(number.literal))", "use a smaller number")
        }
        if let minimum = integer.minimum, value < minimum {
            report(node, schema, ids.range, "expected at least \(minimum), found \(value)", "raise it")
        }
        if let maximum = integer.maximum, value > maximum {
            report(node, schema, ids.range, "expected at most \(maximum), found \(value)", "lower it")
        }
    }

    private mutating func validateFlag(_ node: JSONNode, _ schema: Schema) {
        if JSONConstant.integer(0).matches(node) || JSONConstant.integer(1).matches(node) { return }
        let advice: String
        switch node.value {
        case .bool(true): advice = "APNs reads booleans as absent; write 1"
        case .bool(false): advice = "APNs reads booleans as absent; write 0 or leave the key out"
        case .string: advice = "write the number 1 (not a string) or leave the key out"
        default: advice = "write 1 to turn it on, or leave the key out"
        }
        let id = schema.ruleID ?? ids.integerFlag
        add(id, at: node.position, "expected 0 or 1, found \(NodeQuery.describe(node)) — \(schema.advice ?? advice).")
    }

    private mutating func validateArray(_ node: JSONNode, _ array: ArraySchema, _ schema: Schema) {
        guard case .array(let items) = node.value else { return typeMismatch(node, schema) }
        if let minimum = array.minItems, items.count < minimum {
            report(node, schema, ids.length, "expected at least \(minimum) items, found \(items.count)", "add items")
        }
        if let maximum = array.maxItems, items.count > maximum {
            report(node, schema, ids.length, "expected at most \(maximum) items, found \(items.count)", "remove items")
        }
        for (index, item) in items.enumerated() {
            path.append(String(index))
            validate(item, against: array.items)
            path.removeLast()
        }
    }

    private mutating func validateAnyOf(_ node: JSONNode, _ alternatives: [Schema], _ schema: Schema) {
        // Each alternative is tried in place (no copy of the validator): what it reports is
        // cut off again, and the first failing alternative's violations are kept to report
        // when none passes — exactly what validating against that alternative again gives.
        let before = violations.count
        var candidate: [Violation]?
        for alternative in alternatives where SchemaValidator.accepts(alternative, node) {
            validate(node, against: alternative)
            if violations.count == before { return }
            if candidate == nil { candidate = Array(violations[before...]) }
            violations.removeSubrange(before...)
        }
        guard let candidate else { return typeMismatch(node, schema) }
        violations.append(contentsOf: candidate)
    }

    // MARK: - Reporting

    private mutating func typeMismatch(_ node: JSONNode, _ schema: Schema) {
        let expected = SchemaValidator.expectation(schema)
        report(node, schema, ids.type, "expected \(expected), found \(NodeQuery.describe(node))", "write \(expected)")
    }

    /// Reports a violation of `schema` at `node`: the schema's own rule id wins over the
    /// generic one, and its advice over the default.
    private mutating func report(_ node: JSONNode, _ schema: Schema, _ genericID: String, _ problem: String, _ defaultAdvice: String) {
        add(schema.ruleID ?? genericID, at: node.position, "\(problem) — \(schema.advice ?? defaultAdvice).")
    }

    private mutating func add(_ id: String, at position: SourcePosition, _ message: String) {
        violations.append(Violation(pointer: JSONPointer.make(path), ruleID: id, position: position, message: message))
    }

    // MARK: - Describing schemas

    /// False when the UTF-8 length alone proves the scalar count is within bounds (a scalar
    /// takes 1 to 4 bytes), which spares counting for almost every string.
    static func mayViolateLength(_ text: String, _ string: StringSchema) -> Bool {
        let bytes = text.utf8.count
        if let maximum = string.maxLength, bytes > maximum { return true }
        if let minimum = string.minLength, (bytes + 3) / 4 < minimum { return true }
        return false
    }

    /// `text` without a trailing period, to sit inside a sentence.
    static func sentence(_ text: String) -> String {
        text.hasSuffix(".") ? String(text.dropLast()) : text
    }

    /// A comma-separated list, cut after six items for long enumerations.
    static func list(_ items: [String]) -> String {
        guard items.count > 8 else { return items.joined(separator: ", ") }
        return items.prefix(6).joined(separator: ", ") + ", … (\(items.count) values)"
    }

    /// "a string", "0 or 1", "an object or null" — what a schema expects, for messages.
    static func expectation(_ schema: Schema) -> String {
        switch schema.kind {
        case .object: return "an object"
        case .string(let string):
            if let format = string.format { return "a string: \(format.expectation)" }
            return "a string"
        case .integer: return "an integer"
        case .number: return "a number"
        case .boolean: return "true or false"
        case .integerFlag: return "0 or 1"
        case .constants(let values): return "one of " + values.map(\.description).joined(separator: ", ")
        case .array: return "an array"
        case .nullable(let inner): return expectation(inner) + " or null"
        case .anyOf(let alternatives): return alternatives.map(expectation).joined(separator: " or ")
        case .forbidden: return "nothing"
        case .any: return "any value"
        }
    }

    /// True when `node`'s JSON type is one `schema` can accept, so its detailed checks apply.
    static func accepts(_ schema: Schema, _ node: JSONNode) -> Bool {
        switch (schema.kind, node.value) {
        case (.any, _), (.constants, _): return true
        case (.object, .object), (.string, .string), (.integer, .number), (.number, .number),
             (.boolean, .bool), (.array, .array), (.integerFlag, .number), (.integerFlag, .bool):
            return true
        case (.nullable, .null): return true
        case (.nullable(let inner), _): return accepts(inner, node)
        case (.anyOf(let alternatives), _): return alternatives.contains { accepts($0, node) }
        default: return false
        }
    }
}
