import Contracts
import LoopbackHTTP
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import FakeAPNs

/// The reason table again, each request sent by URLSession over HTTP/1.1 to a listening
/// FakeAPNs: the same verdicts as the handler gives.
/// Serialized: each row starts its own server, and a row at a time keeps the process's
/// thread count low for suites that measure it.
@Suite(.serialized) struct HTTP1ReasonTableTests {
    /// URLSession folds repeated header fields into one (`a, a`), so a duplicated header
    /// cannot be sent with it; the HTTP/2 table sends that case with curl.
    static let cases = APNsReasonTable.cases.filter { $0.reason != "DuplicateHeaders" }

    @Test(arguments: cases)
    func urlSessionGetsTheSameVerdict(_ row: ReasonCase) async throws {
        let bed = try await APNsTestbed.started(row.configure, inspector: row.inspector)
        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        let requests = row.requests(bed)
        var last: (status: Int, body: Data, apnsID: String?)?
        for request in requests {
            last = try await Self.send(request, to: bed.fake.baseURL, with: session)
        }
        await bed.fake.stop()
        let answer = try #require(last)
        #expect(answer.status == row.status)
        #expect(reason(of: HTTPResponse(status: HTTPStatus(code: answer.status), body: Array(answer.body))) == row.reason)
        #expect(answer.apnsID != nil)
        let journal = bed.fake.journal
        #expect(journal.count == requests.count)
        #expect(journal.allSatisfy { $0.protocolVersion == .http1_1 })
        if requests.count > 1 {
            // Per-connection rules need the requests on one kept-alive connection.
            #expect(Set(journal.map(\.connectionID)).count == 1, "URLSession used more than one connection")
        }
    }

    static func send(_ request: HTTPRequest, to base: URL, with session: URLSession) async throws -> (status: Int, body: Data, apnsID: String?) {
        let url = try #require(URL(string: base.absoluteString + request.path))
        var urlRequest = URLRequest(url: url)
        urlRequest.httpMethod = request.method
        for field in request.headers { urlRequest.setValue(field.value, forHTTPHeaderField: field.name) }
        if !request.body.isEmpty && request.method != "GET" { urlRequest.httpBody = Data(request.body) }
        let (data, response) = try await session.data(for: urlRequest)
        let http = try #require(response as? HTTPURLResponse)
        return (http.statusCode, data, http.value(forHTTPHeaderField: "apns-id"))
    }
}

@Suite struct FakeAPNsServerTests {
    @Test func withFakeAPNsListensOnLoopbackAndStops() async throws {
        let port = try await withFakeAPNs { apns -> UInt16 in
            #expect(apns.baseURL.absoluteString == "http://127.0.0.1:\(apns.port)")
            #expect(apns.port != 0)
            return apns.port
        }
        #expect(port != 0)
    }

    @Test func aPushOverHTTPIsDeliveredAndWaitedFor() async throws {
        let bed = try await APNsTestbed.started()
        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        async let delivered = bed.fake.waitForDeliveries(to: APNsTestbed.token, timeout: .seconds(10))
        let answer = try await HTTP1ReasonTableTests.send(APNsTestbed.push(), to: bed.fake.baseURL, with: session)
        #expect(answer.status == 200)
        #expect(answer.body.isEmpty)
        let notifications = try await delivered
        #expect(notifications.first?.apnsID == answer.apnsID)
        #expect(notifications.first?.pushPayload?.notificationID.description == "91")
        await bed.fake.stop()
    }
}
