@testable import FakeSupport
import Contracts
import LoopbackHTTP
import Foundation
import Testing
@testable import FakeBackend

/// Issue 16's admin API and request-handling items, as a newcomer met them: each test names
/// the item and fails on the behaviour the issue reported.
@Suite struct BackendFirstContactTests {
    let backend = FakeBackend(configuration: .init(sessions: Requests.sessions))
    var admin: AdminAPI { AdminAPI(backend: backend) }

    func call(_ method: String, _ path: String, _ body: String? = nil, headers: HTTPFields = ["Content-Type": "application/json"]) -> HTTPResponse {
        admin.handle(HTTPRequest(method: method, path: path, headers: headers, body: Array((body ?? "").utf8)))
    }

    // MARK: 7 — strict admin bodies

    /// Before: 201 and a one-shot fault instead of a 30 % one.
    @Test func misspeltFaultMembersAreEachNamedWithADidYouMean() {
        let response = call("POST", "/faults", #"{"kind":"status","status":503,"probabilty":0.3,"sed":7}"#)
        #expect(response.status == .badRequest)
        #expect(response.headers["Content-Type"] == "application/problem+json")
        let violations = Requests.violations(response)
        #expect(violations.map { $0["pointer"] as? String } == ["/probabilty", "/sed"])
        #expect(violations.map { $0["message"] as? String } == [#"unknown member "probabilty"; did you mean "probability"?"#,
                                                                  #"unknown member "sed"; did you mean "seed"?"#])
        #expect(violations.allSatisfy { $0["rule"] as? String == "admin.unknown-member" && $0["line"] as? Int == 1 })
        #expect(backend.faults.isEmpty)
        let dashed = call("POST", "/faults", #"{"kind":"status","status":429,"retry-after":3}"#)
        #expect(dashed.status == .badRequest)
        #expect((Requests.json(dashed)["detail"] as? String) == #"/retry-after: unknown member "retry-after"; did you mean "retryAfter"?"#)
    }

    @Test(arguments: [
        ("/faults", #"{"kind":"reset","count":1.5}"#, "/count: expected an integer, found 1.5"),
        ("/faults", #"{"kind":7}"#, "/kind: expected a string, found a number (7)"),
        ("/offline", #"{"offline":"yes"}"#, #"/offline: expected a boolean, found a string ("yes")"#),
        ("/offline", #"["offline"]"#, "expected an object, found an array"),
        // null counts as absent, as the docs say: a required member set to null is missing.
        ("/sessions", #"{"bearer":"s9","account":null}"#, #"/account: required; add "account" (null counts as absent)"#),
        ("/sessions", #"{"bearer":"s9"}"#, #"/account: required; add "account""#),
    ])
    func wrongTypesAreSaidInJSONTerms(path: String, body: String, expected: String) {
        let response = call("POST", path, body)
        #expect(response.status == .badRequest)
        let detail = Requests.json(response)["detail"] as? String ?? ""
        #expect(detail.hasPrefix(expected), "\(detail)")
        #expect(!detail.contains("Bool") && !detail.contains("Dictionary") && !detail.contains("not valid JSON"))
    }

    @Test(arguments: ["abc", "-1", "1.5"])
    func aBadSinceIsA400(since: String) {
        let response = call("GET", "/journal?since=\(since)")
        #expect(response.status == .badRequest)
        #expect((Requests.json(response)["detail"] as? String)?.hasPrefix("?since=\(since): expected a whole number") == true)
    }

    @Test func sinceFiltersTheJournal() {
        for _ in 0..<3 { _ = backend.handle(Requests.opened("91")) }
        let entries = Requests.json(call("GET", "/journal?since=2"))["entries"] as? [[String: Any]]
        #expect(entries?.map { $0["sequence"] as? Int } == [3])
    }

    // MARK: 8 — one reset semantics

    @Test func resetBringsEverythingBackToStartButTheConfiguration() {
        _ = backend.handle(Requests.put(Requests.token))
        _ = backend.handle(Requests.opened("91"))
        backend.addSession(bearer: "s9", account: "a9")
        backend.addFault(.probability(0.5, seed: 1, .hang))
        backend.setOffline(true)
        let sequenceBefore = backend.journal.last?.sequence ?? 0

        #expect(call("POST", "/reset").status == .noContent)
        #expect(backend.devices.isEmpty)
        #expect(backend.opens.isEmpty)
        #expect(backend.journal.isEmpty)
        #expect(backend.faults.isEmpty)
        #expect(!backend.isOffline)
        #expect(backend.sessions == Requests.sessions)  // configuration stays, s9 goes
        _ = backend.handle(Requests.opened("92"))
        #expect(backend.journal.first?.sequence == sequenceBefore + 1)  // cursors stay valid
    }

    // MARK: 9 — one journal and violation shape, ms ISO 8601 times

    @Test func journalEntriesUseTheSharedShape() throws {
        _ = backend.handle(Requests.put("abc"))  // odd digit count: a path violation
        let entry = try #require((Requests.json(call("GET", "/journal"))["entries"] as? [[String: Any]])?.first)
        let time = try #require(entry["time"] as? String)
        #expect(time.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/) != nil, "\(time)")
        let violation = try #require((entry["violations"] as? [[String: Any]])?.first)
        #expect(Set(violation.keys).isSubset(of: ["pointer", "rule", "severity", "message", "line", "column"]))
        #expect(violation["rule"] as? String != nil && violation["ruleID"] == nil && violation["position"] == nil)
        #expect(violation["severity"] as? String == "error")
    }

    @Test func everyAdminProblemHasTheURNType() {
        for response in [call("POST", "/faults", "{"), call("GET", "/nothing"), call("PUT", "/faults")] {
            #expect(Requests.json(response)["type"] as? String == "urn:push-contracts:problem:admin")
        }
    }

    // MARK: 10 — the first matching fault fires, and GET /faults says so

    @Test func onlyTheFirstMatchingFaultFiresAndTheListSaysSo() {
        backend.addFault(.next(1, .status(code: 503), on: .opened))
        backend.addFault(.next(1, .status(code: 500)))
        #expect(backend.handle(Requests.opened("91")).status.code == 503)
        #expect(backend.faults == [.next(1, .status(code: 500))])  // the second was not consumed
        let order = Requests.json(call("GET", "/faults"))["order"] as? String ?? ""
        #expect(order.contains("in the order they were added") && order.contains("only that one fires"))
    }

    // MARK: 11 — a readable route list

    @Test func theRouteListIsPrettyWithoutEscapedSlashes() {
        let text = String(decoding: call("GET", "/").body, as: UTF8.self)
        #expect(text.contains("\n  \"routes\" : [\n    \"GET /journal"))
        #expect(!text.contains("\\/"))
        let plain = call("GET", "/", headers: ["Accept": "text/plain"])
        #expect(String(decoding: plain.body, as: UTF8.self).hasPrefix("GET /journal — "))
    }

    // MARK: 12 — 415 for a body that is not JSON

    @Test(arguments: ["text/plain", "application/x-www-form-urlencoded", "application/xml; charset=utf-8"])
    func aBodyOfAnotherTypeIs415(contentType: String) {
        var request = Requests.put(Requests.token)
        request.headers["Content-Type"] = contentType
        let response = backend.handle(request)
        #expect(response.status.code == 415)
        #expect(response.headers["Content-Type"] == "application/problem+json")
        let problem = Requests.json(response)
        #expect(problem["type"] as? String == "urn:push-contracts:problem:unsupported-media-type")
        #expect((problem["detail"] as? String)?.contains("Send Content-Type: application/json") == true)
        #expect(backend.devices.isEmpty)
        let entry = backend.journal.last
        #expect(entry?.status == 415)
        #expect(entry?.detail?.hasPrefix("Content-Type ") == true)
        #expect(entry?.logLine.hasSuffix("not application/json)") == true)
    }

    @Test(arguments: ["application/json", "application/json; charset=utf-8", "Application/JSON;charset=UTF-8", nil])
    func jsonWithParametersOrNoContentTypeIsRead(contentType: String?) {
        var request = Requests.put(Requests.token)
        request.headers["Content-Type"] = contentType
        #expect(backend.handle(request).status.code == 204)
    }

    @Test func aDeleteCarriesNoBodySoItsContentTypeIsNotChecked() {
        var request = Requests.delete(Requests.token)
        request.headers["Content-Type"] = "text/plain"
        #expect(backend.handle(request).status.code == 204)
    }

    // MARK: 13 — every refused request is journaled with a problem body

    @Test func refusedRequestsAreJournaledAndAnsweredWithProblems() {
        var oversized = Requests.put(Requests.token, body: [])
        oversized.bodyLimitExceeded = true
        var textPlain = Requests.opened("91")
        textPlain.headers["Content-Type"] = "text/plain"
        let requests = [oversized, textPlain, HTTPRequest(method: "GET", path: "/v1/devices/ab"),
                        HTTPRequest(method: "POST", path: "/foo"), Requests.put(Requests.token, bearer: nil)]
        let statuses = requests.map { backend.handle($0) }.map { response -> Int in
            #expect(response.headers["Content-Type"] == "application/problem+json")
            return response.status.code
        }
        #expect(statuses == [413, 415, 405, 404, 401])
        #expect(backend.journal.map(\.status) == [413, 415, 405, 404, 401])
        #expect(backend.journal.map(\.path) == ["/v1/devices/\(Requests.token)", "/v1/notifications/91/opened",
                                                "/v1/devices/ab", "/foo", "/v1/devices/\(Requests.token)"])
        #expect(backend.journal.last?.detail == "no Authorization header")
    }

    // MARK: 14 — log lines: the requested path, tokens shortened as APNs lines do, the detail

    @Test func theLogLineShortensTheTokenAndShowsTheDetail() {
        _ = backend.handle(Requests.put(Requests.token.uppercased(), bearer: "nobody"))
        #expect(backend.journal.last?.logLine
            == "PUT /v1/devices/00fa11ce…abab 401 account=- violations=0 (the bearer token names no session)")
        _ = backend.handle(HTTPRequest(method: "POST", path: "/foo"))
        #expect(backend.journal.last?.logLine == "POST /foo 404 account=- violations=0")
    }
}
