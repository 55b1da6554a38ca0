// The listing of FakeAPNs.docc's "Test your own Live Activity", compiled and run as a test.
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking  // URLSession on Linux
#endif
import Testing
import Contracts
import FakeAPNs

/// The app's own activity type: the struct its ActivityKit conformance uses, declared once.
struct DeliverySlotAttributes: LiveActivityAttributes {
    struct ContentState: Codable, Hashable, Sendable {
        var slotEnds: Date
        var status: String
    }

    var slotId: String

    static let attributesSchema: Schema = .object([.required("slotId", .string(minLength: 1))])
    static let contentStateSchema: Schema = .object([
        .required("slotEnds", .liveActivityDate),
        .required("status", .string(oneOf: ["open", "closingSoon", "closed"])),
    ], unknownMembers: .allow)
}

/// What your sender does for one Live Activity push: its push type, topic and priority.
func sendLiveActivity(_ aps: String, to token: String, baseURL: URL) async throws -> Int {
    var request = URLRequest(url: baseURL.appendingPathComponent("3/device/\(token)"))
    request.httpMethod = "POST"
    request.setValue("com.example.app.push-type.liveactivity", forHTTPHeaderField: "apns-topic")
    request.setValue("liveactivity", forHTTPHeaderField: "apns-push-type")
    request.setValue("10", forHTTPHeaderField: "apns-priority")
    request.httpBody = Data(#"{"aps":\#(aps)}"#.utf8)
    let (_, response) = try await URLSession(configuration: .ephemeral).data(for: request)
    return (response as? HTTPURLResponse)?.statusCode ?? 0
}

@Test func theDeviceShowsTheCountdownAndJournalsWhatDoesNotDecode() async throws {
    let device = String(repeating: "8f1d37aa", count: 8)  // 32 bytes, as hex
    var configuration = FakeAPNs.Configuration()
    configuration.providerTokens = .ignore  // this test is about the activity, not the provider token
    try await withFakeAPNs(configuration: configuration) { apns in
        apns.register(token: device, topic: "com.example.app")
        let pushToStart = apns.registerPushToStartToken(device: device, for: DeliverySlotAttributes.self)

        let start = #"{"event":"start","timestamp":1764600000,"attributes-type":"DeliverySlotAttributes","attributes":{"slotId":"S-14"},"content-state":{"slotEnds":786294000,"status":"open"},"alert":{"title":"Slot booked","body":"Add items until 15:00"}}"#
        #expect(try await sendLiveActivity(start, to: pushToStart, baseURL: apns.baseURL) == 200)
        let activity = try #require(apns.liveActivities(onDevice: device, of: DeliverySlotAttributes.self).first)
        #expect(activity.contentState == .init(slotEnds: Date(timeIntervalSinceReferenceDate: 786_294_000), status: "open"))

        let renamed = #"{"event":"update","timestamp":1764600060,"content-state":{"endsAt":786294000,"status":"closingSoon"}}"#
        #expect(try await sendLiveActivity(renamed, to: activity.pushToken, baseURL: apns.baseURL) == 200)  // APNs accepts it
        #expect(apns.journal.last?.delivery == .droppedUndecodableContentState)
        #expect(apns.journal.last?.detail?.contains("aps.content-state.slotEnds: required member missing") == true)
        #expect(apns.liveActivity(pushToken: activity.pushToken, as: DeliverySlotAttributes.self)?.contentState.status == "open")

        let contract = Contract.liveActivityPayload(for: DeliverySlotAttributes.self, name: "delivery-slot-activity")
        #expect(contract.validate(bytes: Array(#"{"aps":\#(start)}"#.utf8)).isEmpty)
        #expect(contract.validate(bytes: Array(#"{"aps":\#(renamed)}"#.utf8)).map(\.ruleID) == ["delivery-slot-activity.required"])
    }
}
