import Contracts
import Foundation
import Testing

/// A substitution the picker waits on: a second Live Activity type, declared once with the
/// public API only (issue 40).
struct SubstitutionAttributes: LiveActivityAttributes {
    struct ContentState: Codable, Hashable, Sendable {
        var offered: String
        var answerBy: Date
    }

    var orderId: String

    static let attributesSchema: Schema = .object([.required("orderId", .string(minLength: 1, format: .identifier))])
    static let contentStateSchema: Schema = .object([
        .required("offered", .string(minLength: 1)),
        .required("answerBy", .liveActivityDate),
    ], unknownMembers: .allow)
}

@Suite struct DeclaredLiveActivityContractTests {
    static let contract = Contract.liveActivityPayload(for: SubstitutionAttributes.self, name: "substitution-activity")

    static func violations(_ aps: String) -> [Violation] {
        contract.validate(bytes: Array(#"{"aps":{\#(aps)}}"#.utf8))
    }

    static let start = #""event":"start","timestamp":1764600000,"attributes-type":"SubstitutionAttributes","attributes":{"orderId":"8F3K"},"content-state":{"offered":"Oat milk 1 l","answerBy":786294000},"alert":{"title":"Swap?","body":"Oat milk instead"}"#

    @Test func aGoodStartAndUpdatePass() {
        #expect(Self.violations(Self.start).isEmpty)
        #expect(Self.violations(#""event":"update","timestamp":1764600001,"content-state":{"offered":"Soy milk 1 l","answerBy":786294060}"#).isEmpty)
    }

    /// The rules every activity follows apply to the declared type, with its own date
    /// members; its own schema judges its attributes and state.
    @Test(arguments: [
        (#""event":"update","timestamp":1764600001,"content-state":{"offered":"x","answerBy":1764601200}"#, "live-activity-payload.date-since-2001", "/aps/content-state/answerBy"),
        (#""event":"update","timestamp":1764600001,"content-state":{"answerBy":786294060}"#, "substitution-activity.required", "/aps/content-state"),
        (#""event":"update","timestamp":1764600001"#, "live-activity-payload.content-state-required", "/aps"),
        (#""event":"update","timestamp":1764600001,"content-state":{"offered":"x","answerBy":1,"riderPhone":"+1 555"}"#, "live-activity-payload.personal-data", "/aps/content-state/riderPhone"),
        (#""event":"update","content-state":{"offered":"x","answerBy":1}"#, "live-activity-payload.timestamp", "/aps"),
    ])
    func everyActivitysRulesApply(aps: String, rule: String, pointer: String) {
        let found = Self.violations(aps)
        #expect(found.contains { $0.ruleID == rule && $0.pointer == pointer }, "\(found.map { "\($0.ruleID) \($0.pointer)" })")
    }

    @Test func anotherTypesNameIsRefusedNamingTheDeclaredOne() {
        let start = Self.start.replacingOccurrences(of: #""SubstitutionAttributes""#, with: #""SubstitutionAttribute""#)
        let found = Self.violations(start)
        let violation = found.first { $0.pointer == "/aps/attributes-type" }
        #expect(violation?.ruleID == "live-activity-payload.attributes-type")
        #expect(violation?.message.hasPrefix(#"expected one of "SubstitutionAttributes", found "SubstitutionAttribute""#) == true, "\(violation?.message ?? "")")
    }

    @Test func theTrackersContractIsOneDeclarationAmongOthers() throws {
        let tracker = try #require(ContractSet.v1.contract(named: "live-activity-payload"))
        let rebuilt = Contract.liveActivityPayload(for: OrderTrackerAttributes.self, name: "live-activity-payload",
                                                   summary: tracker.summary, folderName: "live-activities")
        #expect(rebuilt.schema == tracker.schema)
        #expect(rebuilt.rules.map(\.id) == tracker.rules.map(\.id))
        #expect(Self.contract.rules.map(\.id) == tracker.rules.map(\.id), "the same rules for every type")
    }

    /// The app's own type decodes what the contract passes, with a default `JSONDecoder`.
    @Test func whatPassesDecodesIntoTheDeclaredType() throws {
        let state = #"{"offered":"Oat milk 1 l","answerBy":786294000}"#
        let decoded = try JSONDecoder().decode(SubstitutionAttributes.ContentState.self, from: Data(state.utf8))
        #expect(decoded.answerBy == Date(timeIntervalSince1970: 1_764_601_200))
        #expect(SubstitutionAttributes.attributesType == "SubstitutionAttributes")
    }
}
