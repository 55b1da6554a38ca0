import Contracts
import Foundation
import Testing
@testable import FakeAPNs

/// Issue 24: the admin routes that set Live Activities up as a Swift test does — a device's
/// push-to-start token, an activity the app started itself — for `contract-check serve` users
/// and tests in other languages. Strict bodies, 400s with `violations`, as every admin route.
@Suite struct LiveActivityAdminRoutesTests {
    typealias T = APNsTestbed
    typealias L = LiveActivityTests

    static func call(_ bed: T, _ path: String, _ body: String) -> (status: Int, object: [String: Any]) {
        let response = AdminRoutesTests.call(bed.fake, "POST", path, body)
        return (response.status.code, AdminRoutesTests.object(response))
    }

    @Test func aPushToStartTokenFromTheAdminAPIStartsAnActivityOverTheWire() throws {
        let bed = T()
        let answer = Self.call(bed, "/apns/live-activities/push-to-start", #"{"device":"\#(T.token.uppercased())"}"#)
        #expect(answer.status == 200)
        #expect(answer.object["deviceToken"] as? String == T.token)
        let token = try #require(answer.object["pushToStartToken"] as? String)
        #expect(token.count == 160 && APNsRequestValidator.isDeviceToken(token))
        #expect(bed.fake.pushToStartToken(device: T.token) == token)
        #expect(bed.fake.handle(L.push(token, L.start)).status.code == 200)
        #expect(bed.fake.journal.last?.delivery == .activityStarted)
        #expect(bed.fake.liveActivities(onDevice: T.token).first?.attributes.orderId == "8F3K")

        // A chosen token replaces the device's earlier one, lowercased.
        let chosen = String(repeating: "C7", count: 32)
        let again = Self.call(bed, "/apns/live-activities/push-to-start", #"{"device":"\#(T.token)","token":"\#(chosen)"}"#)
        #expect(again.object["pushToStartToken"] as? String == chosen.lowercased())
        #expect(bed.fake.pushToStartToken(device: T.token) == chosen.lowercased())
    }

    @Test func anActivityStartedThroughTheAdminAPITakesUpdatesAtItsPushToken() throws {
        let bed = T()
        let answer = Self.call(bed, "/apns/live-activities", #"""
            {"device":"\#(T.token)","attributes":{"orderId":"8F3K"},
             "contentState":{"stage":"picking","eta":788921100,"itemsPicked":3,"itemsTotal":12},
             "staleDate":\#(L.now + 600),"timestamp":\#(L.now + 100)}
            """#)
        #expect(answer.status == 201)
        let token = try #require(answer.object["pushToken"] as? String)
        #expect(answer.object["state"] as? String == "active")
        #expect(answer.object["orderId"] as? String == "8F3K")
        let activity = try #require(bed.fake.liveActivity(pushToken: token))
        #expect(activity.deviceToken == T.token)
        #expect(activity.contentState == .init(stage: .picking, eta: Date(timeIntervalSinceReferenceDate: 788_921_100),
                                               itemsPicked: 3, itemsTotal: 12))
        #expect(activity.timestamp == L.now + 100)
        #expect(activity.staleAt == (L.now + 600) * 1000)
        // Its timestamp is the one given (not the clock's now): an update must be newer.
        #expect(bed.fake.handle(L.update(token, timestamp: L.now + 100)).status.code == 200)
        #expect(bed.fake.journal.last?.delivery == .ignoredOlderTimestamp)
        #expect(bed.fake.handle(L.update(token, timestamp: L.now + 101, stage: "onTheWay")).status.code == 200)
        #expect(bed.fake.liveActivity(pushToken: token)?.contentState.stage == .onTheWay)

        // A chosen push token, already in use: 409.
        let taken = Self.call(bed, "/apns/live-activities", #"{"device":"\#(T.token)","attributes":{"orderId":"A1"},"contentState":{"stage":"confirmed"},"pushToken":"\#(token)"}"#)
        #expect(taken.status == 409, "\(taken.object)")
        #expect(bed.fake.liveActivities(onDevice: T.token).count == 1)
    }

    @Test func aDeviceShowingAsManyActivitiesAsItMayIsA409() {
        let bed = T { $0.liveActivities.activitiesPerDevice = 1 }
        let body = #"{"device":"\#(T.token)","attributes":{"orderId":"A1"},"contentState":{"stage":"confirmed"}}"#
        #expect(Self.call(bed, "/apns/live-activities", body).status == 201)
        let second = Self.call(bed, "/apns/live-activities", body)
        #expect(second.status == 409)
        #expect((second.object["detail"] as? String)?.contains("already shows 1 activities") == true, "\(second.object)")
    }

    @Test(arguments: [
        ("/apns/live-activities/push-to-start", #"{"device":"zz"}"#, "/device", "admin.value", "hex digits"),
        ("/apns/live-activities/push-to-start", #"{"device":"\#(T.token)","token":"xyz"}"#, "/token", "admin.value", "hex digits"),
        ("/apns/live-activities/push-to-start", #"{"device":"\#(T.token)","tokn":"ab"}"#, "/tokn", "admin.unknown-member", #"did you mean "token"?"#),
        ("/apns/live-activities", #"{\#(adminStartPrefix),"contentState":{"stage":"onTheWey"}}"#, "/contentState/stage", "admin.value", #"did you mean "onTheWay"?"#),
        ("/apns/live-activities", #"{\#(adminStartPrefix),"contentState":{"stage":"confirmed","eta":1767228000}}"#, "/contentState/eta", "admin.value", "send 788920800"),
        ("/apns/live-activities", #"{\#(adminStartPrefix),"contentState":{"stage":"confirmed","itemsTotal":0}}"#, "/contentState/itemsTotal", "admin.value", "1 or more"),
        ("/apns/live-activities", #"{\#(adminStartPrefix),"contentState":{"stage":"confirmed","itemsPicked":-1}}"#, "/contentState/itemsPicked", "admin.value", "0 or more"),
        ("/apns/live-activities", #"{\#(adminStartPrefix),"contentState":{"stage":"confirmed","stag":"x"}}"#, "/contentState/stag", "admin.unknown-member", #"did you mean "stage"?"#),
        ("/apns/live-activities", #"{\#(adminStartPrefix),"contentState":{"stage":"confirmed"},"timestamp":-5}"#, "/timestamp", "admin.value", "Unix seconds"),
        ("/apns/live-activities", #"{\#(adminStartPrefix),"contentState":{"stage":"confirmed"},"pushToken":"q"}"#, "/pushToken", "admin.value", "hex digits"),
        ("/apns/live-activities", #"{"device":"\#(T.token)","attributes":{"orderId":"8F 3K"},"contentState":{"stage":"confirmed"}}"#, "/attributes/orderId", "admin.value", "order id"),
        ("/apns/live-activities", #"{"device":"\#(T.token)","contentState":{"stage":"confirmed"}}"#, "/attributes", "admin.missing-member", "required"),
    ])
    func every400ListsItsViolation(path: String, body: String, pointer: String, rule: String, says: String) {
        let bed = T()
        let answer = Self.call(bed, path, body)
        #expect(answer.status == 400)
        let violations = answer.object["violations"] as? [[String: Any]] ?? []
        #expect(violations.map { $0["pointer"] as? String } == [pointer], "\(violations)")
        #expect(violations.first?["rule"] as? String == rule, "\(violations)")
        #expect((violations.first?["message"] as? String)?.contains(says) == true, "\(violations)")
        #expect(bed.fake.liveActivities(onDevice: T.token).isEmpty && bed.fake.pushToStartToken(device: T.token) == nil)
    }

    @Test func everyMistakeOfABodyIsListed() {
        let answer = Self.call(T(), "/apns/live-activities",
                               #"{"device":"zz","attributes":{"orderId":""},"contentState":{"stage":"late","itemsTotal":0}}"#)
        #expect(answer.status == 400)
        let pointers = (answer.object["violations"] as? [[String: Any]] ?? []).compactMap { $0["pointer"] as? String }
        #expect(pointers == ["/device", "/attributes/orderId", "/contentState/stage", "/contentState/itemsTotal"])
    }
}

/// The device and attributes of an admin start body, before its `contentState`.
private let adminStartPrefix = #""device":"\#(APNsTestbed.token)","attributes":{"orderId":"8F3K"}"#
