import Foundation
import Testing
@testable import LoopbackHTTP

/// The admin API's shared parts: the strict body decoder every route uses, problem answers,
/// query parsing. Each fake's routes are tested in FakeBackendTests and FakeAPNsTests.
@Suite struct AdminAPIBodiesTests {
    struct Body: Codable, Equatable {
        struct Inner: Codable, Equatable {
            var kind: String
            var delay: Int?
        }
        var name: String
        var inner: Inner?
        var count: Int?
    }

    static func post(_ text: String) -> HTTPResponse {
        AdminAPI.withBody(Body.self, of: HTTPRequest(method: "POST", path: "/x", body: Array(text.utf8))) { body in
            AdminAPI.json(body)
        }
    }

    static func detail(_ response: HTTPResponse) -> String {
        let object = (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any]
        return object?["detail"] as? String ?? ""
    }

    @Test func aWellFormedBodyReachesTheRoute() {
        let response = Self.post(#"{"name":"a","inner":{"kind":"k","delay":null},"count":null}"#)
        #expect(response.status == .ok)
        #expect(String(decoding: response.body, as: UTF8.self) == #"{"inner":{"kind":"k"},"name":"a"}"#)
    }

    // Without the unknown-key check the first two reach the route (200): JSONDecoder ignores
    // keys it was not asked for, as FakeAPNs' own decoder did.
    @Test(arguments: [
        (#"{"name":"a","cuont":1}"#, "/cuont is not a key this route reads"),
        (#"{"name":"a","inner":{"kind":"k","dealy":5}}"#, "/inner/dealy is not a key this route reads"),
        (#"{"name":"a","count":"3"}"#, "/count: expected Int"),
        (#"{"inner":{"kind":"k"}}"#, "/name is required"),
        (#"{"name":"a","inner":{"delay":1}}"#, "/inner/kind is required"),
        ("not json", "the body is not valid JSON; send a JSON object"),
        ("", "the body is not valid JSON; send a JSON object"),
    ])
    func aBadBodyIsA400ProblemNamingTheKey(body: String, expected: String) {
        let response = Self.post(body)
        #expect(response.status == .badRequest)
        #expect(response.headers["Content-Type"] == "application/problem+json")
        #expect(Self.detail(response).hasPrefix(expected), "\(Self.detail(response))")
    }

    @Test func problemsAreWholeRFC9457Documents() {
        let response = AdminAPI.problem(status: 405, detail: "PUT is not allowed on /x; use GET.", headers: [("Allow", "GET")])
        #expect(response.status == .methodNotAllowed)
        #expect(response.headers["Allow"] == "GET")
        #expect(String(decoding: response.body, as: UTF8.self)
            == #"{"detail":"PUT is not allowed on \/x; use GET.","status":405,"title":"Method Not Allowed","type":"urn:push-contracts:problem:admin"}"#)
    }

    @Test func queriesArePercentDecoded() {
        let request = HTTPRequest(method: "GET", path: "/opens?id=9%201&name=a+b&flag")
        #expect(AdminAPI.query(request) == ["id": "9 1", "name": "a b", "flag": ""])
    }
}
