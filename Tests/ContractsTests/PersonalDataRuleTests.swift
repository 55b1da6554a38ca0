import Contracts
import Testing

/// Seed 000: nothing personal readable outside the phone. A personal key is found however it is
/// cased or separated, each on its own in a payload (so no other finding can stand in for it).
@Suite struct PersonalDataRuleTests {
    static let base = #"{"aps":{"alert":{"title":"On the way","body":"Your order"},"category":"OFFER"},"notificationId":"91","route":"offers/12""#

    static func findings(_ key: String, nested: Bool = false) -> [String] {
        let member = nested ? #""extra":{"\#(key)":"Ana"}"# : #""\#(key)":"Ana""#
        let document = base + "," + member + "}"
        let violations = ContractSet.v1.contract(named: "payload")?.validate(bytes: Array(document.utf8)) ?? []
        return violations.filter { $0.ruleID == "payload.personal-data" }.map(\.pointer)
    }

    @Test(arguments: ["riderName", "RiderName", "rider_name", "RIDER_NAME", "rider-name", "riderPhone",
                      "EmailAddress", "delivery_address", "DateOfBirth", "phoneNumber", "ZIPCode"])
    func personalKeyIsFoundInAnyCase(_ key: String) {
        #expect(Self.findings(key) == ["/\(key)"], "\(key) at the top level")
        #expect(Self.findings(key, nested: true) == ["/extra/\(key)"], "\(key) nested")
    }

    @Test(arguments: ["route", "ride", "riderId", "orderName", "names", "phoneme"])
    func otherKeysAreNotPersonal(_ key: String) {
        #expect(Self.findings(key).isEmpty, "\(key)")
    }
}
