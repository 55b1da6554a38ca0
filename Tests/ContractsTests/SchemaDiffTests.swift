import Contracts
import Testing

/// One row of the breaking-change table: an old and a new declaration of contract `t`, and
/// every change the diff must report, as `id@pointer`.
struct DiffCase: CustomTestStringConvertible, Sendable {
    let name: String
    let old: Contract?
    let new: Contract?
    let expected: [String]
    var testDescription: String { name }
}

private let noCheck: ContractRule.Check = { _, _ in }

private func contract(_ direction: ContractDirection, _ schema: Schema, rules: [ContractRule] = []) -> Contract {
    Contract(name: "t", direction: direction, summary: "A test contract.", schema: schema, rules: rules)
}

private func object(_ members: [Member], open: Bool = false) -> Schema {
    .object(members, unknownMembers: open ? .allow : .reject)
}

private func formRule(_ then: String) -> ContractRule {
    ContractRule(id: "t.r", summary: "a needs \(then).", form: RuleForm(when: .present(["a"]), then: .present([then])), check: noCheck)
}

private let listedRule = ContractRule(id: "t.listed", summary: "Only listed in x-rules.", check: noCheck)

private func pair(_ name: String, _ direction: ContractDirection, _ old: Schema, _ new: Schema,
                  oldRules: [ContractRule] = [], newRules: [ContractRule] = [], _ expected: [String]) -> DiffCase {
    DiffCase(name: name, old: contract(direction, old, rules: oldRules), new: contract(direction, new, rules: newRules), expected: expected)
}

private let a: Member = .required("a", .string())
private let tags: Schema = .string(oneOf: ["x", "y"])

