import Contracts
import LoopbackHTTP
import Foundation
import Testing
@testable import FakeBackend

/// FakeBackend's logic without a socket: every endpoint, auth, violations, state.
@Suite struct BackendHandlerTests {
    let backend = FakeBackend(configuration: .init(sessions: Requests.sessions))

    @Test func registersADeviceLowercaseWithItsFields() {
        let response = backend.handle(Requests.put(Requests.token.uppercased()))
        #expect(response.status == .noContent)
        #expect(response.body.isEmpty)
        let device = backend.devices[Requests.token]
        #expect(device?.account == "a1")
        #expect(device?.environment == "production")
        #expect(device?.appVersion == "4.2.0")
        #expect(device?.publicKey == Requests.publicKey)
        #expect(backend.devices.count == 1)
    }

    @Test func theSamePutTwiceChangesNothing() {
        #expect(backend.handle(Requests.put(Requests.token)).status == .noContent)
        let first = backend.devices
        #expect(backend.handle(Requests.put(Requests.token.uppercased())).status == .noContent)
        #expect(backend.devices == first)
        #expect(backend.state.requestCount(.putDevice) == 2)
    }

    @Test func aPutFromAnotherAccountMovesTheToken() {
        _ = backend.handle(Requests.put(Requests.token, bearer: "s1"))
        #expect(backend.handle(Requests.put(Requests.token, bearer: "s2", body: Requests.registration(appVersion: "4.3.0"))).status == .noContent)
        #expect(backend.devices[Requests.token]?.account == "a2")
        #expect(backend.devices[Requests.token]?.appVersion == "4.3.0")
        #expect(backend.devices.count == 1)
    }

    @Test func deleteOwnAbsentAndAnotherAccounts() {
        _ = backend.handle(Requests.put(Requests.token, bearer: "s1"))
        // Another account's token: 404, and the device stays.
        let other = backend.handle(Requests.delete(Requests.token, bearer: "s2"))
        #expect(other.status == .notFound)
        #expect(other.headers["Content-Type"] == "application/problem+json")
        #expect(backend.devices[Requests.token]?.account == "a1")
        // Own: 204 and gone.
        #expect(backend.handle(Requests.delete(Requests.token.uppercased(), bearer: "s1")).status == .noContent)
        #expect(backend.devices.isEmpty)
        // Absent: still 204.
        #expect(backend.handle(Requests.delete(Requests.token, bearer: "s2")).status == .noContent)
        #expect(backend.journal.map(\.status) == [204, 404, 204, 204])
    }

    @Test func openedTwiceIsRecordedTwice() {
        #expect(backend.handle(Requests.opened("91", action: "trackOrder")).status == .noContent)
        #expect(backend.handle(Requests.opened("91", action: "trackOrder", bearer: "s2")).status == .noContent)
        #expect(backend.handle(Requests.opened("92")).status == .noContent)
        let opens = backend.opens(for: "91")
        #expect(opens.map(\.account) == ["a1", "a2"])
        #expect(opens.map(\.action) == ["trackOrder", "trackOrder"])
        #expect(opens.map(\.sequence) == [1, 2])
        #expect(backend.opens.count == 3)
    }

    @Test(arguments: [nil, "s9", "Basic czE6eA=="])
    func missingOrUnknownBearerIs401(bearer: String?) {
        var request = Requests.put(Requests.token, bearer: nil)
        if let bearer {
            request.headers.append(name: "Authorization", value: bearer.hasPrefix("Basic") ? bearer : "Bearer \(bearer)")
        }
        let response = backend.handle(request)
        #expect(response.status == .unauthorized)
        #expect(response.headers["WWW-Authenticate"]?.hasPrefix("Bearer") == true)
        #expect(response.headers["Content-Type"] == "application/problem+json")
        let problem = Requests.json(response)
        #expect(problem["status"] as? Int == 401)
        #expect(problem["title"] as? String == "Unauthorized")
        #expect((problem["type"] as? String)?.isEmpty == false)
        #expect((problem["detail"] as? String)?.contains("Bearer") == true)
        #expect(backend.devices.isEmpty)
        #expect(backend.journal.first?.status == 401)
        #expect(backend.journal.first?.account == nil)
    }

    @Test func anyBearerIsItsOwnAccountWhenAsked() {
        let open = FakeBackend(configuration: .init(acceptsAnyBearer: true))
        #expect(open.handle(Requests.put(Requests.token, bearer: "alice")).status == .noContent)
        #expect(open.devices[Requests.token]?.account == "alice")
        #expect(open.handle(Requests.put(Requests.token, bearer: nil)).status == .unauthorized)
    }

    @Test func addedSessionsAreHonoured() {
        #expect(backend.handle(Requests.put(Requests.token, bearer: "s3")).status == .unauthorized)
        backend.addSession(bearer: "s3", account: "a3")
        #expect(backend.handle(Requests.put(Requests.token, bearer: "s3")).status == .noContent)
        #expect(backend.devices[Requests.token]?.account == "a3")
    }

    @Test func unknownPathIs404AndWrongMethodIs405WithAllow() {
        let missing = backend.handle(HTTPRequest(method: "GET", path: "/v1/nothing"))
        #expect(missing.status == .notFound)
        #expect(missing.headers["Content-Type"] == "application/problem+json")
        let wrong = backend.handle(HTTPRequest(method: "GET", path: "/v1/devices/\(Requests.token)"))
        #expect(wrong.status == .methodNotAllowed)
        #expect(wrong.headers["Allow"] == "PUT, DELETE")
        let wrongOpened = backend.handle(HTTPRequest(method: "PUT", path: "/v1/notifications/91/opened"))
        #expect(wrongOpened.headers["Allow"] == "POST")
        #expect(backend.journal.map(\.endpoint) == [nil, nil, nil])
        #expect(backend.journal.map(\.status) == [404, 405, 405])
    }

