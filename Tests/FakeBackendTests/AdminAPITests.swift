@testable import FakeSupport
import Contracts
import LoopbackHTTP
import Foundation
import Testing
@testable import FakeBackend
import PushTestSupport

/// The admin API as a handler: reads, faults, offline, sessions, reset, errors, extension.
@Suite struct AdminAPITests {
    let backend = FakeBackend(configuration: .init(sessions: Requests.sessions))
    var admin: AdminAPI { AdminAPI(backend: backend) }

    func call(_ method: String, _ path: String, _ body: String? = nil) -> HTTPResponse {
        admin.handle(HTTPRequest(method: method, path: path, headers: ["Content-Type": "application/json"],
                                 body: Array((body ?? "").utf8)))
    }

    @Test func readsDevicesOpensAndJournal() {
        _ = backend.handle(Requests.put(Requests.token))
        _ = backend.handle(Requests.opened("91", action: "trackOrder"))
        _ = backend.handle(Requests.opened("91", action: "trackOrder"))
        _ = backend.handle(Requests.opened("92"))

        let devices = Requests.json(call("GET", "/devices"))["devices"] as? [[String: Any]]
        #expect(devices?.first?["token"] as? String == Requests.token)
        #expect(devices?.first?["account"] as? String == "a1")

        let opens = Requests.json(call("GET", "/opens?id=91"))["opens"] as? [[String: Any]]
        #expect(opens?.count == 2)
        #expect(opens?.first?["action"] as? String == "trackOrder")
        #expect((Requests.json(call("GET", "/opens"))["opens"] as? [Any])?.count == 3)

        let journal = Requests.json(call("GET", "/journal"))
        let entries = journal["entries"] as? [[String: Any]]
        #expect(entries?.count == 4)
        #expect(entries?.first?["endpoint"] as? String == "putDevice")
        #expect(entries?.first?["status"] as? Int == 204)
        #expect(journal["dropped"] as? Int == 0)
    }

