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
        func next() -> String {
            var read = ""
            let deadline = Date().addingTimeInterval(5)
            while read.isEmpty && Date() < deadline {
                for chunk in stream.take().chunks { read += String(decoding: chunk, as: UTF8.self) }
                if read.isEmpty { usleep(2_000) }
            }
            return read
        }
        #expect(next() == "event: hello\ndata: {\"backend\":0}\n\n")
        _ = backend.handle(Requests.put(Requests.token))
        #expect(next() == "event: change\ndata: {\"source\":\"backend\",\"sequence\":1}\n\n")
        backend.setFault(.status(code: 503), count: 1)
        #expect(next() == "event: change\ndata: {\"source\":\"backend\",\"sequence\":1}\n\n")
    }
}
