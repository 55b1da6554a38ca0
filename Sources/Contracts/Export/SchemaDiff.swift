/// Compares two emitted JSON Schemas of one contract (an old golden file and the current
/// emission) and lists every change, classified by the contract's direction.
///
/// It reads only what ``JSONSchemaExporter`` writes: `type`, `enum`/`const`, lengths,
/// `pattern`, `minimum`/`maximum`, `properties`/`required`/`additionalProperties`, `items`,
/// `anyOf`, `not: {}` (forbidden), `allOf` entries with `x-rule`, `x-rules`, `x-direction`
/// and `x-unknown-value-fallback`.
///
/// ```swift
/// let changes = SchemaDiff.compare(old: goldenTree, new: JSONSchemaExporter.document(for: contract))
/// let breaking = changes.filter(\.isBreaking)
/// ```
public struct SchemaDiff {
    let contract: String
    let direction: ContractDirection
    private(set) var changes: [SchemaChange] = []

    /// Every change from `old` to `new`, in a stable order (document order of the new schema).
    public static func compare(old: JSONTree, new: JSONTree) -> [SchemaChange] {
        let name = new["title"]?.stringValue ?? old["title"]?.stringValue ?? "?"
        let oldDirection = direction(of: old)
        let newDirection = direction(of: new)
        var diff = SchemaDiff(contract: name, direction: oldDirection ?? newDirection ?? .appToBackend)
        if let oldDirection, let newDirection, oldDirection != newDirection {
            diff.add(.directionChanged, "", "the contract flowed \(oldDirection.rawValue) and now flows \(newDirection.rawValue)")
        }
        diff.compareNode(old, new, pointer: "", fallback: nil)
        diff.compareRules(old, new)
        return diff.changes
    }

    /// Changes between two sets of schemas keyed by contract name: removed and added
    /// contracts, and every change of the contracts in both.
    public static func compare(old: [String: JSONTree], new: [String: JSONTree]) -> [SchemaChange] {
        var result: [SchemaChange] = []
        for name in old.keys.sorted() {
            guard let before = old[name] else { continue }
            let direction = self.direction(of: before) ?? .appToBackend
            guard let after = new[name] else {
                result.append(SchemaChange(contract: name, direction: direction, kind: .contractRemoved, pointer: "",
                                           isBreaking: true, message: "the contract \(name) is gone; its peers still send or read it"))
                continue
            }
            result += compare(old: before, new: after)
        }
        for name in new.keys.sorted() where old[name] == nil {
            let direction = new[name].flatMap(self.direction(of:)) ?? .appToBackend
            result.append(SchemaChange(contract: name, direction: direction, kind: .contractAdded, pointer: "",
                                       isBreaking: false, message: "a new contract \(name)"))
        }
        return result
    }

    static func direction(of schema: JSONTree) -> ContractDirection? {
        schema["x-direction"]?.stringValue.flatMap(ContractDirection.init(rawValue:))
    }

    // MARK: - Recording

    private mutating func add(_ kind: ChangeKind, _ pointer: String, _ what: String, fallback: String? = nil, openObject: Bool = false) {
        var breaking = kind.isBreaking(for: direction, hasFallback: fallback != nil)
        // Members old senders still send are only rejected by a closed object.
        if openObject && (kind == .memberRemoved || (kind == .requiredMemberRemoved && direction == .appToBackend)) {
            breaking = false
        }
        var message = what
        if breaking {
            message += " — " + consequence(kind)
        } else if let fallback, kind.isLoosening, direction != .appToBackend {
            message += " — old apps fall back (\(fallback))"
        }
        changes.append(SchemaChange(contract: contract, direction: direction, kind: kind, pointer: pointer,
                                    isBreaking: breaking, message: message))
    }

    private func consequence(_ kind: ChangeKind) -> String {
        switch direction {
        case .appToBackend:
            return "old app versions keep sending the old shape, and the backend would reject it"
        case .backendToApp:
            return "installed app versions read every payload and may not read this"
        case .providerToAPNs:
            return kind.breaksSenders
                ? "what the provider sends today would no longer be accepted"
                : "a provider built on the old contract may not read this"
        }
    }

    // MARK: - Nodes

