import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import PushCore
import Testing
@testable import FakeSupport
import LoopbackHTTP

/// "Safe on localhost": loopback `Host` only, state changes only from the admin port's own
/// origin and never as a CORS-simple body, and the security headers on every answer.
@Suite struct AdminSafetyTests {
    /// An admin API whose `POST /reset` counts the resets it performed.
    static func api(resets: Locked<Int>) -> AdminAPI {
        var api = AdminAPI()
        api.add("POST", "/reset", summary: "count") { _ in
            resets.withLock { $0 += 1 }
            return HTTPResponse(status: .noContent)
        }
        api.add("GET", "/state", summary: "read") { _ in AdminAPI.json(["resets": resets.snapshot]) }
        return api
    }

    static func request(_ method: String, _ path: String, host: String? = "127.0.0.1:8081",
                        _ headers: [(String, String)] = [], body: String = "") -> HTTPRequest {
        var fields = HTTPFields()
        for (name, value) in headers { fields.append(name: name, value: value) }
        return HTTPRequest(method: method, path: path, authority: host, headers: fields, body: Array(body.utf8))
    }

    @Test func aHostThatDoesNotNameLoopbackIsMisdirected() {
        let resets = Locked(0)
        let api = Self.api(resets: resets)
        for host in ["evil.example", "evil.example:8081", "127.0.0.1.evil.example", "localhost.evil.example:1"] {
            let response = api.handle(Self.request("GET", "/state", host: host))
            #expect(response.status.code == 421, "\(host)")
            #expect(response.headers["Content-Type"] == "application/problem+json")
            // Issue 39: a real title (RFC 9110's reason phrase), not "Status 421".
            let title = (try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])?["title"] as? String
            #expect(title == "Misdirected Request", "\(title ?? "no title")")
        }
        #expect(api.handle(Self.request("POST", "/reset", host: "evil.example")).status.code == 421)
        #expect(resets.snapshot == 0)
        for host in ["127.0.0.1", "127.0.0.1:8081", "localhost", "LOCALHOST:9", "[::1]", "[::1]:8081", nil] {
            #expect(api.handle(Self.request("GET", "/state", host: host)).status.code == 200, "\(host ?? "no Host")")
        }
        var bound = api
        bound.boundHost = "192.168.1.20"
        #expect(bound.handle(Self.request("GET", "/state", host: "192.168.1.20:8081")).status.code == 200)
        #expect(api.handle(Self.request("GET", "/state", host: "192.168.1.20:8081")).status.code == 421)
    }

    @Test func aStateChangeFromAnotherOriginIsForbiddenAndChangesNothing() {
        let resets = Locked(0)
        let api = Self.api(resets: resets)
        for origin in ["http://evil.example", "null", "http://127.0.0.1:9999", "https://127.0.0.1:8081"] {
            let response = api.handle(Self.request("POST", "/reset", [("Origin", origin), ("Content-Type", "application/json")], body: "{}"))
            #expect(response.status.code == 403, "\(origin)")
        }
        #expect(resets.snapshot == 0, "no refused request reset anything")
        let sameOrigin = api.handle(Self.request("POST", "/reset", [("Origin", "http://127.0.0.1:8081"), ("Content-Type", "application/json")], body: "{}"))
        #expect(sameOrigin.status.code == 204)
        #expect(api.handle(Self.request("POST", "/reset")).status.code == 204, "curl -X POST: no Origin, no Content-Type")
        #expect(resets.snapshot == 2)
        #expect(api.handle(Self.request("GET", "/state", [("Origin", "http://evil.example")])).status.code == 200,
                "reads are left to the browser's same-origin policy")
    }

    @Test func aSimpleContentTypeIsRefusedOnStateChanges() {
        let resets = Locked(0)
        let api = Self.api(resets: resets)
        for type in ["text/plain", "text/plain;charset=UTF-8", "multipart/form-data; boundary=x"] {
            let response = api.handle(Self.request("POST", "/reset", [("Content-Type", type)], body: "{}"))
            #expect(response.status.code == 415, "\(type)")
            #expect(String(decoding: response.body, as: UTF8.self).contains("application/json"))
        }
        let formFromBrowser = api.handle(Self.request("POST", "/reset", [("Content-Type", "application/x-www-form-urlencoded"), ("Sec-Fetch-Site", "same-origin")]))
        #expect(formFromBrowser.status.code == 415)
        #expect(resets.snapshot == 0)
        let curlData = api.handle(Self.request("POST", "/reset", [("Content-Type", "application/x-www-form-urlencoded")], body: "{}"))
        #expect(curlData.status.code == 204, "curl -d sends this type; tools send no Origin or Sec-Fetch-*")
    }

    @Test func everyAnswerOverTheWireCarriesTheSecurityHeaders() async throws {
        let resets = Locked(0)
        let server = try AdminServer.start(api: Self.api(resets: resets))
        defer { server.stopNow() }
        let session = URLSession(configuration: .ephemeral)
        var post = URLRequest(url: server.baseURL.appendingPathComponent("reset"))
        post.httpMethod = "POST"
        post.setValue("application/json", forHTTPHeaderField: "Content-Type")
        post.setValue("http://127.0.0.1:\(server.port)", forHTTPHeaderField: "Origin")
        post.httpBody = Data("{}".utf8)
        for request in [post, URLRequest(url: server.baseURL.appendingPathComponent("nowhere"))] {
            let (_, response) = try await session.data(for: request)
            let http = try #require(response as? HTTPURLResponse)
            #expect(http.value(forHTTPHeaderField: "Content-Security-Policy")?.hasPrefix("default-src 'none'; script-src 'self';") == true)
            #expect(http.value(forHTTPHeaderField: "X-Content-Type-Options") == "nosniff")
            #expect(http.value(forHTTPHeaderField: "Referrer-Policy") == "no-referrer")
        }
        #expect(resets.snapshot == 1, "the same-origin JSON POST was accepted")
    }
}
