import Contracts
import Foundation
import Testing

/// The app → backend contracts of the Live Activity tokens: found by folder, strict about
/// the tokens, and the `{orderId}` parameter reads order ids as the tracker's payload does.
@Suite struct LiveActivityRegistrationContractTests {
    @Test(arguments: [("live-activity-registrations", "live-activity-registration"),
                      ("push-to-start-registrations", "push-to-start-registration"),
                      ("order-ids", "order-id")])
    func eachFolderSelectsItsContract(_ folder: String, _ name: String) throws {
        let contract = try #require(ContractSet.v1.contract(forFilePath: "Fixtures/valid/\(folder)/x.json"))
        #expect(contract.name == name)
        #expect(contract.direction == .appToBackend)
    }

    /// An id the `{orderId}` parameter admits is one the payload's `attributes.orderId` admits,
    /// and the other way round: the app registers the activity under the order id its pushes name.
    @Test(arguments: ["8F3K", "order_2026-12-02", "A", String(repeating: "7", count: 64),
                      "", "8F3K/1", "8F3K.1", "8F 3K", String(repeating: "7", count: 65), "ördre"])
    func theOrderIDParameterReadsOrderIDsAsTheTrackersAttributes(_ id: String) throws {
        let orderID = try #require(ContractSet.v1.contract(named: "order-id"))
        let payload = try #require(ContractSet.v1.contract(named: "live-activity-payload"))
        let start = try String(contentsOfFile: FixtureCatalog.root + "/valid/live-activities/start.json", encoding: .utf8)
        let encodedID = String(decoding: try JSONEncoder().encode(id), as: UTF8.self)
        let document = start.replacingOccurrences(of: #""orderId": "8F3K""#, with: #""orderId": \#(encodedID)"#)
        #expect(document != start || id == "8F3K")
        let attributesAdmit = !payload.validate(bytes: Array(document.utf8)).contains { $0.ruleID == "live-activity-payload.order-id" }
        let parameterAdmits = orderID.validate(pathParameter: id).isEmpty
        #expect(parameterAdmits == attributesAdmit)
        #expect(parameterAdmits == (["8F3K", "order_2026-12-02", "A", String(repeating: "7", count: 64)].contains(id)))
        #expect((OrderID(id) != nil) == parameterAdmits, "the model admits what the contract admits")
        if parameterAdmits { #expect(try JSONDecoder().decode(OrderID.self, from: Data(encodedID.utf8)).rawValue == id) }
        else { #expect(throws: DecodingError.self) { try JSONDecoder().decode(OrderID.self, from: Data(encodedID.utf8)) } }
    }

    @Test func aRegistrationTakesHexTokensOfOneToAHundredBytes() throws {
        let registration = try #require(ContractSet.v1.contract(named: "live-activity-registration"))
        let pushToStart = try #require(ContractSet.v1.contract(named: "push-to-start-registration"))
        for (token, valid) in [("ab", true), ("AB01", true), (String(repeating: "ab", count: 100), true),
                               ("", false), ("a", false), ("abc", false), ("<ab01>", false), ("ab 01", false),
                               (String(repeating: "ab", count: 101), false)] {
            let activity = registration.validate(bytes: Array(#"{"pushToken":"\#(token)","environment":"sandbox"}"#.utf8))
            let start = pushToStart.validate(bytes: Array(#"{"pushToStartToken":"\#(token)"}"#.utf8))
            #expect(activity.isEmpty == valid, "\(token): \(activity)")
            #expect(start.isEmpty == valid, "\(token): \(start)")
            if !valid {
                #expect(Set(activity.map(\.ruleID)) == ["live-activity-registration.push-token"])
                #expect(Set(start.map(\.ruleID)) == ["push-to-start-registration.push-to-start-token"])
            }
        }
    }
}