    private mutating func compareNode(_ old: JSONTree, _ new: JSONTree, pointer: String, fallback inherited: String?) {
        let fallback = old["x-unknown-value-fallback"]?.stringValue ?? inherited
        let oldForbidden = Self.isForbidden(old)
        let newForbidden = Self.isForbidden(new)
        if newForbidden || oldForbidden {
            if newForbidden && !oldForbidden {
                add(.memberForbidden, pointer, "\(Self.place(pointer)) is now forbidden")
            } else if oldForbidden && !newForbidden {
                add(.memberAdded, pointer, "\(Self.place(pointer)) is no longer forbidden")
            }
            return
        }
        compareTypes(old, new, pointer: pointer, fallback: fallback)
        if let oldAlternatives = old["anyOf"]?.arrayValue ?? nil, let newAlternatives = new["anyOf"]?.arrayValue {
            for (before, after) in Self.pairAlternatives(oldAlternatives, newAlternatives) {
                compareNode(before, after, pointer: pointer, fallback: fallback)
            }
        } else if let oldAlternatives = old["anyOf"]?.arrayValue {
            for (before, after) in Self.pairAlternatives(oldAlternatives, [new]) {
                compareNode(before, after, pointer: pointer, fallback: fallback)
            }
        } else if let newAlternatives = new["anyOf"]?.arrayValue {
            for (before, after) in Self.pairAlternatives([old], newAlternatives) {
                compareNode(before, after, pointer: pointer, fallback: fallback)
            }
        }
        compareEnums(old, new, pointer: pointer, fallback: fallback)
        compareBounds(old, new, pointer: pointer, fallback: fallback)
        comparePatterns(old, new, pointer: pointer, fallback: fallback)
        compareObjects(old, new, pointer: pointer, fallback: fallback)
        if let before = old["items"], let after = new["items"] {
            compareNode(before, after, pointer: pointer + "/*", fallback: fallback)
        }
    }

    private mutating func compareTypes(_ old: JSONTree, _ new: JSONTree, pointer: String, fallback: String?) {
        let before = Self.types(of: old)
        let after = Self.types(of: new)
        switch (before, after) {
        case (nil, nil):
            return
        case (nil, let after?):
            add(.typeNarrowed, pointer, "\(Self.place(pointer)) accepted any value and now only \(Self.list(after))", fallback: fallback)
        case (let before?, nil):
            add(.typeWidened, pointer, "\(Self.place(pointer)) was \(Self.list(before)) and now accepts any value", fallback: fallback)
        case (let before?, let after?):
            let removed = before.filter { !Self.covers(after, $0) }.sorted()
            let added = after.filter { !Self.covers(before, $0) }.sorted()
            if !removed.isEmpty {
                add(.typeNarrowed, pointer, "\(Self.place(pointer)) no longer accepts \(Self.list(removed)) (now \(Self.list(after)))", fallback: fallback)
            }
            if !added.isEmpty {
                add(.typeWidened, pointer, "\(Self.place(pointer)) now also accepts \(Self.list(added)) (was \(Self.list(before)))", fallback: fallback)
            }
        }
    }

    private mutating func compareEnums(_ old: JSONTree, _ new: JSONTree, pointer: String, fallback: String?) {
        let before = Self.enumValues(old)
        let after = Self.enumValues(new)
        switch (before, after) {
        case (nil, nil):
            return
        case (nil, let after?):
            add(.enumValueRemoved, pointer, "\(Self.place(pointer)) is now limited to \(Self.values(after))", fallback: fallback)
        case (let before?, nil):
            add(.enumValueAdded, pointer, "\(Self.place(pointer)) was limited to \(Self.values(before)) and no longer is", fallback: fallback)
        case (let before?, let after?):
            for value in before where !after.contains(value) {
                add(.enumValueRemoved, pointer, "\(Self.place(pointer)) no longer accepts \(JSONTreeWriter.compactText(value))", fallback: fallback)
            }
            for value in after where !before.contains(value) {
                add(.enumValueAdded, pointer, "\(Self.place(pointer)) gained the value \(JSONTreeWriter.compactText(value))", fallback: fallback)
            }
        }
    }

