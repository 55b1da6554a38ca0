import Foundation
import App
import Contracts
import PushScenarios

/// The order tracker's sender side, as the backend would have it: turns an order's
/// `OrderTrackerAttributes.ContentState` into Live Activity pushes and sends them with the
/// app's `HTTPClient` (pointed at APNs).
///
/// - a `start` to the device's push-to-start token, with the attributes and an alert;
/// - an `update` per change, at priority 10 for a new stage and 5 for a change within one
///   (a corrected ETA, more items picked), which spends none of the activity's budget;
/// - an `end` with the delivered state, dismissed from the lock screen 30 minutes later;
/// - every `aps.timestamp` newer than the last one sent, and nothing after the end.
///
/// The content state goes through a plain `JSONEncoder`, whose `Date` strategy (seconds since
/// 2001) is what ActivityKit decodes; `aps` dates are Unix seconds.
actor OrderTrackerPusher {
    private let http: any HTTPClient
    private let topic: String
    private let authorization: String
    private let now: @Sendable () -> Date
    private var pushToStartToken: String?
    private var orders: [String: Order] = [:]
    private var lastTimestamp: Int64 = 0

    /// What the backend keeps per tracked order.
    private struct Order {
        var activityToken: String?
        var stage: OrderTrackerAttributes.ContentState.Stage
        var ended = false
    }

    /// - Parameters:
    ///   - http: a client whose base URL is APNs (`https://api.push.apple.com`).
    ///   - bundleID: the app's bundle id; the topic is `<bundleID>.push-type.liveactivity`.
    ///   - providerToken: the `authorization: bearer` token, minted once and reused.
    ///   - now: the time the pushes are stamped with.
    init(http: any HTTPClient, bundleID: String, providerToken: String, now: @escaping @Sendable () -> Date) {
        self.http = http
        topic = bundleID + ".push-type.liveactivity"
        authorization = "bearer " + providerToken
        self.now = now
    }

    func setPushToStartToken(_ token: String) {
        pushToStartToken = token
    }

    func setActivityToken(_ token: String, orderId: String) {
        orders[orderId]?.activityToken = token
    }

    func start(_ attributes: OrderTrackerAttributes, showing state: OrderTrackerAttributes.ContentState) async {
        guard let pushToStartToken else { return }
        orders[attributes.orderId] = Order(stage: state.stage)
        var aps = LiveActivityAPS(event: .start, timestamp: nextTimestamp(), contentState: state)
        aps.attributesType = OrderTrackerAttributes.typeName
        aps.attributes = attributes
        aps.alert = .init(title: "Your order is confirmed", body: "Follow it on the lock screen")
        await send(aps, to: pushToStartToken, priority: 10)
    }

    func update(_ orderId: String, to state: OrderTrackerAttributes.ContentState) async {
        guard var order = orders[orderId], !order.ended, let token = order.activityToken else { return }
        let priority = order.stage == state.stage ? 5 : 10
        order.stage = state.stage
        orders[orderId] = order
        await send(LiveActivityAPS(event: .update, timestamp: nextTimestamp(), contentState: state), to: token, priority: priority)
    }

    func end(_ orderId: String, showing state: OrderTrackerAttributes.ContentState) async {
        guard let order = orders[orderId], !order.ended, let token = order.activityToken else { return }
        orders[orderId]?.ended = true
        var aps = LiveActivityAPS(event: .end, timestamp: nextTimestamp(), contentState: state)
        aps.dismissalDate = Int64(now().addingTimeInterval(30 * 60).timeIntervalSince1970)
        await send(aps, to: token, priority: 10)
    }

    /// Now in Unix seconds, moved past the last one sent if the clock has not.
    private func nextTimestamp() -> Int64 {
        lastTimestamp = max(lastTimestamp + 1, Int64(now().timeIntervalSince1970))
        return lastTimestamp
    }

    private func send(_ aps: LiveActivityAPS, to token: String, priority: Int) async {
        guard let body = try? JSONEncoder().encode(["aps": aps]) else { return }
        let fields: HTTPFields = ["authorization": authorization, "apns-topic": topic,
                                  "apns-push-type": "liveactivity", "apns-priority": String(priority)]
        // One attempt: on loopback a push is answered; a real sender retries 429 and 5xx.
        _ = try? await http.send(HTTPRequest(method: "POST", path: "3/device/\(token)", headerFields: fields, body: body))
    }
}

/// The `aps` of a Live Activity push.
struct LiveActivityAPS: Encodable, Sendable {
    enum Event: String, Encodable, Sendable { case start, update, end }
    struct Alert: Encodable, Sendable {
        var title: String
        var body: String
    }

    var event: Event
    var timestamp: Int64
    var contentState: OrderTrackerAttributes.ContentState
    var attributesType: String?
    var attributes: OrderTrackerAttributes?
    var alert: Alert?
    var dismissalDate: Int64?

    init(event: Event, timestamp: Int64, contentState: OrderTrackerAttributes.ContentState) {
        self.event = event
        self.timestamp = timestamp
        self.contentState = contentState
    }

    enum CodingKeys: String, CodingKey {
        case event, timestamp, attributes, alert
        case contentState = "content-state"
        case attributesType = "attributes-type"
        case dismissalDate = "dismissal-date"
    }
}
