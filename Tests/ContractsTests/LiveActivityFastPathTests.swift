@testable import PushCore
@testable import Contracts
import Testing

/// The Live Activity contract's clean check (``SchemaAdmission`` and
/// ``LiveActivityRules/allHold(_:dateMembers:options:)``) against the full validation it
/// skips: the same violations for every document.
@Suite struct LiveActivityFastPathTests {
    /// A random Live Activity push: every `aps` member a rule looks at, each often right for
    /// its event and sometimes missing, misplaced or wrong, in random order, sometimes twice.
    static func randomPush(_ g: inout SplitMix64) -> String {
        // The first choice (right for the event) is taken 11 times in 12.
        func pick(_ choices: [String?]) -> String? { PayloadFastPathTests.pick(choices, &g) }
        let event = ["start", "update", "update", "end"].randomElement(using: &g) ?? "update"
        let starts = event == "start"
        var aps: [String] = []
        if let v = pick(["1767227100", nil, "1767227100000", #""x""#]) { aps.append(#""timestamp":"# + v) }
        if let v = pick([#""\#(event)""#, nil, #""\#(event)""#, #""stop""#, "1"]) { aps.append(#""event":"# + v) }
        if let v = pick([event == "end" && Bool.random(using: &g) ? nil : #"{"stage":"onTheWay","eta":788920800}"#, nil,
                         #"{"stage":"picking","eta":1767227100}"#, #"{"stage":"picking","eta":1767227100000}"#,
                         #"{"stage":"picking","riderName":"Ann"}"#, #"{"stage":"x"}"#, #""onTheWay""#]) {
            aps.append(#""content-state":"# + v)
        }
        if let v = pick([starts || Bool.random(using: &g) ? #"{"title":"On the way","body":"Soon"}"# : nil, nil,
                         #"{"title":"x"}"#, #"{"body":"x"}"#, #""text""#, #"{"title":"x","body":"y","sound":""}"#]) {
            aps.append(#""alert":"# + v)
        }
        if let v = pick([starts ? #""OrderTrackerAttributes""# : nil, nil, #""OrderTrackerAttributes""#, #""Other""#]) {
            aps.append(#""attributes-type":"# + v)
        }
        if let v = pick([starts ? #"{"orderId":"8F3K"}"# : nil, nil, #"{"orderId":"8F3K"}"#, #"{"orderId":"8F3K","email":"a@b"}"#]) {
            aps.append(#""attributes":"# + v)
        }
        if let v = pick([starts && Bool.random(using: &g) ? "1" : nil, nil, "1", "true"]) { aps.append(#""input-push-token":"# + v) }
        if let v = pick([event == "end" && Bool.random(using: &g) ? "1767229200" : nil, nil, "1767229200", "-1"]) {
            aps.append(#""dismissal-date":"# + v)
        }
        if let v = pick([nil, nil, "1767229200", "2.5"]) { aps.append(#""stale-date":"# + v) }
        if let v = pick([nil, nil, "75", #""high""#]) { aps.append(#""relevance-score":"# + v) }
        if let v = pick([nil, nil, nil, "1"]) { aps.append(#""badge":"# + v) }
        if Int.random(in: 0..<10, using: &g) == 0, let first = aps.first { aps.append(first) }
        aps.shuffle(using: &g)
        var top: [String] = []
        if Int.random(in: 0..<15, using: &g) != 0 { top.append(#""aps":"# + (Int.random(in: 0..<20, using: &g) == 0 ? "[]" : "{" + aps.joined(separator: ",") + "}")) }
        if let v = pick([nil, nil, #""orderRef":"8F3K""#, #""phone":"1""#, #""rider":{"Full_Name":"Ann"}"#, #""list":[{"e-mail":1},{"ok":2}]"#]) {
            top.append(v)
        }
        top.shuffle(using: &g)
        return "{" + top.joined(separator: ",") + "}"
    }

    @Test func cleanCheckGivesTheFullValidationsAnswers() throws {
        let contract = try #require(ContractSet.v1.contract(named: "live-activity-payload"))
        let (clean, cleanButNotPassed) = try PayloadFastPathTests.compareWithFullValidation(contract, seed: 0x1A57, Self.randomPush)
        // The generator must reach the fast path often, and the fast path must pass almost
        // every clean push (only ones without a size given fall back).
        #expect(clean > 200)
        #expect(cleanButNotPassed < clean / 5)
    }

    /// Each event's own requirement, one at a time: a push the fast path would pass if it
    /// forgot that requirement is sent to the full validation and reported.
    @Test(arguments: [
        (#"{"aps":{"timestamp":1,"event":"update"}}"#, "live-activity-payload.content-state-required"),
        (#"{"aps":{"timestamp":1,"event":"update","content-state":{"stage":"picking"},"attributes":{"orderId":"a"}}}"#,
         "live-activity-payload.attributes-start-only"),
        (#"{"aps":{"timestamp":1,"event":"end","input-push-token":1}}"#, "live-activity-payload.input-push-token-start-only"),
        (#"{"aps":{"timestamp":1,"event":"update","content-state":{"stage":"picking"},"dismissal-date":5}}"#,
         "live-activity-payload.dismissal-date-end-only"),
        (#"{"aps":{"timestamp":1,"event":"start","content-state":{"stage":"picking"},"attributes-type":"OrderTrackerAttributes","attributes":{"orderId":"a"},"alert":{"title":"t"}}}"#,
         "live-activity-payload.start-alert"),
        (#"{"aps":{"timestamp":1,"event":"start","content-state":{"stage":"picking"},"attributes":{"orderId":"a"},"alert":{"title":"t","body":"b"}}}"#,
         "live-activity-payload.start-attributes"),
        (#"{"aps":{"timestamp":1,"event":"update","content-state":{"stage":"picking","eta":1767227100}}}"#,
         "live-activity-payload.date-since-2001"),
        (#"{"aps":{"timestamp":1,"event":"end"},"meta":[{"riderPhone":"1"}]}"#, "live-activity-payload.personal-data"),
    ])
    func eachRuleStillReports(_ push: String, _ ruleID: String) throws {
        let contract = try #require(ContractSet.v1.contract(named: "live-activity-payload"))
        let bytes = Array(push.utf8)
        let violations = contract.validate(try JSONReader.parse(bytes), sourceByteCount: bytes.count)
        #expect(violations.map(\.ruleID) == [ruleID])
    }

    @Test func aDeclaredTypeGetsItsOwnCleanCheck() throws {
        let contract = Contract.liveActivityPayload(for: OrderTrackerAttributes.self, name: "tracker-copy")
        #expect(contract.cleanCheck.isClean != nil)
        var changed = contract
        changed.rules.removeLast()
        #expect(changed.cleanCheck.isClean == nil)
    }
}
