import Foundation
import Contracts
import PushScenarios

/// Deliberate Live Activity sender bugs, one per check of the order-tracker scenario.
enum TrackerFlaw: String, Sendable, CaseIterable {
    /// Every push carries the start's `aps.timestamp`.
    case reusedTimestamp
    /// `content-state` dates encoded as Unix time (`.secondsSince1970`).
    case unixTimeDate
    /// A change reported after delivery is pushed anyway.
    case updateAfterEnd
    /// Every update at priority 10, ETA corrections included.
    case priority10Flood
    /// The rider's name added to `content-state` once the order is on its way.
    case riderNameInState
    /// Updates and the end pushed to the device token, not the activity's.
    case deviceToken
}

/// The reference Live Activity sender: builds each push from the tracker's types, stamps it
/// with the scenario clock's time, sends a new stage at priority 10 and a change within a
/// stage at priority 5, and nothing for an order once it was delivered. It sends no alert
/// pushes (the other scenarios use ``ReferenceSender``).
actor ReferenceTrackerSender: LiveActivitySender {
    private let environment: ScenarioEnvironment
    private let providerToken: String
    private let http = HTTPExchange()
    private let flaw: TrackerFlaw?
    private var pushToStart: String?
    /// Order id → the push token of the activity that follows it.
    private var activityTokens: [String: String] = [:]
    /// Order id → the stage last pushed.
    private var stages: [String: OrderTrackerAttributes.ContentState.Stage] = [:]
    private var delivered: Set<String> = []
    private var firstTimestamp: Int64?

    init(_ environment: ScenarioEnvironment, flaw: TrackerFlaw? = nil) {
        self.environment = environment
        providerToken = environment.providerToken()
        self.flaw = flaw
    }

    func tokenRegistered(_ token: String) {}
    func send(_ payload: PushPayload, to token: String) {}

    func pushToStartTokenRegistered(_ token: String, device: String) {
        pushToStart = token
    }

    func startTracking(_ attributes: OrderTrackerAttributes, state: OrderTrackerAttributes.ContentState) async {
        guard let pushToStart else { return }
        stages[attributes.orderId] = state.stage
        var aps = APS(event: "start", timestamp: timestamp(), contentState: state)
        aps.attributesType = OrderTrackerAttributes.typeName
        aps.attributes = attributes
        aps.alert = ["title": "Order \(attributes.orderId)", "body": "We are on it"]
        await push(aps, to: pushToStart, priority: 10)
    }

    func activityTokenRegistered(_ token: String, orderId: String) {
        activityTokens[orderId] = token
    }

    func orderChanged(_ orderId: String, to state: OrderTrackerAttributes.ContentState) async {
        guard let token = target(orderId), flaw == .updateAfterEnd || !delivered.contains(orderId) else { return }
        let newStage = stages[orderId] != state.stage
        stages[orderId] = state.stage
        await push(APS(event: "update", timestamp: timestamp(), contentState: state), to: token,
                   priority: newStage || flaw == .priority10Flood ? 10 : 5)
    }

    func orderDelivered(_ orderId: String, finalState: OrderTrackerAttributes.ContentState) async {
        guard let token = target(orderId) else { return }
        delivered.insert(orderId)
        await push(APS(event: "end", timestamp: timestamp(), contentState: finalState), to: token, priority: 10)
    }

    private func target(_ orderId: String) -> String? {
        flaw == .deviceToken ? environment.deviceToken : activityTokens[orderId]
    }

    /// Now on the scenario's clock, in Unix seconds (the first one again, with the flaw).
    private func timestamp() -> Int64 {
        let now = Int64(environment.clock.now.timeIntervalSince1970)
        guard flaw == .reusedTimestamp else { return now }
        let first = firstTimestamp ?? now
        firstTimestamp = first
        return first
    }

    private func push(_ aps: APS, to token: String, priority: Int) async {
        let encoder = JSONEncoder()
        if flaw == .unixTimeDate { encoder.dateEncodingStrategy = .secondsSince1970 }
        var body = Body(aps: aps)
        if flaw == .riderNameInState, let stage = aps.contentState?.state.stage, stage == .onTheWay || stage == .arriving {
            body.aps.contentState?.riderName = "Sam Rivera"
        }
        guard let data = try? encoder.encode(body) else { return }
        let headers = ["authorization": "bearer \(providerToken)", "apns-topic": environment.liveActivityTopic,
                       "apns-push-type": "liveactivity", "apns-priority": "\(priority)"]
        _ = try? await http.send("POST", environment.apnsURL.appendingPathComponent("3/device/\(token)"),
                                 headers: headers, body: data)
    }

    private struct Body: Encodable {
        var aps: APS
    }

    private struct APS: Encodable {
        var event: String
        var timestamp: Int64
        var contentState: StateBody?
        var attributesType: String?
        var attributes: OrderTrackerAttributes?
        var alert: [String: String]?

        init(event: String, timestamp: Int64, contentState: OrderTrackerAttributes.ContentState) {
            self.event = event
            self.timestamp = timestamp
            self.contentState = StateBody(state: contentState)
        }

        enum CodingKeys: String, CodingKey {
            case event, timestamp, attributes, alert
            case contentState = "content-state"
            case attributesType = "attributes-type"
        }
    }

    /// The content state as the encoder writes it, plus the flaw's extra member.
    private struct StateBody: Encodable {
        var state: OrderTrackerAttributes.ContentState
        var riderName: String?

        enum CodingKeys: String, CodingKey { case riderName }

        func encode(to encoder: any Encoder) throws {
            try state.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encodeIfPresent(riderName, forKey: .riderName)
        }
    }
}
