import Foundation
import Testing
@testable import FakeSupport
@testable import LoopbackHTTP
@testable import FakeBackend

/// FakeBackend's part of `GET /events`: a journaled request and an admin state change each
/// bring a change event, with the journal's sequence.
@Suite struct BackendEventSourceTests {
    @Test func aRequestAndAFaultEachBringAChangeEvent() throws {
        let backend = FakeBackend(configuration: .init(sessions: Requests.sessions))
        let response = AdminAPI(backend: backend).handle(HTTPRequest(method: "GET", path: "/events", authority: "localhost:1"))
        guard case .stream(let stream) = response.disposition else {
            Issue.record("GET /events answered \(response.status.code) without a stream")
            return
        }
        defer { stream.end(.clientGone) }
        let steps: [(act: () -> Void, expected: String)] = [
            ({}, "event: hello\ndata: {\"backend\":0}\n\n"),
            ({ _ = backend.handle(Requests.put(Requests.token)) }, "event: change\ndata: {\"source\":\"backend\",\"sequence\":1}\n\n"),
            ({ backend.addFault(.status(code: 503), count: 1) }, "event: change\ndata: {\"source\":\"backend\",\"sequence\":1}\n\n"),
        ]
        for step in steps {
            step.act()
            var seen = ""
            for _ in 0..<2_500 where seen.isEmpty {  // 5 s at most
                seen = stream.take().chunks.map { String(decoding: $0, as: UTF8.self) }.joined()
                if seen.isEmpty { usleep(2_000) }
            }
            #expect(seen == step.expected)
        }
    }
}
