@testable import FakeSupport
import Foundation
import Testing
@testable import LoopbackHTTP

/// The admin API's shared parts: the strict body decoder every route uses, problem answers,
/// query parsing, the route list. Each fake's routes are tested in FakeBackendTests and
/// FakeAPNsTests.
@Suite struct AdminAPIBodiesTests {
    struct Body: Codable, Equatable, AdminRequestBody {
        struct Inner: Codable, Equatable {
            enum CodingKeys: String, CodingKey, CaseIterable { case kind, delay }
            var kind: String
            var delay: Int?
        }
        enum CodingKeys: String, CodingKey, CaseIterable { case name, inner, count, probability, flag }
        static var members: [String] {
            CodingKeys.allCases.map { "/" + $0.rawValue } + Inner.CodingKeys.allCases.map { "/inner/" + $0.rawValue }
        }
        var name: String
        var inner: Inner?
        var count: Int?
        var probability: Double?
        var flag: Bool?
    }

    static func post(_ text: String) -> HTTPResponse {
        AdminAPI.withBody(Body.self, of: HTTPRequest(method: "POST", path: "/x", body: Array(text.utf8))) { body in
            AdminAPI.json(body)
        }
    }

    static func object(_ response: HTTPResponse) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any] ?? [:]
    }

    static func detail(_ response: HTTPResponse) -> String {
        object(response)["detail"] as? String ?? ""
    }

    @Test func aWellFormedBodyReachesTheRoute() throws {
        let response = Self.post(#"{"name":"a","inner":{"kind":"k","delay":null},"count":null}"#)
        #expect(response.status == .ok)
        let echoed = try JSONDecoder().decode(Body.self, from: Data(response.body))
        #expect(echoed == Body(name: "a", inner: .init(kind: "k", delay: nil), count: nil))
    }

    // Without the unknown-member check the first two reach the route (200): JSONDecoder
    // ignores keys it was not asked for. Without the JSON type names, the third says "Int".
    @Test(arguments: [
        (#"{"name":"a","cuont":1}"#, #"/cuont: unknown member "cuont"; did you mean "count"?"#),
        (#"{"name":"a","inner":{"kind":"k","dealy":5}}"#, #"/inner/dealy: unknown member "dealy"; did you mean "delay"?"#),
        (#"{"name":"a","count":"3"}"#, #"/count: expected an integer, found a string ("3")"#),
        (#"{"name":"a","count":1.5}"#, "/count: expected an integer, found 1.5"),
        (#"{"name":"a","probability":0.5,"count":0.25}"#, "/count: expected an integer, found 0.25"),
        (#"{"name":"a","count":99999999999999999999}"#, "/count: expected an integer that fits in 64 bits"),
        (#"{"name":"a","flag":"yes"}"#, #"/flag: expected a boolean, found a string ("yes")"#),
        (#"{"name":"a","inner":[1]}"#, "/inner: expected an object, found an array"),
        (#"{"inner":{"kind":"k"}}"#, #"/name: required; add "name""#),
        (#"{"name":"a","inner":{"delay":1}}"#, #"/inner/kind: required; add "kind""#),
        ("[1]", "expected an object, found an array"),
        ("not json", "the body is not valid JSON"),
        ("", "the body is empty; send a JSON object"),
    ])
    func aBadBodyIsA400ProblemNamingTheMember(body: String, expected: String) {
        let response = Self.post(body)
        #expect(response.status == .badRequest)
        #expect(response.headers["Content-Type"] == "application/problem+json")
        #expect(Self.detail(response) == expected || Self.detail(response).hasPrefix(expected), "\(Self.detail(response))")
    }

    /// Every unknown member is named, each with its position, in the one violation shape.
    @Test func everyUnknownMemberIsListedWithItsPosition() {
        let response = Self.post("{\"name\":\"a\",\n \"probabilty\":0.3,\n \"sed\":7}")
        #expect(response.status == .badRequest)
        let violations = Self.object(response)["violations"] as? [[String: Any]] ?? []
        #expect(violations.count == 2)
        #expect(violations.first?["pointer"] as? String == "/probabilty")
        #expect(violations.first?["rule"] as? String == "admin.unknown-member")
        #expect(violations.first?["message"] as? String == #"unknown member "probabilty"; did you mean "probability"?"#)
        #expect(violations.first?["line"] as? Int == 2)
        #expect(violations.first?["column"] as? Int == 2)
        #expect(violations.last?["pointer"] as? String == "/sed")
        #expect((violations.last?["message"] as? String)?.contains(#""name", "inner", "count", "probability", "flag""#) == true)
        #expect(Self.detail(response).hasPrefix("2 problems: /probabilty: unknown member"))
    }

    @Test func problemsAreWholeRFC9457DocumentsWithoutEscapedSlashes() {
        let response = AdminAPI.problem(status: 405, detail: "PUT is not allowed on /x; use GET.", headers: [("Allow", "GET")])
        #expect(response.status == .methodNotAllowed)
        #expect(response.headers["Allow"] == "GET")
        #expect(String(decoding: response.body, as: UTF8.self)
            == #"{"detail":"PUT is not allowed on /x; use GET.","status":405,"title":"Method Not Allowed","type":"urn:push-contracts:problem:admin"}"#)
    }

    @Test func queriesArePercentDecodedAndIntegersChecked() throws {
        let request = HTTPRequest(method: "GET", path: "/opens?id=9%201&name=a+b&flag")
        #expect(AdminAPI.query(request) == ["id": "9 1", "name": "a b", "flag": ""])
        #expect(try AdminAPI.integerQuery(HTTPRequest(method: "GET", path: "/j?since=7"), "since").get() == 7)
        #expect(try AdminAPI.integerQuery(HTTPRequest(method: "GET", path: "/j"), "since").get() == nil)
        for bad in ["abc", "-1", "1.5", ""] {
            guard case .failure(let error) = AdminAPI.integerQuery(HTTPRequest(method: "GET", path: "/j?since=\(bad)"), "since") else {
                Issue.record("?since=\(bad) was accepted")
                continue
            }
            #expect(error.response.status == .badRequest)
            #expect(Self.detail(error.response).hasPrefix("?since=\(bad): expected a whole number"))
            #expect((Self.object(error.response)["violations"] as? [[String: Any]])?.first?["pointer"] as? String == "/query/since")
        }
    }

    @Test func timesAreMillisecondISO8601InUTC() {
        #expect(AdminJSON.timestamp(milliseconds: 0) == "1970-01-01T00:00:00.000Z")
        #expect(AdminJSON.timestamp(milliseconds: 1_796_136_788_123) == "2026-12-01T14:53:08.123Z")
        #expect(AdminJSON.timestamp(milliseconds: 951_782_400_007) == "2000-02-29T00:00:00.007Z")
        #expect(AdminJSON.timestamp(milliseconds: -1) == "1969-12-31T23:59:59.999Z")
        #expect(AdminJSON.timestamp(milliseconds: .max) == "9999-12-31T23:59:59.999Z")
        #expect(AdminJSON.timestamp(milliseconds: .min) == "0000-01-01T00:00:00.000Z")
        #expect(AdminJSON.timestamp(Date(timeIntervalSince1970: 1_796_136_788.123_4)) == "2026-12-01T14:53:08.123Z")
        let body = String(decoding: AdminAPI.json(["at": Date(timeIntervalSince1970: 0)]).body, as: UTF8.self)
        #expect(body == "{\n  \"at\" : \"1970-01-01T00:00:00.000Z\"\n}\n")
    }

    /// `GET /` is readable: pretty JSON with `/` unescaped, or text for `Accept: text/plain`.
    @Test func theRouteListIsPrettyJSONOrText() {
        let api = AdminAPI(routes: [AdminAPI.Route(method: "GET", path: "/journal", summary: "The journal") { _ in
            HTTPResponse(status: .noContent)
        }])
        let json = api.handle(HTTPRequest(method: "GET", path: "/"))
        #expect(String(decoding: json.body, as: UTF8.self) == "{\n  \"routes\" : [\n    \"GET /journal — The journal\"\n  ]\n}\n")
        let text = api.handle(HTTPRequest(method: "GET", path: "/", headers: ["Accept": "text/plain"]))
        #expect(text.headers["Content-Type"] == "text/plain; charset=utf-8")
        #expect(String(decoding: text.body, as: UTF8.self) == "GET /journal — The journal\n")
    }
}
