import Contracts
import Foundation
import Testing

@Suite struct SchemaExportTests {
    static let schemasFolder = FixtureCatalog.root + "/schemas"

    /// The committed golden file of every contract is exactly what the declaration emits.
    @Test(arguments: ContractSet.v1.contracts.map(\.name))
    func goldenFileMatchesEmission(_ name: String) throws {
        let contract = try #require(ContractSet.v1.contract(named: name))
        let path = Self.schemasFolder + "/" + JSONSchemaExporter.fileName(for: contract)
        let golden = try String(contentsOfFile: path, encoding: .utf8)
        #expect(golden == JSONSchemaExporter.emittedText(for: contract),
                "re-record with: swift run contract-check schema --write")
    }

    @Test func emissionIsDeterministicAndReadsBack() throws {
        for contract in ContractSet.v1.contracts {
            let first = JSONSchemaExporter.emittedText(for: contract)
            #expect(first == JSONSchemaExporter.emittedText(for: contract))
            let reread = JSONTree(try JSONReader.parse(Array(first.utf8)))
            // Whole doubles are written as integers, so compare the text of the re-read tree.
            #expect(JSONTreeWriter.prettyText(reread) == first)
        }
    }

    @Test func headerKeywords() throws {
        let payload = try #require(ContractSet.v1.contract(named: "payload"))
        let tree = JSONSchemaExporter.document(for: payload)
        #expect(tree["$schema"] == .string("https://json-schema.org/draft/2020-12/schema"))
        #expect(tree["$id"] == .string("https://pushcontracts.dev/schemas/v1/payload.schema.json"))
        #expect(tree["title"] == .string("payload"))
        #expect(tree["x-direction"] == .string("backendToApp"))
        #expect(tree["required"] == .strings(["aps", "notificationId"]))
        #expect(tree["additionalProperties"] == nil)
        #expect(tree["properties"]?["route"]?["x-unknown-value-fallback"] != nil)
        #expect(tree["properties"]?["imageUrl"]?["pattern"] == .string(StringFormat.httpsURL.pattern))
        #expect(tree["properties"]?["aps"]?["properties"]?["mutable-content"]?["enum"] == .array([.integer(0), .integer(1)]))
    }

    /// Rules with a form are if/then entries; the others are listed with their ids.
    @Test func crossFieldRulesAreExpressedOrListed() throws {
        let payload = try #require(ContractSet.v1.contract(named: "payload"))
        let tree = JSONSchemaExporter.document(for: payload)
        let expressed = Set((tree["allOf"]?.arrayValue ?? []).compactMap { $0["x-rule"]?.stringValue })
        let listed = Set((tree["x-rules"]?.arrayValue ?? []).compactMap { $0["id"]?.stringValue })
        for rule in payload.rules {
            if rule.form != nil {
                #expect(expressed.contains(rule.id))
            } else {
                #expect(listed.contains(rule.id))
                #expect(tree["description"]?.stringValue?.contains(rule.id) == true)
            }
        }
        #expect(listed.contains("payload.size"))
        #expect(expressed.contains("payload.secret-needs-mutable-content"))
    }

    @Test func registrationIsClosedAndForbidsTheAccount() throws {
        let contract = try #require(ContractSet.v1.contract(named: "device-registration"))
        let tree = JSONSchemaExporter.document(for: contract)
        #expect(tree["additionalProperties"] == .bool(false))
        #expect(tree["properties"]?["accountId"]?["not"] == .object([:]))
        #expect(tree["x-direction"] == .string("appToBackend"))
    }

    @Test func conditionNestsPaths() {
        let tree = JSONSchemaExporter.condition(.equals(["aps", "mutable-content"], [.integer(1)]))
        #expect(JSONTreeWriter.compactText(tree)
                == #"{"properties":{"aps":{"properties":{"mutable-content":{"const":1}},"required":["mutable-content"],"type":"object"}},"required":["aps"]}"#)
        #expect(JSONTreeWriter.compactText(JSONSchemaExporter.condition(.absent(["x"]))) == #"{"not":{"required":["x"]}}"#)
    }

    @Test func memberNeedsMemberIsDependentRequired() {
        let rule = ContractRule(id: "t.b-needs-c", summary: "b needs c.", form: RuleForm(when: .present(["b"]), then: .present(["c"]))) { _, _ in }
        let contract = Contract(name: "t", direction: .appToBackend, summary: "T.", schema: .object([]), rules: [rule])
        let entry = JSONSchemaExporter.document(for: contract)["allOf"]?.arrayValue?.first
        #expect(entry?["dependentRequired"] == .object(["b": .strings(["c"])]))
        #expect(entry?["x-rule"] == .string("t.b-needs-c"))
        #expect(entry?["if"] == nil)
    }

    @Test func expressibilityVerdicts() {
        let verdicts = Dictionary(RuleExpressibility.of(ContractSet.v1).map { ($0.id, $0.isExpressible) }, uniquingKeysWith: { $0 && $1 })
        #expect(verdicts["payload.duplicate-key"] == false)
        #expect(verdicts["payload.size"] == false)
        #expect(verdicts["payload.unknown-route"] == false)
        #expect(verdicts["payload.silent-push"] == true)
        #expect(verdicts["device-registration.app-version"] == true)
        #expect(verdicts["apns-error.timestamp-required"] == true)
    }
}

@Suite struct JSONTreeWriterTests {
    @Test func sortsKeysByBytesAndIndents() {
        let tree: JSONTree = .object(["b": .integer(1), "a": .array([.bool(true), .null]), "B": .object([:]), "é": .array([])])
        #expect(JSONTreeWriter.prettyText(tree) == """
            {
              "B": {},
              "a": [
                true,
                null
              ],
              "b": 1,
              "é": []
            }

            """)
    }

    @Test(arguments: [
        (JSONTree.string("a\"b\\c\n\t\u{01}/é"), #""a\"b\\c\n\t\u0001/é""#),
        (.number(0.5), "0.5"),
        (.number(1), "1"),
        (.number(-2.25e-7), "-2.25e-07"),
        (.integer(Int64.min), "-9223372036854775808"),
        (.number(.infinity), "null"),
    ])
    func scalars(_ tree: JSONTree, _ text: String) {
        #expect(JSONTreeWriter.compactText(tree) == text)
    }

    @Test func readsBackThroughJSONReader() throws {
        let tree: JSONTree = .object(["k": .strings(["x", "\u{2028}"]), "n": .number(0.1), "i": .integer(-3)])
        let text = JSONTreeWriter.prettyText(tree)
        #expect(JSONTree(try JSONReader.parse(Array(text.utf8))) == tree)
    }
}