/// The table: every breaking id of every direction, and the non-breaking counterparts.
let diffCases: [DiffCase] = [
    // appToBackend: tightening breaks old apps that keep sending the old shape.
    pair("A new required member", .appToBackend, object([a]), object([a, .required("b", .string())]),
         ["breaking.app-to-backend.required-added@/b"]),
    pair("A optional became required", .appToBackend, object([a, .optional("b", .string())]), object([a, .required("b", .string())]),
         ["breaking.app-to-backend.required-added@/b"]),
    pair("A new optional member", .appToBackend, object([a]), object([a, .optional("b", .string())]),
         ["info.app-to-backend.member-added@/b"]),
    pair("A optional member removed, closed object", .appToBackend, object([a, .optional("b", .string())]), object([a]),
         ["breaking.app-to-backend.member-removed@/b"]),
    pair("A optional member removed, open object", .appToBackend, object([a, .optional("b", .string())], open: true), object([a], open: true),
         ["info.app-to-backend.member-removed@/b"]),
    pair("A required member removed, closed object", .appToBackend, object([a, .required("b", .string())]), object([a]),
         ["breaking.app-to-backend.required-member-removed@/b"]),
    pair("A required member removed, open object", .appToBackend, object([a, .required("b", .string())], open: true), object([a], open: true),
         ["info.app-to-backend.required-member-removed@/b"]),
    pair("A required became optional", .appToBackend, object([a]), object([.optional("a", .string())]),
         ["info.app-to-backend.required-removed@/a"]),
    pair("A member forbidden", .appToBackend, object([a, .optional("b", .string())]), object([a, .optional("b", .forbidden("no"))]),
         ["breaking.app-to-backend.member-forbidden@/b"]),
    pair("A enum value removed", .appToBackend, object([.required("a", tags)]), object([.required("a", .string(oneOf: ["x"]))]),
         ["breaking.app-to-backend.enum-value-removed@/a"]),
    pair("A enum value added", .appToBackend, object([.required("a", tags)]), object([.required("a", .string(oneOf: ["x", "y", "z"]))]),
         ["info.app-to-backend.enum-value-added@/a"]),
    pair("A enum introduced", .appToBackend, object([a]), object([.required("a", tags)]),
         ["breaking.app-to-backend.enum-value-removed@/a"]),
    pair("A maxLength lowered", .appToBackend, object([.required("a", .string(maxLength: 64))]), object([.required("a", .string(maxLength: 32))]),
         ["breaking.app-to-backend.length-tightened@/a"]),
    pair("A maxLength raised", .appToBackend, object([.required("a", .string(maxLength: 64))]), object([.required("a", .string(maxLength: 128))]),
         ["info.app-to-backend.length-loosened@/a"]),
    pair("A pattern added", .appToBackend, object([a]), object([.required("a", .string(format: .identifier))]),
         ["breaking.app-to-backend.pattern-added@/a"]),
    pair("A pattern changed", .appToBackend, object([.required("a", .string(format: .identifier))]), object([.required("a", .string(format: .hexBytes))]),
         ["breaking.app-to-backend.pattern-changed@/a"]),
    pair("A pattern removed", .appToBackend, object([.required("a", .string(format: .identifier))]), object([a]),
         ["info.app-to-backend.pattern-removed@/a"]),
    pair("A minimum raised", .appToBackend, object([.required("n", .integer(minimum: 0))]), object([.required("n", .integer(minimum: 1))]),
         ["breaking.app-to-backend.range-tightened@/n"]),
    pair("A maximum added", .appToBackend, object([.required("n", .integer())]), object([.required("n", .integer(maximum: 9))]),
         ["breaking.app-to-backend.range-tightened@/n"]),
    pair("A type narrowed", .appToBackend, object([.required("a", .anyOf([.string(), .integer()]))]), object([a]),
         ["breaking.app-to-backend.type-narrowed@/a"]),
    pair("A type widened", .appToBackend, object([.required("n", .integer())]), object([.required("n", .number())]),
         ["info.app-to-backend.type-widened@/n"]),
    pair("A unknown members now rejected", .appToBackend, object([a], open: true), object([a]),
         ["breaking.app-to-backend.unknown-members-rejected@"]),
    pair("A cross-field rule added", .appToBackend, object([a]), object([a]), newRules: [formRule("b")],
         ["breaking.app-to-backend.rule-added@#t.r"]),
    pair("A cross-field rule changed", .appToBackend, object([a]), object([a]), oldRules: [formRule("b")], newRules: [formRule("c")],
         ["breaking.app-to-backend.rule-changed@#t.r"]),
    pair("A cross-field rule removed", .appToBackend, object([a]), object([a]), oldRules: [formRule("b")],
         ["info.app-to-backend.rule-removed@#t.r"]),
    pair("A array items tightened", .appToBackend, object([.required("l", .array(of: .string(maxLength: 9)))]),
         object([.required("l", .array(of: .string(maxLength: 3)))]),
         ["breaking.app-to-backend.length-tightened@/l/*"]),
    pair("A nested required member", .appToBackend, object([.required("d", object([a]))]),
         object([.required("d", object([a, .required("m~/", .string())]))]),
         ["breaking.app-to-backend.required-added@/d/m~0~1"]),
    DiffCase(name: "A direction changed", old: contract(.appToBackend, object([a])), new: contract(.backendToApp, object([a])),
             expected: ["breaking.app-to-backend.direction-changed@"]),
    DiffCase(name: "A contract removed", old: contract(.appToBackend, object([a])), new: nil,
             expected: ["breaking.app-to-backend.contract-removed@"]),

    // backendToApp: every installed app reads it; loosening and removing what apps rely on break.
    pair("B new required member", .backendToApp, object([a], open: true), object([a, .required("b", .string())], open: true),
         ["info.backend-to-app.required-added@/b"]),
    pair("B optional member removed", .backendToApp, object([a, .optional("b", .string())], open: true), object([a], open: true),
         ["info.backend-to-app.member-removed@/b"]),
    pair("B required member removed (renamed)", .backendToApp, object([a, .required("b", .string())], open: true),
         object([a, .required("c", .string())], open: true),
         ["breaking.backend-to-app.required-member-removed@/b", "info.backend-to-app.required-added@/c"]),
    pair("B required became optional", .backendToApp, object([a]), object([.optional("a", .string())]),
         ["breaking.backend-to-app.required-removed@/a"]),
    pair("B enum value added", .backendToApp, object([.required("a", tags)]), object([.required("a", .string(oneOf: ["x", "y", "z"]))]),
         ["breaking.backend-to-app.enum-value-added@/a"]),
    pair("B enum value added with a fallback", .backendToApp, object([.optional("a", tags, fallback: "the app opens Home")]),
         object([.optional("a", .string(oneOf: ["x", "y", "z"]), fallback: "the app opens Home")]),
         ["info.backend-to-app.enum-value-added@/a"]),
    pair("B enum value removed", .backendToApp, object([.required("a", tags)]), object([.required("a", .string(oneOf: ["x"]))]),
         ["info.backend-to-app.enum-value-removed@/a"]),
    pair("B maxLength raised", .backendToApp, object([.required("a", .string(maxLength: 64))]), object([.required("a", .string(maxLength: 128))]),
         ["breaking.backend-to-app.length-loosened@/a"]),
    pair("B maxLength raised with a fallback", .backendToApp, object([.optional("a", .string(maxLength: 64), fallback: "ignored")]),
         object([.optional("a", .string(maxLength: 128), fallback: "ignored")]),
         ["info.backend-to-app.length-loosened@/a"]),
    pair("B minLength raised", .backendToApp, object([.required("a", .string(minLength: 1))]), object([.required("a", .string(minLength: 2))]),
         ["info.backend-to-app.length-tightened@/a"]),
    pair("B pattern removed", .backendToApp, object([.required("a", .string(format: .identifier))]), object([a]),
         ["breaking.backend-to-app.pattern-removed@/a"]),
    pair("B pattern changed", .backendToApp, object([.required("a", .string(format: .identifier))]), object([.required("a", .string(format: .hexBytes))]),
         ["breaking.backend-to-app.pattern-changed@/a"]),
    pair("B pattern added", .backendToApp, object([a]), object([.required("a", .string(format: .identifier))]),
         ["info.backend-to-app.pattern-added@/a"]),
    pair("B maximum raised", .backendToApp, object([.required("n", .number(minimum: 0, maximum: 1))]), object([.required("n", .number(minimum: 0, maximum: 10))]),
         ["breaking.backend-to-app.range-loosened@/n"]),
    pair("B minimum removed", .backendToApp, object([.required("n", .integer(minimum: 1))]), object([.required("n", .integer())]),
         ["breaking.backend-to-app.range-loosened@/n"]),
    pair("B type widened", .backendToApp, object([a]), object([.required("a", .anyOf([.string(), .integer()]))]),
         ["breaking.backend-to-app.type-widened@/a"]),
    pair("B type changed", .backendToApp, object([a]), object([.required("a", .integer())]),
         ["breaking.backend-to-app.type-widened@/a", "info.backend-to-app.type-narrowed@/a"]),
    pair("B unknown members allowed", .backendToApp, object([a]), object([a], open: true),
         ["info.backend-to-app.unknown-members-allowed@"]),
    pair("B cross-field rule removed", .backendToApp, object([a]), object([a]), oldRules: [formRule("b")],
         ["breaking.backend-to-app.rule-removed@#t.r"]),
    pair("B listed rule removed", .backendToApp, object([a]), object([a]), oldRules: [listedRule],
         ["breaking.backend-to-app.rule-removed@#t.listed"]),
    pair("B cross-field rule changed", .backendToApp, object([a]), object([a]), oldRules: [formRule("b")], newRules: [formRule("c")],
         ["breaking.backend-to-app.rule-changed@#t.r"]),
    pair("B cross-field rule added", .backendToApp, object([a]), object([a]), newRules: [listedRule],
         ["info.backend-to-app.rule-added@#t.listed"]),
    pair("B member forbidden", .backendToApp, object([a, .optional("b", .string())]), object([a, .optional("b", .forbidden("no"))]),
         ["info.backend-to-app.member-forbidden@/b"]),
    pair("B nested enum value added", .backendToApp, object([.required("aps", object([.optional("category", tags)]))], open: true),
         object([.required("aps", object([.optional("category", .string(oneOf: ["x", "y", "PROMO"]))]))], open: true),
         ["breaking.backend-to-app.enum-value-added@/aps/category"]),
    DiffCase(name: "B direction changed", old: contract(.backendToApp, object([a])), new: contract(.appToBackend, object([a])),
             expected: ["breaking.backend-to-app.direction-changed@"]),
    DiffCase(name: "B contract removed", old: contract(.backendToApp, object([a])), new: nil,
             expected: ["breaking.backend-to-app.contract-removed@"]),
    DiffCase(name: "B contract added", old: nil, new: contract(.backendToApp, object([a])),
             expected: ["info.backend-to-app.contract-added@"]),

    // providerToAPNs: a change that breaks either end breaks.
    pair("P enum value added", .providerToAPNs, object([.required("a", tags)]), object([.required("a", .string(oneOf: ["x", "y", "z"]))]),
         ["breaking.provider-to-apns.enum-value-added@/a"]),
    pair("P enum value removed", .providerToAPNs, object([.required("a", tags)]), object([.required("a", .string(oneOf: ["x"]))]),
         ["breaking.provider-to-apns.enum-value-removed@/a"]),
    pair("P new optional member", .providerToAPNs, object([a]), object([a, .optional("b", .string())]),
         ["info.provider-to-apns.member-added@/b"]),
    pair("Rule reworded only", .appToBackend, object([a]), object([a]), oldRules: [formRule("b")],
         newRules: [ContractRule(id: "t.r", summary: "Reworded.", form: RuleForm(when: .present(["a"]), then: .present(["b"])), check: noCheck)], []),
    pair("Unchanged", .backendToApp, object([a, .optional("b", tags)]), object([a, .optional("b", tags)]), []),
]

