// The listings of Contracts.docc's "Check payloads in pre-merge CI" and "Declare your own
// contract", compiled and run as tests.
import Foundation
import Testing
import Contracts

@Test func theOrderUpdatePushKeepsThePayloadContract() throws {
    let payload = try #require(ContractSet.v1.contract(named: "payload"))
    let body = #"""
        {"aps": {"alert": {"title": "Order 8F3K", "body": "On its way"}, "category": "ORDER_UPDATE",
                 "thread-id": "order-8F3K", "mutable-content": true},
         "notificationId": "91", "route": "orders/8F3K", "accountId": "a1", "orderVersion": 3}
        """#
    let violations = payload.validate(bytes: Array(body.utf8))
    #expect(violations.map(\.ruleID) == ["payload.integer-flag"])
    #expect(violations.first?.pointer == "/aps/mutable-content")
}

let preferences = Contract(
    name: "preferences", direction: .appToBackend,
    summary: "The body of PUT /v1/notification-preferences.",
    schema: .object([
        .required("orderUpdates", .boolean),
        .optional("offers", .string(oneOf: ["all", "weekly", "none"])),
    ]))

@Test func myContractReportsWhatItDeclares() {
    let contracts = ContractSet(contracts: ContractSet.v1.contracts + [preferences])
    let document = #"{"orderUpdates": "yes", "offers": "daily"}"#
    let violations = contracts.contract(named: "preferences")?.validate(bytes: Array(document.utf8)) ?? []
    #expect(violations.map(\.ruleID) == ["preferences.type", "preferences.enum"])
    #expect(violations.map(\.pointer) == ["/orderUpdates", "/offers"])
}
