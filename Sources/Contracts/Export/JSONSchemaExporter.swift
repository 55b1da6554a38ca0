/// Emits JSON Schema (draft 2020-12) from a contract's declaration — the same ``Schema`` and
/// ``ContractRule/form`` values the validator walks, so the two cannot drift apart.
///
/// Cross-field rules with a ``RuleForm`` become `allOf` entries of `if`/`then` (or
/// `dependentRequired` for "member a needs member b"); the others are
/// listed in the schema's `description` and in `x-rules` with their ids. Keywords starting
/// with `x-` are annotations for tools (validators ignore them): `x-direction`, `x-rule`
/// (the id a node's violations carry), `x-format` (the format's name) and
/// `x-unknown-value-fallback` (what an app does with a value it cannot read), which the
/// breaking-change diff reads.
///
/// ```swift
/// let tree = JSONSchemaExporter.document(for: contract)
/// let text = JSONTreeWriter.prettyText(tree)
/// ```
public enum JSONSchemaExporter {
    /// The dialect every emitted schema declares.
    public static let dialect = "https://json-schema.org/draft/2020-12/schema"
    /// The base of every `$id`; a contract's is `<base><name>.schema.json`.
    public static let idBase = "https://pushcontracts.dev/schemas/v1/"

    /// The golden file name of `contract`: `<name>.schema.json`.
    public static func fileName(for contract: Contract) -> String { contract.name + ".schema.json" }

    /// The `$id` of `contract`'s schema.
    public static func schemaID(for contract: Contract) -> String { idBase + fileName(for: contract) }

    /// The whole schema document of `contract`.
    public static func document(for contract: Contract) -> JSONTree {
        guard case .object(var root) = node(contract.schema) else { return .null }
        root["$schema"] = .string(dialect)
        root["$id"] = .string(schemaID(for: contract))
        root["title"] = .string(contract.name)
        root["x-direction"] = .string(contract.direction.rawValue)
        if let parameter = contract.pathParameter { root["x-path-parameter"] = .string(parameter) }

        var conditionals: [JSONTree] = []
        var unexpressed: [ContractRule] = []
        for rule in contract.rules {
            if let form = rule.form {
                var entry: [String: JSONTree] = ["x-rule": .string(rule.id), "description": .string(rule.summary)]
                if case .present(let when) = form.when, case .present(let then) = form.then, when.count == 1, then.count == 1 {
                    // "a needs b" between two top-level members is JSON Schema's own keyword.
                    entry["dependentRequired"] = .object([when[0]: .strings(then)])
                } else {
                    entry["if"] = condition(form.when)
                    entry["then"] = condition(form.then)
                }
                conditionals.append(.object(entry))
            } else {
                unexpressed.append(rule)
            }
        }
        if !conditionals.isEmpty { root["allOf"] = .array(conditionals) }
        var description = contract.summary
        if let summary = contract.schema.summary, summary != contract.summary { description += " " + summary }
        if !unexpressed.isEmpty {
            description += "\n\nRules JSON Schema cannot express (checked by contract-check):"
            for rule in unexpressed { description += "\n- \(rule.id) (\(rule.severity.rawValue)): \(rule.summary)" }
            root["x-rules"] = .array(unexpressed.map { rule in
                .object(["id": .string(rule.id), "severity": .string(rule.severity.rawValue), "summary": .string(rule.summary)])
            })
        }
        root["description"] = .string(description)
        return .object(root)
    }