@Suite struct SchemaDiffTests {
    @Test(arguments: diffCases)
    func reportsExactlyTheExpectedChanges(_ row: DiffCase) {
        var old: [String: JSONTree] = [:]
        var new: [String: JSONTree] = [:]
        if let contract = row.old { old[contract.name] = JSONSchemaExporter.document(for: contract) }
        if let contract = row.new { new[contract.name] = JSONSchemaExporter.document(for: contract) }
        let found = SchemaDiff.compare(old: old, new: new).map(\.allowKey).sorted()
        #expect(found == row.expected.sorted())
    }

    /// Every kind that breaks a direction appears as a breaking id in the table, and every
    /// kind that does not break it appears as an info id (or cannot arise there).
    @Test(arguments: [ContractDirection.appToBackend, .backendToApp])
    func tableCoversEveryBreakingIDOfTheDirection(_ direction: ContractDirection) {
        let covered = Set(diffCases.flatMap(\.expected).map { String($0.prefix { $0 != "@" }) })
        let breakingIDs = ChangeKind.allCases.filter { $0.isBreaking(for: direction) && $0 != .contractAdded }
            .map { $0.id(direction: direction, breaking: true) }
        let missing = breakingIDs.filter { !covered.contains($0) }
        #expect(missing.isEmpty, "breaking ids without a row: \(missing)")
    }

