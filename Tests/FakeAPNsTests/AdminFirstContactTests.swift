@testable import FakeSupport
import Contracts
import LoopbackHTTP
import Foundation
import Testing
@testable import FakeAPNs
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Issue 16's items for FakeAPNs' admin routes and journal: each test fails on the behaviour
/// the issue reported.
@Suite struct APNsAdminFirstContactTests {
    typealias T = APNsTestbed

    func call(_ fake: FakeAPNs, _ method: String, _ path: String, _ body: String = "") -> HTTPResponse {
        AdminRoutesTests.call(fake, method, path, body)
    }

    func detail(_ response: HTTPResponse) -> String {
        AdminRoutesTests.object(response)["detail"] as? String ?? ""
    }

    // MARK: 7

    @Test func misspeltMembersAndReasonsAreNamed() {
        let bed = T()
        let misspelt = call(bed.fake, "POST", "/apns/faults", #"{"fault":{"status":503,"reason":"ServiceUnavailable"},"probabilty":0.3,"sed":7}"#)
        #expect(misspelt.status.code == 400)
        #expect((AdminRoutesTests.object(misspelt)["violations"] as? [[String: Any]])?.map { $0["pointer"] as? String }
            == ["/probabilty", "/sed"])
        #expect(detail(misspelt).contains(#"did you mean "probability"?"#))
        let reason = call(bed.fake, "POST", "/apns/faults", #"{"fault":{"reason":"TooManyRequestz"},"count":1}"#)
        #expect(reason.status.code == 400)
        #expect(detail(reason) == #"/fault/reason: unknown APNs reason "TooManyRequestz"; did you mean "TooManyRequests"?"#)
        #expect(bed.fake.faults.isEmpty)
    }

    /// The fault body's members are its own keys and the nested fault's under `/fault`: every
    /// one is taken, and a misspelt nested one is named with its full pointer.
    @Test func theNestedFaultMembersAreKnownByTheirPointers() {
        let bed = T()
        let whole = call(bed.fake, "POST", "/apns/faults",
                         #"{"fault":{"kind":"reason","status":410,"reason":"Unregistered","delay":0,"timestamp":1},"count":1,"token":"\#(T.token)"}"#)
        #expect(whole.status.code == 201, "\(detail(whole))")
        let misspelt = call(bed.fake, "POST", "/apns/faults", #"{"fault":{"kind":"delay","dealy":5},"count":1}"#)
        #expect(misspelt.status.code == 400)
        #expect((AdminRoutesTests.object(misspelt)["violations"] as? [[String: Any]])?.map { $0["pointer"] as? String } == ["/fault/dealy"])
        #expect(detail(misspelt).contains(#"did you mean "delay"?"#), "\(detail(misspelt))")
    }

    @Test func aReasonAloneTakesItsStatusFromApplesTable() {
        let bed = T()
        #expect(call(bed.fake, "POST", "/apns/faults", #"{"fault":{"reason":"TooManyRequests"},"count":1}"#).status.code == 201)
        #expect(bed.fake.handle(T.push()).status.code == 429)
    }

    @Test(arguments: [
        ("GET", "/apns/journal?since=abc", "", "?since=abc: expected a whole number"),
        ("GET", "/apns/journal?since=-1", "", "?since=-1: expected a whole number"),
        ("GET", "/apns/deliveries?token=zz", "", "?token=zz: expected an even number"),
        ("POST", "/apns/offline", #"{"offline":"yes"}"#, #"/offline: expected a boolean, found a string ("yes")"#),
        ("POST", "/apns/duplicates", #"{"count":1.5}"#, "/count: expected an integer, found 1.5"),
        ("POST", "/apns/faults", #"{"fault":"reset","count":1}"#, #"/fault: expected an object, found a string ("reset")"#),
        ("POST", "/apns/devices/online", #"{"token":"zz","online":true}"#, "/token: expected an even number"),
    ])
    func badQueriesAndTypesAre400s(method: String, path: String, body: String, expected: String) {
        let response = call(T().fake, method, path, body)
        #expect(response.status.code == 400)
        #expect(detail(response).hasPrefix(expected), "\(detail(response))")
        #expect(AdminRoutesTests.object(response)["type"] as? String == "urn:push-contracts:problem:admin")
    }

    // MARK: 8

    @Test func resetBringsDevicesOnlineThePortBackAndForgetsTheRest() async throws {
        let bed = try await T.started()
        defer { bed.fake.stopListening() }
        let other = APNsReasonTable.otherToken
        bed.fake.register(token: other, topic: T.topic)
        bed.fake.setOnline(false, token: T.token)
        bed.fake.unregister(token: other)
        bed.fake.addFault(.next(3, .hang))
        _ = bed.fake.handle(T.push())
        await bed.fake.setOffline(true)
        #expect(await !Self.answers(bed.fake))

        #expect(call(bed.fake, "POST", "/apns/reset").status.code == 204)
        #expect(bed.fake.journal.isEmpty)
        #expect(bed.fake.faults.isEmpty)
        #expect(bed.fake.isOnline(token: T.token))
        #expect(bed.fake.deliveredNotifications(for: T.token).isEmpty)
        #expect(reason(of: bed.fake.handle(T.push(token: other))) == "BadDeviceToken")  // not 410: forgotten
        #expect(bed.fake.journal.last?.sequence == 2)  // the sequence keeps counting
        #expect(await Self.answers(bed.fake))  // the port accepts connections again
    }

    /// Whether the fake answers an HTTP/1.1 request on its port (any status will do).
    static func answers(_ fake: FakeAPNs) async -> Bool {
        let request = URLRequest(url: fake.baseURL.appendingPathComponent("3/device/ab"), timeoutInterval: 10)
        return (try? await URLSession.shared.data(for: request)) != nil
    }

    // MARK: 9, 10

    @Test func postingAFaultAnswers201WithTheListThatGetShows() {
        let bed = T()
        let posted = call(bed.fake, "POST", "/apns/faults", #"{"fault":{"status":503,"reason":"ServiceUnavailable"},"count":2}"#)
        #expect(posted.status.code == 201)
        #expect(call(bed.fake, "POST", "/apns/duplicates", #"{"probability":0.5,"seed":3}"#).status.code == 204)
        _ = bed.fake.handle(T.push())
        let listed = AdminRoutesTests.object(call(bed.fake, "GET", "/apns/faults"))
        let faults = listed["faults"] as? [[String: Any]] ?? []
        #expect(faults.count == 1)
        #expect(faults.first?["count"] as? Int == 1)
        #expect((faults.first?["fault"] as? [String: Any])?["reason"] as? String == "ServiceUnavailable")
        #expect((listed["duplicates"] as? [[String: Any]])?.first?["seed"] as? Int == 3)
        #expect((listed["order"] as? String)?.contains("only that one fires") == true)
        #expect((AdminRoutesTests.object(posted)["faults"] as? [Any])?.count == 1)
    }

    @Test func onlyTheFirstMatchingFaultFires() {
        let bed = T()
        bed.fake.addFault(.next(1, .reason(.serviceUnavailable)))
        bed.fake.addFault(.next(1, .reason(.internalServerError)))
        #expect(bed.fake.handle(T.push()).status.code == 503)
        #expect(bed.fake.faults == [.next(1, .reason(.internalServerError))])
    }

    @Test func journalEntriesUseTheSharedShape() throws {
        let bed = T()
        bed.clock.advance(seconds: 0.123)
        bed.fake.addFault(.next(1, .hang))
        _ = bed.fake.handle(T.push())
        _ = bed.fake.handle(T.push(body: Array(#"{"aps":{}}"#.utf8)))
        let entries = AdminRoutesTests.object(call(bed.fake, "GET", "/apns/journal"))["entries"] as? [[String: Any]] ?? []
        #expect(entries.count == 2)
        #expect(entries.first?["time"] as? String == AdminJSON.timestamp(milliseconds: T.start + 123))
        #expect((entries.first?["time"] as? String)?.hasSuffix(".123Z") == true)
        #expect(entries.first?["receivedAt"] == nil)
        #expect(entries.first?["status"] == nil)  // no answer was sent
        #expect((entries.first?["fault"] as? [String: Any])?["kind"] as? String == "hang")
        let violation = try #require((entries.last?["violations"] as? [[String: Any]])?.first)
        #expect(violation["rule"] as? String == "payload.notification-id-required")
        #expect(violation["pointer"] as? String != nil && violation["line"] as? Int != nil && violation["column"] as? Int != nil)
        #expect(violation["severity"] as? String == "error")
    }

    // MARK: 14

    @Test func logLinesShowTheRequestedPathAndTheDetail() {
        let bed = T()
        _ = bed.fake.handle(T.push(method: "GET"))
        #expect(bed.fake.journal.last?.logLine.hasPrefix("GET /3/device/abababab…abab 405 MethodNotAllowed") == true)
        var foo = T.push()
        foo.path = "/foo"
        _ = bed.fake.handle(foo)
        #expect(bed.fake.journal.last?.logLine.hasPrefix("POST /foo 404 BadPath") == true)
        bed.fake.unregister(token: T.token, at: Date(timeIntervalSince1970: 1_796_136_788.123))
        _ = bed.fake.handle(T.push(token: T.token.uppercased()))
        #expect(bed.fake.journal.last?.logLine
            == "POST /3/device/abababab…abab 410 Unregistered (unregistered at 2026-12-01T14:53:08.123Z)")
    }
}
