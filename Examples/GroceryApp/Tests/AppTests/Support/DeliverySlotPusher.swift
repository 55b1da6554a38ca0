import Foundation
import App
import Contracts

/// The delivery-slot countdown's sender side, as the backend would have it: a `start` to the
/// push-to-start token of `DeliverySlotAttributes`, an `update` when the slot is closing or
/// closed, and the bodies it sent (for the contract). The content state is the backend's own
/// model, encoded with a plain `JSONEncoder` (dates in seconds since 2001, as ActivityKit reads
/// them): the app decodes it only as long as both sides agree on its members.
actor DeliverySlotPusher {
    private let http: any HTTPClient
    private let topic: String
    private let now: @Sendable () -> Date
    private var lastTimestamp: Int64 = 0
    /// Each body sent, in order.
    private(set) var sent: [Data] = []

    /// - Parameters:
    ///   - http: a client whose base URL is APNs.
    ///   - bundleID: the app's bundle id; the topic is `<bundleID>.push-type.liveactivity`.
    ///   - now: the time the pushes are stamped with.
    init(http: any HTTPClient, bundleID: String, now: @escaping @Sendable () -> Date) {
        self.http = http
        topic = bundleID + ".push-type.liveactivity"
        self.now = now
    }

    /// Starts the countdown on the device whose push-to-start token for the type is `token`.
    func start(_ attributes: DeliverySlotAttributes, showing state: some Encodable & Sendable, pushToStartToken token: String) async {
        let aps = APS(event: "start", timestamp: nextTimestamp(), contentState: state,
                      attributesType: DeliverySlotAttributes.attributesType, attributes: attributes,
                      alert: ["title": "Slot booked: \(attributes.window)", "body": "Add items until the countdown ends"])
        await send(aps, to: token)
    }

    /// Sends `state` to the activity's push token.
    func update(_ state: some Encodable & Sendable, activityToken token: String) async {
        await send(APS<DeliverySlotAttributes, _>(event: "update", timestamp: nextTimestamp(), contentState: state), to: token)
    }

    private func nextTimestamp() -> Int64 {
        lastTimestamp = max(lastTimestamp + 1, Int64(now().timeIntervalSince1970))
        return lastTimestamp
    }

    private func send(_ aps: some Encodable, to token: String) async {
        guard let body = try? JSONEncoder().encode(["aps": aps]) else { return }
        sent.append(body)
        let fields: HTTPFields = ["apns-topic": topic, "apns-push-type": "liveactivity", "apns-priority": "10"]
        _ = try? await http.send(HTTPRequest(method: "POST", path: "3/device/\(token)", headerFields: fields, body: body))
    }

    private struct APS<Attributes: Encodable & Sendable, State: Encodable & Sendable>: Encodable, Sendable {
        var event: String
        var timestamp: Int64
        var contentState: State
        var attributesType: String?
        var attributes: Attributes?
        var alert: [String: String]?

        enum CodingKeys: String, CodingKey {
            case event, timestamp, attributes, alert
            case contentState = "content-state"
            case attributesType = "attributes-type"
        }
    }
}
