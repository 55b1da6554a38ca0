import Contracts
import LoopbackHTTP
import Testing
@testable import FakeBackend

/// Route and bearer parsing, which run on bytes for every request.
@Suite struct RoutingTests {
    @Test(arguments: [
        ("PUT", "/v1/devices/abCD", BackendRoute.endpoint(.putDevice, parameter: "abCD")),
        ("DELETE", "/v1/devices/ab?x=1", .endpoint(.deleteDevice, parameter: "ab")),
        ("PUT", "/v1/devices/", .endpoint(.putDevice, parameter: "")),
        ("PUT", "/v1/devices/a/b", .notFound),
        ("PUT", "/v1/devices", .notFound),
        ("PATCH", "/v1/devices/ab", .methodNotAllowed(allow: ["PUT", "DELETE"])),
        ("POST", "/v1/notifications/91/opened", .endpoint(.opened, parameter: "91")),
        ("POST", "/v1/notifications//opened", .endpoint(.opened, parameter: "")),
        ("POST", "/v1/notifications/opened", .notFound),
        ("POST", "/v1/notifications/a/b/opened", .notFound),
        ("GET", "/v1/notifications/91/opened?utm=x", .methodNotAllowed(allow: ["POST"])),
        ("POST", "/v1/notifications/91/openedx", .notFound),
        ("GET", "/", .notFound),
        ("GET", "", .notFound),
        ("PUT", "/v1/devices/é", .endpoint(.putDevice, parameter: "é")),
    ])
    func routes(method: String, target: String, expected: BackendRoute) {
        #expect(BackendRoute(method: method, target: target) == expected)
    }

    @Test(arguments: [
        ("Bearer s1", "s1"),
        ("bearer   s1  ", "s1"),
        ("  BEARER s1", "s1"),
        ("Bearer", ""),
        ("Bearer   ", ""),
        ("Basic czE=", nil),
        ("Bearers1", nil),
        ("", nil),
        ("Beare", nil),
    ] as [(String, String?)])
    func bearerTokens(header: String, expected: String?) {
        #expect(BackendStore.bearerToken(header) == expected)
    }
}

/// Problem bodies quote at most a short, marked prefix of the path the client sent (issue
/// 27: a 15,000-character path made every 404 15 KB, held for stalled readers).
@Suite struct ProblemEchoTests {
    @Test(arguments: [("GET", "not-found"), ("PATCH", "method-not-allowed")])
    func aLongPathIsQuotedAsAShortMarkedPrefix(method: String, kind: String) {
        let backend = FakeBackend()
        let path = "/v1/devices" + (method == "GET" ? "/a/" : "/") + String(repeating: "p", count: 8000)
        let response = backend.handle(HTTPRequest(method: method, path: path, headers: HTTPFields(), body: []))
        let body = String(decoding: response.body, as: UTF8.self)
        #expect(body.contains("problem:\(kind)"))
        #expect(body.contains(String(path.prefix(64)) + "…"))
        #expect(response.body.count < 500, "\(response.body.count) bytes")
    }
}
