@testable import PushCore
@testable import Contracts
import Testing

/// The payload contract's clean check (``SchemaAdmission`` and ``PayloadRules/allHold``)
/// against the full validation it skips: the same violations for every document.
@Suite struct PayloadFastPathTests {
    /// A random payload: every member the schema and the rules look at, each often absent,
    /// often right and sometimes wrong, in random order, sometimes twice.
    static func randomPayload(_ g: inout SplitMix64) -> String {
        // The first choice keeps the contract (with the other first choices): taken 11 times
        // in 12, so about a fifth of the payloads are clean, the rest wrong in one way or more.
        func pick(_ choices: [String?]) -> String? { Self.pick(choices, &g) }
        var aps: [String] = []
        if let v = pick([#""Your order""#, nil, #"{"title":"On the way","body":"Soon"}"#, #"{"title":7}"#, "7", #"{"titel":"x"}"#]) { aps.append(#""alert":"# + v) }
        if let v = pick([#""ORDER_UPDATE""#, nil, #""ORDER_UPDATE""#, #""OFFER""#, #""order_update""#, "1"]) { aps.append(#""category":"# + v) }
        if let v = pick([#""order-8F3K""#, nil, #""order-8F3K""#, #""order-XYZ""#, #""order-8F3""#, #""""#, #""thread""#]) { aps.append(#""thread-id":"# + v) }
        if let v = pick([nil, nil, "1", "0", "true", #""1""#]) { aps.append(#""mutable-content":"# + v) }
        if let v = pick([nil, nil, "1", "0"]) { aps.append(#""content-available":"# + v) }
        if let v = pick([nil, nil, "3", "-1", "2.5"]) { aps.append(#""badge":"# + v) }
        if let v = pick([nil, nil, #""default""#, #"{"name":"a.caf","critical":1}"#, #""""#]) { aps.append(#""sound":"# + v) }
        if let v = pick([nil, nil, nil, #""x""#, "0.5", "2"]) { aps.append(#""relevance-score":"# + v) }
        if let v = pick([nil, nil, nil, #""x""#]) { aps.append(#""custom":"# + v) }
        if Bool.random(using: &g), let first = aps.first, Int.random(in: 0..<8, using: &g) == 0 { aps.append(first) }
        aps.shuffle(using: &g)
        var top: [String] = []
        if Int.random(in: 0..<12, using: &g) != 0 { top.append(#""aps":"# + (Int.random(in: 0..<20, using: &g) == 0 ? "[]" : "{" + aps.joined(separator: ",") + "}")) }
        if let v = pick([#""n\#(Int.random(in: 0..<1_000_000, using: &g))""#, #""n1""#, nil, #""""#, #""n 1""#, "12"]) { top.append(#""notificationId":"# + v) }
        if let v = pick([#""a1""#, #""a1""#, nil, #""a b""#]) { top.append(#""accountId":"# + v) }
        if let v = pick([#""orders/8F3K""#, #""offers/77""#, #""home""#, #""elsewhere""#, "7", nil, #""orders/""#]) { top.append(#""route":"# + v) }
        if let v = pick(["7", "7", nil, "0", #""7""#, "1.5"]) { top.append(#""orderVersion":"# + v) }
        if let v = pick([nil, nil, nil, #""c2VjcmV0""#, #""not base64!""#]) { top.append(#""secret":"# + v) }
        if let v = pick([nil, nil, nil, #""https://example.com/a.png""#, #""http://example.com/a.png""#]) { top.append(#""imageUrl":"# + v) }
        if let v = pick([nil, nil, #""pad":"xxxx""#, #""firstName":"Ann""#, #""rider":{"phone":"1"}"#, #""list":[{"e_mail":1},{"ok":2}]"#,
                         #""items":[1,2,[3]]"#, #""notificationID":"x""#]) { top.append(v) }
        if Int.random(in: 0..<10, using: &g) == 0, let first = top.first { top.append(first) }
        top.shuffle(using: &g)
        return "{" + top.joined(separator: ",") + "}"
    }

    /// The first of `choices` 11 times in 12, else any of them (the first included).
    static func pick(_ choices: [String?], _ g: inout SplitMix64) -> String? {
        Int.random(in: 0..<12, using: &g) != 0 ? choices[0] : (choices.randomElement(using: &g) ?? nil)
    }

    @Test func cleanCheckGivesTheFullValidationsAnswers() throws {
        let payload = try #require(ContractSet.v1.contract(named: "payload"))
        let (clean, cleanButNotPassed) = try Self.compareWithFullValidation(payload, seed: 0xFA57, Self.randomPayload)
        // The generator must reach the fast path often, and the fast path must pass almost
        // every clean payload (only ones without a size given, or over 16 members, fall back).
        #expect(clean > 200)
        #expect(cleanButNotPassed < clean / 5)
    }

    /// Checks `contract`'s clean check against its full validation over 2,000 documents from
    /// `generate` (every 7th over a 40-byte limit, every 11th without its size): a document
    /// it passes has no violation, and `validate` answers as `validateFully`. Returns how many
    /// it passed, and how many without a violation it did not.
    static func compareWithFullValidation(_ contract: Contract, seed: UInt64, _ generate: (inout SplitMix64) -> String) throws
        -> (clean: Int, cleanButNotPassed: Int) {
        let isClean = try #require(contract.cleanCheck.isClean)
        var g = SplitMix64(seed: seed)
        var clean = 0, cleanButNotPassed = 0
        for round in 0..<2_000 {
            let bytes = Array(generate(&g).utf8)
            let document = try JSONReader.parse(bytes)
            let limit = round % 7 == 0 ? 40 : ValidationOptions.standardPayloadLimit  // sometimes too large
            let options = ValidationOptions(sourceByteCount: round % 11 == 0 ? nil : bytes.count, maximumPayloadBytes: limit)
            let full = contract.validateFully(document, options: options)
            if isClean(document, options) {
                clean += 1
                #expect(full.isEmpty, "\(String(decoding: bytes, as: UTF8.self)): \(full)")
            } else if full.isEmpty {
                cleanButNotPassed += 1
            }
            #expect(contract.validate(document, options: options) == full)
        }
        return (clean, cleanButNotPassed)
    }

    @Test func schemaAdmitsExactlyWhatTheValidatorPasses() throws {
        var g = SplitMix64(seed: 77)
        let interesting: [UInt8] = Array("{}[]\",:0123456789-+.eE truefalsnul\\u/~é".utf8)
        var documents: [JSONNode] = []
        for fixture in FixtureCatalog.all {
            let original = fixture.bytes
            guard !original.isEmpty else { continue }
            if let node = try? JSONReader.parse(original) { documents.append(node) }
            for _ in 0..<4 {
                var bytes = original
                let index = Int.random(in: 0..<bytes.count, using: &g)
                bytes[index] = interesting.randomElement(using: &g) ?? 0
                if let node = try? JSONReader.parse(bytes) { documents.append(node) }
            }
        }
        for _ in 0..<300 {
            if let node = try? JSONReader.parse(Self.randomPayload(&g)) { documents.append(node) }
        }
        var admitted = 0
        for contract in ContractSet.v1.contracts {
            let admission = try #require(SchemaAdmission(contract.schema))
            for document in documents {
                var walker = SchemaValidator(ids: contract.genericRuleIDs)
                walker.validate(document, against: contract.schema)
                let admits = admission.admits(document)
                if admits { admitted += 1 }
                // Objects of more than 16 members (or nesting past 64) are left to the validator.
                #expect(admits == walker.violations.isEmpty || (!admits && Self.hasWideObject(document)),
                        "\(contract.name): \(walker.violations)")
            }
        }
        #expect(admitted > 200)
    }

    static func hasWideObject(_ node: JSONNode) -> Bool {
        switch node.value {
        case .object(let members): return members.count > 16 || members.contains { hasWideObject($0.value) }
        case .array(let items): return items.contains(where: hasWideObject)
        default: return false
        }
    }

    @Test func changingTheSchemaOrRulesDropsTheCleanCheck() throws {
        var payload = try #require(ContractSet.v1.contract(named: "payload"))
        #expect(payload.cleanCheck.isClean != nil)
        var renamed = payload
        renamed.summary = "x"
        #expect(renamed.cleanCheck.isClean != nil)
        payload.rules.removeLast()
        #expect(payload.cleanCheck.isClean == nil)
        var reshaped = try #require(ContractSet.v1.contract(named: "payload"))
        reshaped.schema = .object([])
        #expect(reshaped.cleanCheck.isClean == nil)
        // A document the v1 rules pass, which a stricter rule now reports.
        reshaped = try #require(ContractSet.v1.contract(named: "payload"))
        reshaped.rules.append(ContractRule(id: "team.always", summary: "always") { document, report in
            report.add("", at: document.position, "always")
        })
        let document = try JSONReader.parse(#"{"aps":{"alert":"x"},"notificationId":"n1"}"#)
        #expect(reshaped.validate(document, sourceByteCount: 40).map(\.ruleID) == ["team.always"])
    }
}
