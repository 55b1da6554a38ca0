import Contracts

/// The backend's Live Activity sender, for the `order-tracker` scenario: an adapter over your
/// code that turns an order's changes into Live Activity pushes, pointed at
/// ``ScenarioEnvironment/apnsURL`` with the environment's key.
///
/// The scenario plays the app (its ActivityKit part) and the order: it hands you the tokens
/// the app would report to your backend, then the order's changes, and reads the simulated
/// device to see what the user would see. Every push goes with
/// `apns-push-type: liveactivity` and topic `<topic>.push-type.liveactivity`
/// (``ScenarioEnvironment/liveActivityTopic``); its body follows the `live-activity-payload`
/// contract. Each call returns once APNs answered its push (or the sender gave up).
///
/// ```swift
/// struct MyTrackerAdapter: LiveActivitySender {
///     let tracker: MyOrderTracker          // your backend's code
///     func pushToStartTokenRegistered(_ token: String, device: String) async { await tracker.save(pushToStart: token) }
///     func startTracking(_ attributes: OrderTrackerAttributes, state: OrderTrackerAttributes.ContentState) async {
///         await tracker.start(order: attributes.orderId, showing: state)
///     }
///     func activityTokenRegistered(_ token: String, orderId: String) async { await tracker.save(activityToken: token, for: orderId) }
///     func orderChanged(_ orderId: String, to state: OrderTrackerAttributes.ContentState) async {
///         await tracker.update(orderId, state)
///     }
///     func orderDelivered(_ orderId: String, finalState: OrderTrackerAttributes.ContentState) async {
///         await tracker.end(orderId, state: finalState)
///     }
///     // ScenarioSender's alert pushes: your ordinary APNs client.
///     func tokenRegistered(_ token: String) async {}
///     func send(_ payload: PushPayload, to token: String) async {}
/// }
/// ```
public protocol LiveActivitySender: ScenarioSender {
    /// The app reported the device's push-to-start token (what
    /// `Activity<OrderTrackerAttributes>.pushToStartTokenUpdates` gave it) for the device
    /// `device`: a `start` push goes to it. Lowercase hex.
    func pushToStartTokenRegistered(_ token: String, device: String) async

    /// Start the tracker for `attributes.orderId`, showing `state`: a `start` push to the
    /// push-to-start token, with `attributes-type` `OrderTrackerAttributes.typeName`, the
    /// attributes, `state` as `content-state` and an alert (no personal data).
    func startTracking(_ attributes: OrderTrackerAttributes, state: OrderTrackerAttributes.ContentState) async

    /// The app reported the push token of the activity that follows `orderId` (what
    /// `Activity.pushTokenUpdates` gave it): the order's updates and its end go to this
    /// token, never to the device token. Lowercase hex.
    func activityTokenRegistered(_ token: String, orderId: String) async

    /// The order changed: an `update` push with `state` as `content-state` and an
    /// `aps.timestamp` newer than any sent before for the activity (the device ignores one
    /// that is not). A new stage is something the user should see at once (priority 10);
    /// a change within a stage (a corrected ETA, more items picked) is not (priority 5,
    /// which draws on no budget). A change reported after the order was delivered (a late
    /// report from the rider's app) is not sent: the activity has ended.
    func orderChanged(_ orderId: String, to state: OrderTrackerAttributes.ContentState) async

    /// The order was delivered: an `end` push with `finalState` (stage `delivered`) as its
    /// `content-state`, and optionally a `dismissal-date` (without one the lock screen keeps
    /// it four hours). Nothing more is sent for the order after it.
    func orderDelivered(_ orderId: String, finalState: OrderTrackerAttributes.ContentState) async
}