    @Test func fallbackIsReadFromTheOldSchema() throws {
        let oldSchema = JSONSchemaExporter.document(for: contract(.backendToApp, object([.optional("route", .string(), fallback: "opens Home")])))
        let text = JSONTreeWriter.prettyText(oldSchema)
        #expect(text.contains("\"x-unknown-value-fallback\": \"opens Home\""))
    }

    @Test func v1AgainstItselfHasNoChanges() {
        var trees: [String: JSONTree] = [:]
        for contract in ContractSet.v1.contracts { trees[contract.name] = JSONSchemaExporter.document(for: contract) }
        #expect(SchemaDiff.compare(old: trees, new: trees).isEmpty)
    }

    /// The payload's route declares a fallback, so a new route value is not a break for
    /// installed apps; a new aps.category is (the app declares only its categories).
    @Test func payloadRouteFallbackAndCategory() throws {
        let payload = try #require(ContractSet.v1.contract(named: "payload"))
        let old = JSONSchemaExporter.document(for: payload)
        guard case .object(var root) = old, case .object(var properties)? = root["properties"],
              case .object(var route)? = properties["route"] else {
            Issue.record("payload schema has no route")
            return
        }
        route["maxLength"] = .integer(100)
        properties["route"] = .object(route)
        root["properties"] = .object(properties)
        let changes = SchemaDiff.compare(old: .object(root), new: old)
        #expect(changes.map(\.allowKey) == ["info.backend-to-app.length-loosened@/route"])
    }
}
