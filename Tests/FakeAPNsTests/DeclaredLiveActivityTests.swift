import Contracts
import FakeSupport
import Foundation
import LoopbackHTTP
import Testing
@testable import FakeAPNs

/// A Live Activity type of the app's own, declared once (issue 40): the grocery app's
/// delivery-slot countdown, beside the order tracker on the same device.
struct SlotCountdownAttributes: LiveActivityAttributes {
    struct ContentState: Codable, Hashable, Sendable {
        enum Status: String, Codable, Hashable, Sendable { case open, closing, closed }
        var slotEnds: Date
        var status: Status
    }

    var slotId: String

    static let attributesSchema: Schema = .object([.required("slotId", .string(minLength: 1))], unknownMembers: .allow)
    static let contentStateSchema: Schema = .object([
        .required("slotEnds", .liveActivityDate),
        .required("status", .string(oneOf: ["open", "closing", "closed"])),
    ], unknownMembers: .allow)
}

@Suite struct DeclaredLiveActivityTests {
    typealias T = APNsTestbed
    typealias L = LiveActivityTests
    static let now = L.now
    /// 2025-12-01T15:00:00Z as ActivityKit's `Date`: seconds since 2001.
    static let slotEnds: Int64 = 786_294_000

    static func startSlot(timestamp: Int64 = now, type: String = "SlotCountdownAttributes") -> String {
        #""event":"start","timestamp":\#(timestamp),"content-state":{"slotEnds":\#(slotEnds),"status":"open"},"attributes-type":"\#(type)","attributes":{"slotId":"S-14"},"alert":{"title":"Slot booked","body":"Order by 15:00"}"#
    }