    private mutating func compareBounds(_ old: JSONTree, _ new: JSONTree, pointer: String, fallback: String?) {
        let place = Self.place(pointer)
        for (keyword, isLength) in [("minLength", true), ("minItems", true), ("minimum", false)] {
            let before = old[keyword]?.numberValue
            let after = new[keyword]?.numberValue
            guard before != after else { continue }
            let tighter = (after ?? -Double.infinity) > (before ?? -Double.infinity)
            let kind: ChangeKind = isLength ? (tighter ? .lengthTightened : .lengthLoosened) : (tighter ? .rangeTightened : .rangeLoosened)
            add(kind, pointer, "\(place): \(keyword) \(Self.bound(before)) → \(Self.bound(after))", fallback: fallback)
        }
        for (keyword, isLength) in [("maxLength", true), ("maxItems", true), ("maximum", false)] {
            let before = old[keyword]?.numberValue
            let after = new[keyword]?.numberValue
            guard before != after else { continue }
            let tighter = (after ?? Double.infinity) < (before ?? Double.infinity)
            let kind: ChangeKind = isLength ? (tighter ? .lengthTightened : .lengthLoosened) : (tighter ? .rangeTightened : .rangeLoosened)
            add(kind, pointer, "\(place): \(keyword) \(Self.bound(before)) → \(Self.bound(after))", fallback: fallback)
        }
    }

    private mutating func comparePatterns(_ old: JSONTree, _ new: JSONTree, pointer: String, fallback: String?) {
        let before = old["pattern"]?.stringValue
        let after = new["pattern"]?.stringValue
        switch (before, after) {
        case (nil, let after?):
            add(.patternAdded, pointer, "\(Self.place(pointer)) must now match \(after)", fallback: fallback)
        case (let before?, nil):
            add(.patternRemoved, pointer, "\(Self.place(pointer)) no longer has to match \(before)", fallback: fallback)
        case (let before?, let after?) where before != after:
            add(.patternChanged, pointer, "\(Self.place(pointer)): pattern \(before) → \(after)", fallback: fallback)
        default:
            return
        }
    }

    private mutating func compareObjects(_ old: JSONTree, _ new: JSONTree, pointer: String, fallback: String?) {
        let oldProperties = old["properties"]?.objectValue ?? [:]
        let newProperties = new["properties"]?.objectValue ?? [:]
        let oldRequired = Set(old["required"]?.arrayValue?.compactMap(\.stringValue) ?? [])
        let newRequired = Set(new["required"]?.arrayValue?.compactMap(\.stringValue) ?? [])
        let oldClosed = old["additionalProperties"] == .bool(false)
        let newClosed = new["additionalProperties"] == .bool(false)
        let isObject = Self.types(of: old)?.contains("object") == true || Self.types(of: new)?.contains("object") == true
        guard isObject || !oldProperties.isEmpty || !newProperties.isEmpty else { return }

        if oldClosed && !newClosed {
            add(.unknownMembersAllowed, pointer, "\(Self.place(pointer)) now accepts members it does not declare", fallback: fallback)
        } else if !oldClosed && newClosed {
            add(.unknownMembersRejected, pointer, "\(Self.place(pointer)) now rejects members it does not declare", fallback: fallback)
        }
        let names = Set(oldProperties.keys).union(newProperties.keys).union(oldRequired).union(newRequired)
        for name in names.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            let child = pointer + "/" + Self.escape(name)
            let before = oldProperties[name]
            let after = newProperties[name]
            let wasRequired = oldRequired.contains(name)
            let isRequired = newRequired.contains(name)
            if before == nil && !wasRequired {
                add(isRequired ? .requiredAdded : .memberAdded, child,
                    isRequired ? "new required member \"\(name)\"" : "new optional member \"\(name)\"", fallback: fallback)
                continue
            }
            if after == nil && !isRequired {
                add(wasRequired ? .requiredMemberRemoved : .memberRemoved, child,
                    "member \"\(name)\" (\(wasRequired ? "required" : "optional")) is gone", fallback: fallback, openObject: !newClosed)
                continue
            }
            if wasRequired && !isRequired {
                add(.requiredRemoved, child, "\"\(name)\" is no longer required", fallback: fallback)
            } else if !wasRequired && isRequired {
                add(.requiredAdded, child, "\"\(name)\" is now required", fallback: fallback)
            }
            compareNode(before ?? .object([:]), after ?? .object([:]), pointer: child, fallback: fallback)
        }
    }

    // MARK: - Cross-field rules

    private mutating func compareRules(_ old: JSONTree, _ new: JSONTree) {
        let before = Self.rules(of: old)
        let after = Self.rules(of: new)
        for (id, form) in before.sorted(by: { $0.key < $1.key }) {
            guard let newForm = after[id] else {
                add(.ruleRemoved, "#" + id, "the rule \(id) is gone")
                continue
            }
            if newForm != form { add(.ruleChanged, "#" + id, "the rule \(id) says something else now") }
        }
        for id in after.keys.sorted() where before[id] == nil {
            add(.ruleAdded, "#" + id, "new rule \(id)")
        }
    }

    /// Rule id → its keywords (`if`/`then` or `dependentRequired`; the severity for a rule
