import Contracts
import Testing

@Suite struct FixtureTests {
    @Test(arguments: FixtureCatalog.all)
    func fixtureMeetsItsExpectation(_ fixture: Fixture) throws {
        let contract = try #require(fixture.contract, "\(fixture): its folder names no contract of ContractSet.v1")
        let violations = contract.validate(bytes: fixture.bytes)
        let errors = violations.filter { $0.severity == .error }
        let found = violations.map { ExpectedFinding(ruleID: $0.ruleID, pointer: $0.pointer) }.sorted()
        let report = violations.map(\.description).joined(separator: "\n")
        if fixture.isValid {
            #expect(errors.isEmpty, "\(fixture) should be valid but has:\n\(report)")
            #expect(found == fixture.expectedFindings, "\(fixture): warnings \(found) ≠ declared \(fixture.expectedFindings)")
        } else {
            #expect(fixture.hasExpectFile, "\(fixture) has no .expect file declaring its rule ids")
            #expect(!errors.isEmpty, "\(fixture) should be invalid but passed")
            #expect(found == fixture.expectedFindings, "\(fixture): found \(found), declared \(fixture.expectedFindings)\n\(report)")
        }
    }

    @Test func everyViolationNamesAPlaceAndWhatToDo() {
        for fixture in FixtureCatalog.invalid {
            guard let contract = fixture.contract else { continue }
            for violation in contract.validate(bytes: fixture.bytes) {
                #expect(violation.position != nil, "\(fixture): \(violation) has no position")
                #expect(violation.message.contains(" — "), "\(fixture): \(violation) does not say what to do")
            }
        }
    }

    @Test func everyRuleOfV1IsTriggeredByAnInvalidFixture() {
        var triggered = Set<String>()
        for fixture in FixtureCatalog.invalid {
            guard let contract = fixture.contract else { continue }
            triggered.formUnion(contract.validate(bytes: fixture.bytes).map(\.ruleID))
        }
        let missing = ContractSet.v1.ruleCatalog.map(\.id).filter { !triggered.contains($0) }
        #expect(missing.isEmpty, "rules no invalid fixture triggers: \(missing)")
        let unknown = triggered.subtracting(ContractSet.v1.ruleCatalog.map(\.id))
        #expect(unknown.isEmpty, "triggered rules missing from the catalog: \(unknown.sorted())")
    }

    @Test func thereAreEnoughFixtures() {
        #expect(FixtureCatalog.all.count >= 40)
        #expect(FixtureCatalog.valid.count >= 15)
        let contracts = Set(FixtureCatalog.all.compactMap(\.contractName))
        #expect(contracts == Set(ContractSet.v1.contracts.map(\.name)))
    }

    @Test func theSeedPayloadIsAValidFixture() throws {
        let seed = try #require(FixtureCatalog.valid.first { $0.relativePath == "valid/payloads/seed-order-update.json" })
        let document = try JSONReader.parse(seed.bytes)
        #expect(document.member("aps")?.value.member("category")?.value.stringValue == "ORDER_UPDATE")
        #expect(document.member("imageUrl")?.value.stringValue?.hasPrefix("https://") == true)
        #expect(ContractSet.v1.contract(named: "payload")?.validate(document).isEmpty == true)
    }
}
