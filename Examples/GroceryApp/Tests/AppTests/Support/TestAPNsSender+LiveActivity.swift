import Contracts
import PushScenarios

/// The sender's Live Activity side, for the `order-tracker` scenario: the tokens the app
/// reports and the order's changes go to ``OrderTrackerPusher``.
extension TestAPNsSender: LiveActivitySender {
    func pushToStartTokenRegistered(_ token: String, device: String) async {
        await tracker.setPushToStartToken(token)
    }

    func startTracking(_ attributes: OrderTrackerAttributes, state: OrderTrackerAttributes.ContentState) async {
        await tracker.start(attributes, showing: state)
    }

    func activityTokenRegistered(_ token: String, orderId: String) async {
        await tracker.setActivityToken(token, orderId: orderId)
    }

    func orderChanged(_ orderId: String, to state: OrderTrackerAttributes.ContentState) async {
        await tracker.update(orderId, to: state)
    }

    func orderDelivered(_ orderId: String, finalState: OrderTrackerAttributes.ContentState) async {
        await tracker.end(orderId, showing: finalState)
    }
}
