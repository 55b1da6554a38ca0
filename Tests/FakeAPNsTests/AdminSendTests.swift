import FakeSupport
import LoopbackHTTP
import Foundation
import PushCore
import Testing
@testable import FakeAPNs

/// `POST /apns/send`: the dashboard's send-a-push form. The push goes through the same
/// handler as the push port's, so its checks, faults, journal, device and request hook apply.
@Suite struct AdminSendTests {
    typealias T = APNsTestbed

    static func sendBody(token: String = T.token, payload: String = #"{"aps":{"alert":"Hi","thread-id":"t1","badge":3}}"#,
                         extra: String = #","authorization":"bearer \#(T.providerToken())""#) -> String {
        let text = String(data: (try? JSONEncoder().encode(payload)) ?? Data(), encoding: .utf8) ?? "\"\""
        return #"{"token":"\#(token)","payload":\#(text)\#(extra)}"#
    }

    @Test func aSentPushIsDeliveredJournalledAndSeenByTheHook() throws {
        let seen = Locked<[APNsJournalEntry]>([])
        let bed = T { $0.onRequest = { entry in seen.withLock { $0.append(entry) } } }
        let response = AdminRoutesTests.call(bed.fake, "POST", "/apns/send", Self.sendBody())
        #expect(response.status.code == 200)
        let answer = AdminRoutesTests.object(response)
        #expect(answer["status"] as? Int == 200)
        let apnsID = try #require(answer["apnsID"] as? String)
        let journal = bed.fake.journal
        #expect(journal.count == 1)
        #expect(journal.first?.apnsID == apnsID)
        #expect(journal.first?.topic == T.topic)          // the device's one topic, as none was given
        #expect(journal.first?.delivery == .delivered)
        #expect(bed.fake.visibleNotifications(for: T.token).map(\.apnsID) == [apnsID])
        #expect(seen.snapshot.map(\.apnsID) == [apnsID])
    }

    @Test func itGoesThroughTheSameChecksAndFaults() {
        let bed = T()
        // No provider token while the fake verifies them: APNs' 403, journalled.
        let missing = AdminRoutesTests.object(AdminRoutesTests.call(bed.fake, "POST", "/apns/send", Self.sendBody(extra: "")))
        #expect(missing["status"] as? Int == 403)
        #expect(missing["reason"] as? String == "MissingProviderToken")
        #expect(AdminRoutesTests.call(bed.fake, "POST", "/apns/faults", #"{"fault":{"status":429,"reason":"TooManyRequests"},"count":1}"#).status.code == 201)
        let throttled = AdminRoutesTests.object(AdminRoutesTests.call(bed.fake, "POST", "/apns/send", Self.sendBody()))
        #expect(throttled["status"] as? Int == 429)
        #expect(throttled["reason"] as? String == "TooManyRequests")
        #expect(bed.fake.journal.map(\.status) == [403, 429])
        #expect(bed.fake.deliveredNotifications(for: T.token).isEmpty)
    }

    @Test func collapseAndTopicAndTypeBecomeHeaders() {
        let bed = T()
        let extra = #","authorization":"bearer \#(T.providerToken())","collapseID":"order-91","pushType":"alert","priority":5"#
        for _ in 0..<2 {
            #expect(AdminRoutesTests.object(AdminRoutesTests.call(bed.fake, "POST", "/apns/send", Self.sendBody(extra: extra)))["status"] as? Int == 200)
        }
        #expect(bed.fake.deliveredNotifications(for: T.token).count == 2)
        #expect(bed.fake.visibleNotifications(for: T.token).count == 1)   // the second replaced the first
        #expect(bed.fake.journal.last?.collapseID == "order-91")
    }

    @Test func aBadBodyIsA400NamingIt() {
        let bed = T()
        let badToken = AdminRoutesTests.call(bed.fake, "POST", "/apns/send", Self.sendBody(token: "zz"))
        #expect(badToken.status.code == 400)
        #expect(String(decoding: badToken.body, as: UTF8.self).contains("/token"))
        let noPayload = AdminRoutesTests.call(bed.fake, "POST", "/apns/send", #"{"token":"\#(T.token)"}"#)
        #expect(noPayload.status.code == 400)
        #expect(String(decoding: noPayload.body, as: UTF8.self).contains("payload"))
        #expect(bed.fake.journal.isEmpty)
    }
}
