import Foundation
import Testing
@testable import FakeSupport
@testable import LoopbackHTTP
@testable import FakeAPNs

/// FakeAPNs' part of `GET /events`: a push (journaled) and a device coming online each bring
/// a change event for `apns`.
@Suite struct APNsEventSourceTests {
    @Test func aPushAndADeviceComingOnlineEachBringAChangeEvent() throws {
        let bed = APNsTestbed()
        let api = AdminAPI(routes: bed.fake.adminRoutes)
        let response = api.handle(HTTPRequest(method: "GET", path: "/events", authority: "[::1]:1"))
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
        #expect(next() == "event: hello\ndata: {\"apns\":0}\n\n")
        _ = bed.fake.handle(APNsTestbed.push())
        #expect(next() == "event: change\ndata: {\"source\":\"apns\",\"sequence\":1}\n\n")
        bed.fake.setOnline(false, token: APNsTestbed.token)
        #expect(next() == "event: change\ndata: {\"source\":\"apns\",\"sequence\":1}\n\n")
    }
}
