import Foundation
import Testing
import App
import Contracts
import FakeAPNs

/// The grocery app's second Live Activity type, the delivery-slot countdown, beside the order
/// tracker on one device: declared with the toolkit's public API only, started and updated
/// by the backend's sender over HTTP, and a member renamed on the server only caught, by the
/// device's decoder and by the contract.
@Suite struct DeliverySlotTests {
    static let device = String(repeating: "ab", count: 32)
    static let bundleID = "com.example.grocery"
    static let attributes = DeliverySlotAttributes(slotId: "S-14", window: "14:00-15:00")
    static let slotEnds = Date(timeIntervalSince1970: 1_764_601_200)
    static let contract = Contract.liveActivityPayload(for: DeliverySlotAttributes.self, name: "delivery-slot-activity")

    /// The backend's content state after a refactor renamed `slotEnds` on the server only:
    /// still valid JSON, still 200 from APNs, and the app never updates.
    struct RenamedOnServerState: Encodable, Sendable {
        var endsAt: Date
        var status: String
    }

    /// A FakeAPNs whose device has a push-to-start token for the countdown, a tracker already
    /// running, and a sender pointed at it.
    func withDevice(_ body: (FakeAPNs, DeliverySlotPusher, String) async throws -> Void) async throws {
        let clock = PushClock(stoppedAt: Date(timeIntervalSince1970: 1_764_600_000))
        var configuration = FakeAPNs.Configuration()
        configuration.clock = clock
        configuration.providerTokens = .ignore   // this suite is about the activity, not authentication
        try await withFakeAPNs(configuration: configuration) { apns in
            apns.register(token: Self.device, topic: Self.bundleID)
            let tracker = apns.startLiveActivity(device: Self.device, attributes: OrderTrackerAttributes(orderId: "8F3K"),
                                                 contentState: .init(stage: .picking))
            #expect(tracker != nil)
            let pushToStart = apns.registerPushToStartToken(device: Self.device, for: DeliverySlotAttributes.self)
            let pusher = DeliverySlotPusher(http: URLSessionHTTPClient(baseURL: apns.baseURL, timeout: 5),
                                            bundleID: Self.bundleID, now: { clock.now })
            try await body(apns, pusher, pushToStart)
        }
    }

    /// Breaks if the device does not decode the backend's countdown into the app's own type,
    /// or mixes it up with the tracker on the same device.
    @Test func theCountdownStartsAndUpdatesBesideTheTracker() async throws {
        try await withDevice { apns, pusher, pushToStart in
            await pusher.start(Self.attributes, showing: DeliverySlotAttributes.ContentState(slotEnds: Self.slotEnds, status: .open),
                               pushToStartToken: pushToStart)
            let started = try #require(apns.liveActivities(onDevice: Self.device, of: DeliverySlotAttributes.self).first,
                                       "\(apns.journal.last?.detail ?? "")")
            #expect(started.attributes == Self.attributes)
            #expect(started.contentState == .init(slotEnds: Self.slotEnds, status: .open))

            await pusher.update(DeliverySlotAttributes.ContentState(slotEnds: Self.slotEnds, status: .closingSoon),
                                activityToken: started.pushToken)
            let shown = apns.liveActivity(pushToken: started.pushToken, as: DeliverySlotAttributes.self)
            #expect(shown?.contentState.status == .closingSoon)
            #expect(apns.liveActivities(onDevice: Self.device).map(\.contentState.stage) == [.picking], "the tracker is its own")
            #expect(apns.journal.last?.detail == "applied: {\"slotEnds\":786294000,\"status\":\"closingSoon\"}")

            for body in await pusher.sent {
                #expect(Self.contract.validate(bytes: Array(body)).isEmpty, "\(String(decoding: body, as: UTF8.self))")
            }
        }
    }

    /// Breaks if a content-state the app cannot decode passes unnoticed: APNs answers 200,
    /// so only the device's decoder and the contract can tell.
    @Test func aMemberRenamedOnTheServerOnlyIsCaught() async throws {
        try await withDevice { apns, pusher, pushToStart in
            await pusher.start(Self.attributes, showing: DeliverySlotAttributes.ContentState(slotEnds: Self.slotEnds, status: .open),
                               pushToStartToken: pushToStart)
            let activity = try #require(apns.liveActivities(onDevice: Self.device, of: DeliverySlotAttributes.self).first)
            await pusher.update(RenamedOnServerState(endsAt: Self.slotEnds, status: "closingSoon"), activityToken: activity.pushToken)

            let entry = try #require(apns.journal.last)
            #expect(entry.status == 200, "APNs accepts it")
            #expect(entry.delivery == .droppedUndecodableContentState)
            #expect(entry.detail?.hasPrefix("content-state does not decode into DeliverySlotAttributes.ContentState: aps.content-state.slotEnds: required member missing") == true,
                    "\(entry.detail ?? "")")
            #expect(apns.liveActivity(pushToken: activity.pushToken, as: DeliverySlotAttributes.self)?.contentState.status == .open,
                    "the lock screen still shows the old state")

            let sent = await pusher.sent
            #expect(sent.count == 2)
            #expect(Self.contract.validate(bytes: Array(sent[0])).isEmpty)
            let violations = Self.contract.validate(bytes: Array(sent[1]))
            #expect(violations.map(\.ruleID) == ["delivery-slot-activity.required"])
            #expect(violations.first?.message.contains("slotEnds") == true, "\(violations)")
        }
    }
}
