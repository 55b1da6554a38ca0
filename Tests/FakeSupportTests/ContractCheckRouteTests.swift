import Foundation
import LoopbackHTTP
import Testing
@testable import FakeSupport

/// `POST /contracts/check`: the dashboard's payload editor, checked as `validate` checks a file.
@Suite struct ContractCheckRouteTests {
    static func check(_ body: String, query: String = "?contract=payload") -> HTTPResponse {
        AdminAPI().handle(HTTPRequest(method: "POST", path: "/contracts/check" + query,
                                      headers: ["Content-Type": "application/json"], body: Array(body.utf8)))
    }

    static func violations(_ response: HTTPResponse) -> [[String: Any]] {
        let object = (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any]
        return object?["violations"] as? [[String: Any]] ?? []
    }

    @Test func mutableContentWithoutAnAlertIsReportedAtItsLineAndColumn() {
        let payload = "{\n  \"aps\": {\n    \"mutable-content\": true\n  }\n}\n"
        let response = Self.check(payload)
        #expect(response.status.code == 200)
        #expect(response.headers["Content-Type"] == "application/json")
        let found = Self.violations(response)
        #expect(!found.isEmpty)
        let flag = found.first { ($0["pointer"] as? String) == "/aps/mutable-content" }
        #expect(flag?["line"] as? Int == 3)
        #expect(flag?["column"] as? Int == 24)
        #expect((flag?["rule"] as? String)?.hasPrefix("payload.") == true)
    }

    @Test func aConformingPayloadHasNoViolationsAndTheContractDefaultsToPayload() {
        let response = Self.check(#"{"aps":{"alert":{"title":"Order 91","body":"On its way"},"thread-id":"order-91"},"notificationId":"91"}"#, query: "")
        #expect(response.status.code == 200)
        #expect(Self.violations(response).isEmpty)
    }

    @Test func textThatIsNotJSONGetsTheSyntaxViolationWithItsPosition() {
        let found = Self.violations(Self.check("{\n  \"aps\": {,\n}"))
        #expect(found.count == 1)
        #expect(found.first?["rule"] as? String == "json.syntax")
        #expect(found.first?["line"] as? Int == 2)
    }

    @Test func anUnknownContractIsA400AndAHugeBodyA413() {
        let unknown = Self.check("{}", query: "?contract=paylod")
        #expect(unknown.status.code == 400)
        #expect(String(decoding: unknown.body, as: UTF8.self).contains(#"did you mean \"payload\"?"#))
        let huge = Self.check(String(repeating: " ", count: AdminAPI.contractCheckMaximumBytes + 1) + "{}")
        #expect(huge.status.code == 413)
    }
}
