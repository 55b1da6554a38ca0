import Contracts
import LoopbackHTTP
import Foundation
import Testing
@testable import FakeAPNs

/// The reason table again, sent over HTTP/2 cleartext (prior knowledge) by Python's `h2`, as
/// real APNs clients talk: the same verdicts as the handler gives, on one connection.
@Suite(.serialized, .enabled(if: H2PeerSender.isAvailable, "python3 with the h2 package is not installed"))
struct HTTP2ReasonTableTests {
    @Test(arguments: APNsReasonTable.cases)
    func h2ClientGetsTheSameVerdict(_ row: ReasonCase) async throws {
        let bed = try await APNsTestbed.started(row.configure, inspector: row.inspector)
        let requests = row.requests(bed)
        let answers = try await H2PeerSender.send(requests, port: bed.fake.port)
        await bed.fake.stop()
        let answer = try #require(answers.last)
        #expect(answers.count == requests.count)
        #expect(answer.status == row.status)
        #expect(reason(of: HTTPResponse(status: HTTPStatus(code: answer.status), body: answer.bodyBytes)) == row.reason)
        #expect(answer.headers["apns-id"] != nil)
        let journal = bed.fake.journal
        #expect(journal.count == requests.count)
        #expect(journal.allSatisfy { $0.protocolVersion == .http2 })
        #expect(Set(journal.map(\.connectionID)).count == 1)
    }

    @Test func goAwayCarriesTheJSONReasonAfterTooManyErrors() async throws {
        let bed = try await APNsTestbed.started { $0.goAwayAfterErrors = 2 }
        let bad = APNsTestbed.push(headers: [("apns-priority", "2")])
        let answers = try await H2PeerSender.send([bad, bad, APNsTestbed.push()], port: bed.fake.port)
        await bed.fake.stop()
        #expect(answers.count == 2)
        #expect(answers.first?.status == 400)
        #expect(answers.last?.event == "goaway")
        #expect(answers.last?.debug == #"{"reason":"BadPriority"}"#)
    }

    @Test func aGoAwayFaultCarriesItsReason() async throws {
        let bed = try await APNsTestbed.started()
        bed.fake.addFault(.next(1, .goAway(reason: "Shutdown")))
        let answers = try await H2PeerSender.send([APNsTestbed.push()], port: bed.fake.port)
        await bed.fake.stop()
        #expect(answers.last?.event == "goaway")
        #expect(answers.last?.debug == #"{"reason":"Shutdown"}"#)
        #expect(bed.fake.deliveredNotifications(for: APNsTestbed.token).isEmpty)
    }

    @Test func aLostResponseStillDelivers() async throws {
        let bed = try await APNsTestbed.started()
        bed.fake.addFault(.next(1, .loseResponse))
        let answers = try await H2PeerSender.send([APNsTestbed.push()], port: bed.fake.port)
        await bed.fake.stop()
        #expect(answers.last?.status != 200)
        #expect(bed.fake.deliveredNotifications(for: APNsTestbed.token).count == 1)
    }
}