    @Test func anUnknownKeyIsAViolationWithPointerAndRule() {
        let body = #"{"platform":"ios","environment":"production","appVersion":"4.2.0","publicKey":"\#(Requests.publicKey)","account":"a2"}"#
        let response = backend.handle(Requests.put(Requests.token, body: Array(body.utf8)))
        #expect(response.status == .badRequest)
        #expect(response.headers["Content-Type"] == "application/problem+json")
        let violations = Requests.violations(response)
        let unknown = violations.first { $0["pointer"] as? String == "/account" }
        #expect(unknown != nil)
        #expect((unknown?["rule"] as? String)?.isEmpty == false)
        #expect((unknown?["message"] as? String)?.isEmpty == false)
        #expect(backend.devices.isEmpty)
        #expect(backend.journal.last?.violations.contains { $0.pointer == "/account" } == true)
    }

    @Test func aBadTokenIsAPathViolation() {
        let response = backend.handle(Requests.put("not-hex"))
        #expect(response.status == .badRequest)
        #expect(Requests.violations(response).contains { $0["pointer"] as? String == "/path/token" })
        #expect(backend.devices.isEmpty)
    }

    @Test func aBadNotificationIDIsAPathViolation() {
        let response = backend.handle(Requests.opened("91%2F..", action: "open"))
        #expect(response.status == .badRequest)
        #expect(Requests.violations(response).contains { $0["pointer"] as? String == "/path/id" })
        #expect(backend.opens.isEmpty)
    }

    @Test func aJSONSyntaxErrorIsAViolationWithLineAndColumn() {
        let response = backend.handle(Requests.put(Requests.token, body: Array("{\n  \"platform\": ios}".utf8)))
        #expect(response.status == .badRequest)
        let violation = Requests.violations(response).first
        #expect(violation?["rule"] as? String == "json.syntax")
        #expect(violation?["line"] as? Int == 2)
        #expect(violation?["column"] as? Int == 15)
    }

    @Test(arguments: ["", "{}", "[]", "null", #"{"action":"dance"}"#, #"{"action":1}"#])
    func aBadOpenedBodyIsRejectedAndNotCounted(body: String) {
        var request = Requests.opened("91")
        request.body = Array(body.utf8)
        let response = backend.handle(request)
        #expect(response.status == .badRequest)
        #expect(!Requests.violations(response).isEmpty)
        #expect(backend.opens.isEmpty)
        #expect(backend.journal.last?.violations.isEmpty == false)
    }

    @Test func theJournalIsBoundedAndCountsWhatItDropped() {
        let small = FakeBackend(configuration: .init(sessions: Requests.sessions, journalCapacity: 3))
        for index in 1...5 { _ = small.handle(Requests.opened("n\(index)")) }
        #expect(small.journal.map(\.sequence) == [3, 4, 5])
        #expect(small.droppedJournalEntries == 2)
        #expect(small.state.requestCount(.opened) == 5)
        #expect(small.opens.count == 5)
    }

    @Test func theJournalRecordsEveryRequest() {
        _ = backend.handle(Requests.put(Requests.token))
        _ = backend.handle(Requests.opened("91"))
        let journal = backend.journal
        #expect(journal.map(\.endpoint) == [.putDevice, .opened])
        #expect(journal.map(\.method) == ["PUT", "POST"])
        #expect(journal.map(\.path) == ["/v1/devices/\(Requests.token)", "/v1/notifications/91/opened"])
        #expect(journal.map(\.account) == ["a1", "a1"])
        #expect(journal.map(\.status) == [204, 204])
    }

    @Test func resetForgetsStateButKeepsSessions() {
        _ = backend.handle(Requests.put(Requests.token))
        _ = backend.handle(Requests.opened("91"))
        backend.addFault(.status(code: 500), count: 3)
        backend.reset()
        #expect(backend.devices.isEmpty)
        #expect(backend.opens.isEmpty)
        #expect(backend.journal.isEmpty)
        #expect(backend.faults.isEmpty)
        #expect(backend.handle(Requests.put(Requests.token)).status == .noContent)
    }
}

/// What one hostile request can make the backend keep.
@Suite struct BoundedRecordTests {
    @Test func aBodyWithThousandsOfViolationsKeepsTheFirstHundred() {
        let backend = FakeBackend(configuration: .init(sessions: Requests.sessions))
        let members = (0..<5000).map { #""k\#($0)":1"# }.joined(separator: ",")
        let response = backend.handle(Requests.put(Requests.token, body: Array("{\(members)}".utf8)))
        #expect(response.status == .badRequest)
        #expect(Requests.violations(response).count == FakeBackend.maxViolationsKept)
        #expect((Requests.json(response)["detail"] as? String)?.contains("The first 100 are listed") == true)
        #expect(backend.journal.first?.violations.count == FakeBackend.maxViolationsKept)
    }

    @Test func aLongTargetIsJournaledCut() {
        let backend = FakeBackend(configuration: .init(sessions: Requests.sessions))
        let path = "/v1/devices/" + String(repeating: "ab", count: 5000)
        #expect(backend.handle(HTTPRequest(method: "PUT", path: path, headers: ["Authorization": "Bearer s1"])).status == .badRequest)
        let journaled = backend.journal.first?.path ?? ""
        #expect(journaled.utf8.count == FakeBackend.maxJournaledPathBytes + "…".utf8.count)
        #expect(journaled.hasPrefix("/v1/devices/abab"))
    }
}