    /// The JSON Schema of one node (no `$schema`, no rules): used for members, and by the
    /// OpenAPI exporter for request bodies and path parameters.
    public static func node(_ schema: Schema) -> JSONTree {
        var result: [String: JSONTree] = [:]
        switch schema.kind {
        case .any:
            break
        case .object(let object):
            result["type"] = .string("object")
            var properties: [String: JSONTree] = [:]
            for member in object.members {
                var property = node(member.schema)
                if let fallback = member.unknownValueFallback, case .object(var fields) = property {
                    fields["x-unknown-value-fallback"] = .string(fallback)
                    property = .object(fields)
                }
                properties[member.name] = property
            }
            if !properties.isEmpty { result["properties"] = .object(properties) }
            let required = object.requiredNames
            if !required.isEmpty { result["required"] = .strings(required) }
            if object.unknownMembers == .reject { result["additionalProperties"] = .bool(false) }
        case .string(let string):
            result["type"] = .string("string")
            if let minimum = string.minLength { result["minLength"] = .integer(Int64(minimum)) }
            if let maximum = string.maxLength { result["maxLength"] = .integer(Int64(maximum)) }
            if let format = string.format {
                result["pattern"] = .string(format.pattern)
                result["x-format"] = .string(format.name)
                if let annotation = format.jsonSchemaFormat { result["format"] = .string(annotation) }
            }
            if let values = string.allowedValues { result["enum"] = .strings(values) }
        case .integer(let integer):
            result["type"] = .string("integer")
            if let minimum = integer.minimum { result["minimum"] = .integer(minimum) }
            if let maximum = integer.maximum { result["maximum"] = .integer(maximum) }
        case .number(let number):
            result["type"] = .string("number")
            if let minimum = number.minimum { result["minimum"] = .number(minimum) }
            if let maximum = number.maximum { result["maximum"] = .number(maximum) }
        case .boolean:
            result["type"] = .string("boolean")
        case .integerFlag:
            result["type"] = .string("integer")
            result["enum"] = .array([.integer(0), .integer(1)])
        case .constants(let constants):
            result["enum"] = .array(constants.map(JSONTree.init))
        case .array(let array):
            result["type"] = .string("array")
            result["items"] = node(array.items)
            if let minimum = array.minItems { result["minItems"] = .integer(Int64(minimum)) }
            if let maximum = array.maxItems { result["maxItems"] = .integer(Int64(maximum)) }
        case .nullable(let inner):
            result["anyOf"] = .array([node(inner), .object(["type": .string("null")])])
        case .anyOf(let alternatives):
            result["anyOf"] = .array(alternatives.map(node))
        case .forbidden(let reason):
            result["not"] = .object([:])
            result["x-forbidden"] = .string(reason)
        }
        if let summary = schema.summary { result["description"] = .string(summary) }
        if let rule = schema.ruleID { result["x-rule"] = .string(rule) }
        return .object(result)
    }

    /// A ``RuleCondition`` as a schema that the document satisfies exactly when it holds.
    public static func condition(_ rule: RuleCondition) -> JSONTree {
        switch rule {
        case .present(let path):
            return nested(path, leaf: nil)
        case .absent(let path):
            return .object(["not": nested(path, leaf: nil)])
        case .equals(let path, let constants):
            let leaf: JSONTree = constants.count == 1
                ? .object(["const": JSONTree(constants[0])])
                : .object(["enum": .array(constants.map(JSONTree.init))])
            return nested(path, leaf: leaf)
        case .matches(let path, let format):
            return nested(path, leaf: .object(["type": .string("string"), "pattern": .string(format.pattern)]))
        case .allOf(let conditions):
            return .object(["allOf": .array(conditions.map { Self.condition($0) })])
        case .anyOf(let conditions):
            return .object(["anyOf": .array(conditions.map { Self.condition($0) })])
        case .not(let inner):
            return .object(["not": Self.condition(inner)])
        }
    }

    /// `{"required": [a], "properties": {a: {"type": "object", "required": [b], …}}}`: the
    /// member at `path` exists (every step an object) and, when `leaf` is given, follows it.
    static func nested(_ path: [String], leaf: JSONTree?) -> JSONTree {
        guard let first = path.first else { return leaf ?? .object([:]) }
        var level: [String: JSONTree] = ["required": .strings([first])]
        let rest = Array(path.dropFirst())
        if rest.isEmpty {
            if let leaf { level["properties"] = .object([first: leaf]) }
        } else {
            guard case .object(var inner) = nested(rest, leaf: leaf) else { return .object(level) }
            inner["type"] = .string("object")
            level["properties"] = .object([first: .object(inner)])
        }
        return .object(level)
    }
}

extension JSONSchemaExporter {
    /// The golden file text of `contract`: pretty-printed, sorted keys, final newline.
    public static func emittedText(for contract: Contract) -> String {
        JSONTreeWriter.prettyText(document(for: contract))
    }
}