    @Test func setsAThrottleFaultWithRetryAfter() {
        let response = call("POST", "/faults", #"{"endpoint":"putDevice","kind":"status","status":429,"retryAfter":3,"count":2}"#)
        #expect(response.status.code == 201)
        #expect(backend.faults == [.next(2, .status(code: 429, retryAfter: 3), on: .putDevice)])
        let throttled = backend.handle(Requests.put(Requests.token))
        #expect(throttled.headers["Retry-After"] == "3")
        let listed = Requests.json(call("GET", "/faults"))["faults"] as? [[String: Any]]
        #expect(listed?.first?["count"] as? Int == 1)
        #expect(listed?.first?["kind"] as? String == "status")
    }

    @Test(arguments: [
        (#"{"kind":"delay","delayMs":150}"#, BackendFaultPlan.next(1, .delay(milliseconds: 150))),
        (#"{"kind":"hang","endpoint":"opened","count":3}"#, BackendFaultPlan.next(3, .hang, on: .opened)),
        (#"{"kind":"reset","probability":0.25,"seed":9}"#, BackendFaultPlan.probability(0.25, seed: 9, .reset)),
        (#"{"kind":"loseResponse","endpoint":"all"}"#, BackendFaultPlan.next(1, .loseResponse)),
        (#"{"kind":"status","status":503,"endpoint":"deleteDevice"}"#, BackendFaultPlan.next(1, .status(code: 503), on: .deleteDevice)),
    ])
    func setsEveryKindOfFault(body: String, expected: BackendFaultPlan) {
        #expect(call("POST", "/faults", body).status.code == 201)
        #expect(backend.faults == [expected])
    }

    @Test func anOfflineFaultAndPostOfflineTakeTheBackendOffline() {
        #expect(call("POST", "/faults", #"{"kind":"offline"}"#).status.code == 201)
        #expect(backend.isOffline)
        #expect(call("DELETE", "/faults").status == .noContent)
        #expect(!backend.isOffline)
        #expect(call("POST", "/offline", #"{"offline":true}"#).status == .noContent)
        #expect(backend.isOffline)
        #expect(Requests.json(call("GET", "/faults"))["offline"] as? Bool == true)
        #expect(call("POST", "/offline", #"{"offline":false}"#).status == .noContent)
        #expect(!backend.isOffline)
    }

    @Test(arguments: [
        (#"{"kind":"explode"}"#, "unknown kind"),
        (#"{"kind":"status"}"#, "/status: required"),
        (#"{"kind":"status","status":200}"#, "400-599"),
        (#"{"kind":"delay","delayMs":-1}"#, "delayMs"),
        (#"{"kind":"reset","count":0}"#, "count"),
        (#"{"kind":"reset","probability":2}"#, "probability"),
        (#"{"kind":"reset","count":1,"probability":0.5}"#, "not both"),
        (#"{"kind":"reset","endpoint":"putDevices"}"#, "unknown endpoint"),
        (#"{"kind":"reset","endpoint":"putDevise"}"#, #"unknown endpoint "putDevise"; did you mean "putDevice"?"#),
        ("not json", "not valid JSON"),
        ("", "the body is empty"),
    ])
    func rejectsABadFaultWithAClearMessage(body: String, expected: String) {
        let response = call("POST", "/faults", body)
        #expect(response.status == .badRequest)
        #expect(response.headers["Content-Type"] == "application/problem+json")
        let detail = Requests.json(response)["detail"] as? String ?? ""
        #expect(detail.contains(expected), "\(detail)")
        #expect(backend.faults.isEmpty)
    }

    @Test func addsSessions() {
        #expect(call("POST", "/sessions", #"{"bearer":"s7","account":"a7"}"#).status == .noContent)
        #expect(backend.sessions["s7"] == "a7")
        #expect(call("POST", "/sessions", #"{"bearer":"","account":"a7"}"#).status == .badRequest)
        #expect(call("POST", "/sessions", #"{"bearer":"s8"}"#).status == .badRequest)
    }

    /// `GET /sessions` lists the configuration's sessions and the added ones, by bearer token
    /// (the dashboard's backend panel shows them).
    @Test func listsSessions() throws {
        #expect(call("POST", "/sessions", #"{"bearer":"s0","account":"a9"}"#).status == .noContent)
        let response = call("GET", "/sessions")
        #expect(response.status == .ok)
        let sessions = try #require(Requests.json(response)["sessions"] as? [[String: String]])
        #expect(sessions == [["bearer": "s0", "account": "a9"], ["bearer": "s1", "account": "a1"], ["bearer": "s2", "account": "a2"]])
    }

    @Test func resetForgetsEverythingButSessions() {
        _ = backend.handle(Requests.put(Requests.token))
        backend.addFault(.hang)
        #expect(call("POST", "/reset").status == .noContent)
        #expect(backend.devices.isEmpty)
        #expect(backend.journal.isEmpty)
        #expect(backend.faults.isEmpty)
        #expect(backend.sessions == Requests.sessions)
    }

    @Test func unknownRoutesAre404AndWrongMethods405() {
        #expect(call("GET", "/nothing").status == .notFound)
        let wrong = call("PUT", "/faults")
        #expect(wrong.status == .methodNotAllowed)
        #expect(wrong.headers["Allow"] == "GET, POST, DELETE")
        let routes = Requests.json(call("GET", "/"))["routes"] as? [String]
        #expect(routes?.contains { $0.hasPrefix("POST /faults") } == true)
    }

    @Test func otherFakesCanAddRoutes() {
        var extended = admin
        extended.add("GET", "/apns/deliveries", summary: "Deliveries") { _ in AdminAPI.json(["deliveries": [String]()]) }
        extended.add("GET", "/journal", summary: "Replaced") { _ in HTTPResponse(status: .noContent) }
        #expect(extended.handle(HTTPRequest(method: "GET", path: "/apns/deliveries")).status == .ok)
        #expect(extended.handle(HTTPRequest(method: "GET", path: "/journal")).status == .noContent)
        #expect(extended.routes.filter { $0.path == "/journal" }.count == 1)
    }
}

/// Docs/admin-openapi.json describes exactly the routes the admin API serves.
@Suite struct AdminOpenAPIDocumentTests {
    @Test func everyRouteIsDocumentedAndEveryDocumentedRouteExists() throws {
        let document = try OpenAPIOperations("Docs/admin-openapi.json")
        #expect(document.version == "3.1.0")
        let documented = document.operations
        let api = AdminAPI(backend: FakeBackend())
        let served = Set((api.routes + Dashboard.routes).map { "\($0.method) \($0.path)" } + ["GET /"])
        #expect(documented == served)
    }
}