    static func updateSlot(_ token: String, timestamp: Int64, state: String) -> HTTPRequest {
        L.push(token, #""event":"update","timestamp":\#(timestamp),"content-state":\#(state)"#)
    }

    /// A device with a tracker and a slot countdown, each started by a push to its type's push-to-start token.
    static func withBoth() throws -> (APNsTestbed, tracker: LiveActivity, slot: LiveActivityOf<SlotCountdownAttributes>) {
        let bed = T()
        let trackerStart = bed.fake.registerPushToStartToken(device: T.token)
        let slotStart = bed.fake.registerPushToStartToken(device: T.token, for: SlotCountdownAttributes.self)
        #expect(trackerStart != slotStart)
        #expect(bed.fake.handle(L.push(trackerStart, L.start)).status.code == 200)
        #expect(bed.fake.journal.last?.delivery == .activityStarted)
        #expect(bed.fake.handle(L.push(slotStart, startSlot())).status.code == 200)
        #expect(bed.fake.journal.last?.delivery == .activityStarted, "\(bed.fake.journal.last?.detail ?? "")")
        #expect(bed.fake.journal.last?.violations.isEmpty == true, "checked by its own type's contract, not the tracker's")
        let tracker = try #require(bed.fake.liveActivities(onDevice: T.token).first)
        let slot = try #require(bed.fake.liveActivities(onDevice: T.token, of: SlotCountdownAttributes.self).first)
        return (bed, tracker, slot)
    }

    @Test func twoTypesLiveSideBySideOnOneDeviceEachWithItsOwnTokenAndState() throws {
        let (bed, tracker, slot) = try Self.withBoth()
        #expect(slot.attributes == SlotCountdownAttributes(slotId: "S-14"))
        #expect(slot.contentState == .init(slotEnds: Date(timeIntervalSinceReferenceDate: Double(Self.slotEnds)), status: .open))
        #expect(slot.attributesType == "SlotCountdownAttributes" && slot.pushToken != tracker.pushToken)
        #expect(bed.fake.liveActivities(onDevice: T.token).count == 1, "the tracker's list holds trackers only")

        #expect(bed.fake.handle(Self.updateSlot(slot.pushToken, timestamp: Self.now + 1,
                                                state: #"{"slotEnds":\#(Self.slotEnds),"status":"closing"}"#)).status.code == 200)
        #expect(bed.fake.journal.last?.delivery == .activityUpdated)
        #expect(bed.fake.liveActivity(pushToken: slot.pushToken, as: SlotCountdownAttributes.self)?.contentState.status == .closing)
        #expect(bed.fake.liveActivity(pushToken: tracker.pushToken)?.contentState.stage == .confirmed, "the tracker is untouched")
        #expect(bed.fake.liveActivity(pushToken: slot.pushToken) == nil, "not a tracker")
        #expect(bed.fake.liveActivityHistory(pushToken: slot.pushToken, as: SlotCountdownAttributes.self).map(\.contentState.status) == [.open, .closing])
    }

    /// The field's most common failure: APNs answers 200 and the activity never changes,
    /// because a member was renamed on the server only. The journal says which member, in
    /// the decoder's words.
    @Test func aContentStateThatDoesNotDecodeIsJournaledWithTheDecodersWords() throws {
        let (bed, _, slot) = try Self.withBoth()
        let renamed = Self.updateSlot(slot.pushToken, timestamp: Self.now + 1, state: #"{"slotEnd":\#(Self.slotEnds),"status":"closing"}"#)
        #expect(bed.fake.handle(renamed).status.code == 200)
        let entry = try #require(bed.fake.journal.last)
        #expect(entry.delivery == .droppedUndecodableContentState)
        let detail = entry.detail ?? ""
        #expect(detail.hasPrefix("content-state does not decode into SlotCountdownAttributes.ContentState: aps.content-state.slotEnds: required member missing"), "\(detail)")
        #expect(detail.contains("No value associated with key"), "the decoder's own words: \(detail)")
        #expect(entry.violations.map(\.ruleID) == ["live-activity-payload.required"], "the type's contract saw it too")
        #expect(entry.violations.map(\.pointer) == ["/aps/content-state"])

        _ = bed.fake.handle(Self.updateSlot(slot.pushToken, timestamp: Self.now + 2, state: #"{"slotEnds":"15:00","status":"closing"}"#))
        #expect(bed.fake.journal.last?.detail?.contains("aps.content-state.slotEnds: Expected to decode Double") == true, "\(bed.fake.journal.last?.detail ?? "")")
        #expect(bed.fake.liveActivity(pushToken: slot.pushToken, as: SlotCountdownAttributes.self)?.contentState.status == .open, "nothing applied")
    }

    @Test func anUnknownAttributesTypeNamesTheDeclaredOnes() throws {
        let bed = T()
        bed.fake.declareLiveActivity(SlotCountdownAttributes.self)
        let pushToStart = bed.fake.registerPushToStartToken(device: T.token, for: SlotCountdownAttributes.self)
        #expect(bed.fake.handle(L.push(pushToStart, Self.startSlot(type: "SlotCountdownAttribute"))).status.code == 200)
        let entry = try #require(bed.fake.journal.last)
        #expect(entry.delivery == .droppedUndecodableAttributes)
        #expect(entry.detail == #"attributes-type "SlotCountdownAttribute" is not a declared activity type (SlotCountdownAttributes): the app has no such activity — did you mean "SlotCountdownAttributes"?"#)

        let tracker = bed.fake.registerPushToStartToken(device: T.token)
        #expect(bed.fake.handle(L.push(tracker, Self.startSlot())).status.code == 200)
        #expect(bed.fake.journal.last?.delivery == .droppedUndecodableAttributes)
        #expect(bed.fake.journal.last?.detail?.contains("is not OrderTrackerAttributes, the type of this push-to-start token") == true)
        #expect(bed.fake.liveActivities(onDevice: T.token, of: SlotCountdownAttributes.self).isEmpty)
    }

    @Test func attributesThatDoNotDecodeDropTheStart() throws {
        let bed = T()
        let pushToStart = bed.fake.registerPushToStartToken(device: T.token, for: SlotCountdownAttributes.self)
        let start = Self.startSlot().replacingOccurrences(of: #""slotId":"S-14""#, with: #""slotId":14"#)
        _ = bed.fake.handle(L.push(pushToStart, start))
        #expect(bed.fake.journal.last?.delivery == .droppedUndecodableAttributes)
        #expect(bed.fake.journal.last?.detail?.hasPrefix("attributes do not decode into SlotCountdownAttributes: aps.attributes.slotId: Expected to decode String") == true,
                "\(bed.fake.journal.last?.detail ?? "")")
    }

    @Test func theAdminViewShowsEveryTypesStateAsItsTypeEncodes() throws {
        let (bed, _, slot) = try Self.withBoth()
        let response = AdminRoutesTests.call(bed.fake, "GET", "/apns/live-activities")
        let devices = try #require(AdminRoutesTests.object(response)["devices"] as? [[String: Any]])
        let items = try #require(devices.first?["activities"] as? [[String: Any]])
        let item = try #require(items.first { $0["pushToken"] as? String == slot.pushToken })
        #expect(item["attributesType"] as? String == "SlotCountdownAttributes")
        #expect((item["attributes"] as? [String: Any])?["slotId"] as? String == "S-14")
        #expect((item["contentState"] as? [String: Any])?["status"] as? String == "open")
        #expect((item["contentState"] as? [String: Any])?["slotEnds"] as? String == "2025-12-01T15:00:00.000Z")
        let tokens = try #require(devices.first?["pushToStartTokens"] as? [String: String])
        #expect(Set(tokens.keys) == ["OrderTrackerAttributes", "SlotCountdownAttributes"])
    }

    @Test func aStartedActivityStreamsItsOwnTypesStates() async throws {
        let bed = T()
        let started = try #require(bed.fake.startLiveActivity(
            device: T.token, attributes: SlotCountdownAttributes(slotId: "S-2"),
            contentState: .init(slotEnds: Date(timeIntervalSinceReferenceDate: 786_294_000), status: .open), timestamp: Self.now))
        _ = bed.fake.handle(L.push(started.pushToken, #""event":"end","timestamp":\#(Self.now + 1),"content-state":{"slotEnds":786294000,"status":"closed"},"dismissal-date":1"#))
        // Not dismissed would leave the stream open: stop here rather than wait forever.
        try #require(bed.fake.liveActivity(pushToken: started.pushToken, as: SlotCountdownAttributes.self)?.state == .dismissed)
        var seen: [SlotCountdownAttributes.ContentState.Status] = []
        for await snapshot in bed.fake.liveActivityStates(pushToken: started.pushToken, as: SlotCountdownAttributes.self) {
            seen.append(snapshot.contentState.status)
        }
        #expect(seen == [.open, .closed, .closed])
        var trackers = 0
        for await _ in bed.fake.liveActivityStates(pushToken: started.pushToken) { trackers += 1 }
        #expect(trackers == 0, "not a tracker: an empty stream")
    }

    /// The device decodes the members' text as sent: escapes, non-ASCII, numbers as written.
    @Test func theDeviceDecodesTheMembersExactlyAsSent() throws {
        let bed = T()
        let pushToStart = bed.fake.registerPushToStartToken(device: T.token, for: SlotCountdownAttributes.self)
        let start = #""event":"start","timestamp":\#(Self.now),"content-state":{"slotEnds":7.86294e8,"status":"open","note":[null,true,{"a":-0.5}]},"attributes-type":"SlotCountdownAttributes","attributes":{"slotId":"S-\"14\"\n\u00e9\/é\t"},"alert":{"title":"t","body":"b"}"#
        #expect(bed.fake.handle(L.push(pushToStart, start)).status.code == 200)
        let slot = try #require(bed.fake.liveActivities(onDevice: T.token, of: SlotCountdownAttributes.self).first,
                                "\(bed.fake.journal.last?.detail ?? "")")
        #expect(slot.attributes.slotId == "S-\"14\"\né/é\t")
        #expect(slot.contentState.slotEnds == Date(timeIntervalSinceReferenceDate: 786_294_000))
    }

    /// `POST /apns/live-activities/push-to-start` gives a token of any declared type.
    @Test func theAdminAPIGivesAPushToStartTokenOfADeclaredType() throws {
        let bed = T()
        bed.fake.declareLiveActivity(SlotCountdownAttributes.self)
        let path = "/apns/live-activities/push-to-start"
        let answer = AdminRoutesTests.call(bed.fake, "POST", path, #"{"device":"\#(T.token)","attributesType":"SlotCountdownAttributes"}"#)
        #expect(answer.status.code == 200)
        let object = AdminRoutesTests.object(answer)
        #expect(object["attributesType"] as? String == "SlotCountdownAttributes")
        let token = try #require(object["pushToStartToken"] as? String)
        #expect(bed.fake.pushToStartToken(device: T.token, for: SlotCountdownAttributes.self) == token)
        #expect(bed.fake.handle(L.push(token, Self.startSlot())).status.code == 200)
        #expect(bed.fake.journal.last?.delivery == .activityStarted)

        let unknown = AdminRoutesTests.call(bed.fake, "POST", path, #"{"device":"\#(T.token)","attributesType":"SlotCountdown"}"#)
        #expect(unknown.status.code == 400)
        let detail = AdminRoutesTests.object(unknown)["detail"] as? String
        #expect(detail?.hasPrefix(#"/attributesType: attributes-type "SlotCountdown" is not a declared activity type (SlotCountdownAttributes)"#) == true,
                "\(detail ?? "")")
    }

    /// A broadcast is checked against the contract of its channel's activities' type.
    @Test func aBroadcastToDeclaredActivitiesIsCheckedByTheirContract() throws {
        let (bed, _, slot) = try Self.withBoth()
        let channel = try BroadcastTests.create(bed)
        #expect(bed.fake.subscribe(pushToken: slot.pushToken, toChannel: channel))
        let update = #""event":"update","timestamp":\#(Self.now + 1),"content-state":{"slotEnds":\#(Self.slotEnds),"status":"closed"}"#
        #expect(bed.fake.handle(BroadcastTests.broadcast(channel, update)).status.code == 200)
        #expect(bed.fake.journal.last?.violations.isEmpty == true, "\(bed.fake.journal.last?.violations ?? [])")
        #expect(bed.fake.liveActivity(pushToken: slot.pushToken, as: SlotCountdownAttributes.self)?.contentState.status == .closed)
    }
}
