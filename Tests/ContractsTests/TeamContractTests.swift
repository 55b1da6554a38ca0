import Contracts
import Testing

/// The README's "Declaring your own contract" example, kept compiling and working.
@Suite struct TeamContractTests {
    static let preferences = Contract(
        name: "preferences", direction: .appToBackend,
        summary: "The body of PUT /v1/notification-preferences.",
        schema: .object([
            .required("orderUpdates", .boolean),
            .optional("offers", .string(oneOf: ["all", "weekly", "none"])),
            .optional("quietHours", .array(of: .integer(minimum: 0, maximum: 23), maxItems: 2)),
        ]),
        rules: [ContractRule(
            id: "preferences.quiet-hours-pair", summary: "quietHours has a start and an end.",
            form: nil) { document, report in
            if let hours = document.member("quietHours")?.value, hours.arrayElements?.count == 1 {
                report.add("/quietHours", at: hours.position,
                           "expected a start and an end hour, found one — add the end hour.")
            }
        }],
        folderName: "preferences")

    @Test func aTeamSetExtendsV1() throws {
        let mine = ContractSet(contracts: ContractSet.v1.contracts + [TeamContractTests.preferences])
        let contract = try #require(mine.contract(forFolder: "preferences"))
        #expect(contract.validate(bytes: Array(#"{"orderUpdates": true, "quietHours": [22, 7]}"#.utf8)).isEmpty)
        let found = contract.validate(bytes: Array(#"{"offers": "daily", "quietHours": [24]}"#.utf8))
        #expect(Set(found.map(\.ruleID)) == ["preferences.required", "preferences.enum", "preferences.range", "preferences.quiet-hours-pair"])
        #expect(mine.ruleCatalog.contains { $0.id == "preferences.quiet-hours-pair" })
        #expect(contract.ruleIDs.contains("preferences.length"))
    }
}
