import Contracts
import LoopbackHTTP
import Foundation
import Testing
@testable import FakeBackend

/// Odd targets and headers a client may send FakeBackend: each gets an answer, none traps.
@Suite struct OddTargetAndAuthorizationTests {
    let backend = FakeBackend(configuration: .init(sessions: Requests.sessions))

    @Test(arguments: [
        ("PUT", "/v1/devices/\u{301}ab", 400), ("PUT", "/v1/devices/", 400), ("DELETE", "/v1/devices/é", 400),
        ("POST", "/v1/notifications/opened", 404), ("POST", "/v1/notifications//opened", 400),
        ("POST", "/v1/notifications/\u{301}/opened", 400), ("POST", "/v1/notifications/91/opened?x=\u{301}", 204),
        ("GET", "/v1/devices/ab", 405), ("PUT", "?", 404), ("PUT", "", 404),
    ])
    func oddTargetsGetAnAnswer(_ method: String, _ path: String, _ status: Int) {
        let body = method == "PUT" ? Requests.registration() : Array(#"{"action":"open"}"#.utf8)
        let request = HTTPRequest(method: method, path: path, headers: Requests.headers("s1", json: true), body: body)
        #expect(backend.handle(request).status.code == status)
        #expect(backend.journal.count == 1)
    }

    /// Only `Bearer  s1 ` names a session (extra spaces are trimmed, the scheme is
    /// case-insensitive); every other value is no bearer at all, so 401.
    @Test(arguments: [
        ("", 401), (" ", 401), ("Bearer", 401), ("Bearer ", 401), ("bearer\u{301} s1", 401), ("\u{301}Bearer s1", 401),
        ("Basic s1", 401), ("Bearer  s1 ", 204),
    ])
    func oddAuthorizationsGetAnAnswer(_ value: String, _ status: Int) {
        var headers = Requests.headers(nil, json: true)
        headers.append(name: "Authorization", value: value)
        let request = HTTPRequest(method: "DELETE", path: "/v1/devices/\(Requests.token)", headers: headers)
        #expect(backend.handle(request).status.code == status)
    }
}
