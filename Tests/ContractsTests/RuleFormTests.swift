import Contracts
import Testing

/// A rule's machine form (what JSON Schema emits) and its check (what validates) must agree
/// on every fixture.
@Suite struct RuleFormTests {
    @Test(arguments: FixtureCatalog.all)
    func formAndCheckAgree(_ fixture: Fixture) throws {
        guard let contract = fixture.contract, let document = try? JSONReader.parse(fixture.bytes) else { return }
        for rule in contract.rules {
            guard let form = rule.form else { continue }
            let checkPasses = rule.evaluate(document).isEmpty
            #expect(form.holds(for: document) == checkPasses, "\(fixture): rule \(rule.id) form says \(form.holds(for: document)), check says \(checkPasses)")
        }
    }

    @Test func formsCoverTheExpressibleRules() {
        let payload = ContractSet.v1.contract(named: "payload")
        let withForms = Set(payload?.rules.filter { $0.form != nil }.map(\.id) ?? [])
        #expect(withForms == [
            "payload.order-update-account", "payload.order-update-route", "payload.order-version", "payload.offer-route",
            "payload.mutable-content-needs-alert", "payload.secret-needs-mutable-content",
            "payload.image-url-needs-mutable-content", "payload.silent-push",
        ])
        // Warnings never get a form: JSON Schema would turn them into failures.
        for contract in ContractSet.v1.contracts {
            for rule in contract.rules where rule.severity == .warning {
                #expect(rule.form == nil, "\(rule.id) is a warning with a form")
            }
        }
    }

    @Test func conditionsFollowJSONSchemaMeaning() throws {
        let document = try JSONReader.parse(#"{"aps": {"mutable-content": 1, "flag": true}, "n": 7.0}"#)
        #expect(RuleCondition.present(["aps", "mutable-content"]).holds(for: document))
        #expect(RuleCondition.absent(["aps", "alert"]).holds(for: document))
        #expect(RuleCondition.equals(["aps", "mutable-content"], [.integer(1)]).holds(for: document))
        #expect(!RuleCondition.equals(["aps", "flag"], [.integer(1)]).holds(for: document), "true is not 1")
        #expect(!RuleCondition.equals(["n"], [.integer(7)]).holds(for: document), "7.0 is not the integer 7")
        #expect(!RuleCondition.equals(["missing"], [.null]).holds(for: document), "absent never equals")
        #expect(!RuleCondition.present(["n", "x"]).holds(for: document), "paths go through objects only")
        #expect(RuleCondition.not(.present(["zzz"])).holds(for: document))
        #expect(RuleCondition.anyOf([.present(["zzz"]), .present(["n"])]).holds(for: document))
        #expect(!RuleCondition.allOf([.present(["zzz"]), .present(["n"])]).holds(for: document))
    }
}
