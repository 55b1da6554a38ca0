import Foundation
import Testing
@testable import FakeAPNs

/// Issue 27, item 12: every 400 of the admin API carries a `violations` list pointing at the
/// mistake (some had only a `detail`), and a member set to `null` counts as absent, as the
/// docs say (it was "expected a boolean, found null").
@Suite struct AdminViolationsTests {
    typealias T = APNsTestbed

    static func violations(_ method: String, _ path: String, _ body: String) -> (status: Int, violations: [[String: Any]]) {
        let response = AdminRoutesTests.call(T().fake, method, path, body)
        let listed = AdminRoutesTests.object(response)["violations"] as? [[String: Any]] ?? []
        return (response.status.code, listed)
    }

    @Test(arguments: [
        ("POST", "/apns/tokens", #"{"token":"zz","topic":"com.example.app"}"#, "/token", "admin.value"),
        ("POST", "/apns/keys", #"{"keyID":"K","teamID":"T","pem":"not a key"}"#, "/pem", "admin.value"),
        ("GET", "/apns/deliveries?token=zz", "", "/query/token", "admin.value"),
        ("GET", "/apns/deliveries", "", "/query/token", "admin.query"),
        ("POST", "/apns/duplicates", #"{"count":0}"#, "/count", "admin.value"),
        ("POST", "/apns/duplicates", #"{"probability":2}"#, "/probability", "admin.value"),
        ("POST", "/apns/duplicates", #"{}"#, "", "admin.missing-member"),
        ("POST", "/apns/faults", #"{"fault":{"kind":"reset"}}"#, "", "admin.missing-member"),
    ])
    func every400ListsItsViolation(method: String, path: String, body: String, pointer: String, rule: String) {
        let answer = Self.violations(method, path, body)
        #expect(answer.status == 400)
        #expect(answer.violations.map { $0["pointer"] as? String } == [pointer], "\(answer.violations)")
        #expect(answer.violations.first?["rule"] as? String == rule, "\(answer.violations)")
    }

    @Test func aRequiredMemberSetToNullIsMissingNotAWrongType() {
        let answer = Self.violations("POST", "/apns/offline", #"{"offline":null}"#)
        #expect(answer.status == 400)
        #expect(answer.violations.first?["pointer"] as? String == "/offline")
        #expect(answer.violations.first?["rule"] as? String == "admin.missing-member", "\(answer.violations)")
        #expect((answer.violations.first?["message"] as? String)?.hasPrefix(#"required; add "offline""#) == true, "\(answer.violations)")
    }

    @Test func anOptionalMemberSetToNullIsAbsent() {
        let response = AdminRoutesTests.call(T().fake, "POST", "/apns/tokens",
                                             #"{"token":"\#(T.token)","topic":"com.example.app","environment":null}"#)
        #expect(response.status.code == 204)
    }
}