/// only listed in `x-rules`), without the description, so rewording is not a change.
    static func rules(of schema: JSONTree) -> [String: JSONTree] {
        var result: [String: JSONTree] = [:]
        for entry in schema["allOf"]?.arrayValue ?? [] {
            guard let id = entry["x-rule"]?.stringValue, case .object(var form) = entry else { continue }
            form["description"] = nil
            result[id] = .object(form)
        }
        for entry in schema["x-rules"]?.arrayValue ?? [] {
            guard let id = entry["id"]?.stringValue else { continue }
            result[id] = .object(["severity": entry["severity"] ?? .null])
        }
        return result
    }

    // MARK: - Reading schemas

    static func isForbidden(_ schema: JSONTree) -> Bool {
        schema == .bool(false) || schema["not"] == .object([:])
    }

    /// The JSON types a node accepts; nil for any.
    static func types(of schema: JSONTree) -> Set<String>? {
        if isForbidden(schema) { return [] }
        if let type = schema["type"] {
            if let name = type.stringValue { return [name] }
            if let names = type.arrayValue { return Set(names.compactMap(\.stringValue)) }
        }
        if let values = enumValues(schema) { return Set(values.map(typeName)) }
        if let alternatives = schema["anyOf"]?.arrayValue {
            var union = Set<String>()
            for alternative in alternatives {
                guard let types = types(of: alternative) else { return nil }
                union.formUnion(types)
            }
            return union
        }
        return nil
    }

    static func typeName(_ value: JSONTree) -> String {
        switch value {
        case .null: return "null"
        case .bool: return "boolean"
        case .integer: return "integer"
        case .number: return "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }

    /// True when `types` accepts every value of `type` (`number` covers `integer`).
    static func covers(_ types: Set<String>, _ type: String) -> Bool {
        types.contains(type) || (type == "integer" && types.contains("number"))
    }

    static func enumValues(_ schema: JSONTree) -> [JSONTree]? {
        if let values = schema["enum"]?.arrayValue { return values }
        if let value = schema["const"] { return [value] }
        return nil
    }

    /// Pairs alternatives with the same types; an alternative without a partner is
    /// already reported as a type change.
    static func pairAlternatives(_ old: [JSONTree], _ new: [JSONTree]) -> [(JSONTree, JSONTree)] {
        var pairs: [(JSONTree, JSONTree)] = []
        var used = Set<Int>()
        for before in old {
            let types = self.types(of: before)
            for (index, after) in new.enumerated() where !used.contains(index) && self.types(of: after) == types {
                used.insert(index)
                pairs.append((before, after))
                break
            }
        }
        return pairs
    }

    static func escape(_ name: String) -> String {
        var result = ""
        for character in name {
            switch character {
            case "~": result += "~0"
            case "/": result += "~1"
            default: result.append(character)
            }
        }
        return result
    }

    static func place(_ pointer: String) -> String { pointer.isEmpty ? "the document" : pointer }

    static func list(_ types: some Collection<String>) -> String { types.sorted().joined(separator: " or ") }

    static func values(_ values: [JSONTree]) -> String { values.map(JSONTreeWriter.compactText).joined(separator: ", ") }

    static func bound(_ value: Double?) -> String {
        value.map(JSONTreeWriter.numberText) ?? "none"
    }
}
