import Contracts

/// One call `sender-check` makes to the sender under test: what the backend would ask of its
/// APNs sender. Over the wire each is one JSON line (see ``SenderCall/name``).
public enum SenderCall: Sendable, Hashable {
    /// The backend learnt (again) that `token` belongs to a signed-in device.
    case tokenRegistered(token: String)
    /// Send `push`; answer once it was delivered, the token was dropped, or the sender gave up.
    case send(SenderCheckPush)
    /// The app reported the device's push-to-start token for Live Activities.
    case pushToStartTokenRegistered(token: String, device: String)
    /// Start the order tracker: a `start` push to the push-to-start token.
    case startTracking(OrderTrackerAttributes, state: OrderTrackerAttributes.ContentState)
    /// The app reported the push token of the activity that follows `orderId`.
    case activityTokenRegistered(token: String, orderId: String)
    /// The order changed: an `update` push to the activity's token.
    case orderChanged(orderId: String, state: OrderTrackerAttributes.ContentState)
    /// The order was delivered: an `end` push to the activity's token.
    case orderDelivered(orderId: String, finalState: OrderTrackerAttributes.ContentState)
    /// The run is over: the sender finishes its work and exits.
    case finish

    /// The call's name on the wire: `tokenRegistered`, `send`, `pushToStartTokenRegistered`,
    /// `startTracking`, `activityTokenRegistered`, `orderChanged`, `orderDelivered`, `finish`.
    public var name: String {
        switch self {
        case .tokenRegistered: "tokenRegistered"
        case .send: "send"
        case .pushToStartTokenRegistered: "pushToStartTokenRegistered"
        case .startTracking: "startTracking"
        case .activityTokenRegistered: "activityTokenRegistered"
        case .orderChanged: "orderChanged"
        case .orderDelivered: "orderDelivered"
        case .finish: "finish"
        }
    }
}

/// An alert push `sender-check` asks the sender to send.
public struct SenderCheckPush: Sendable, Hashable {
    /// The device token (lowercase hex).
    public var token: String
    /// `apns-push-type`: `alert`.
    public var pushType: String
    /// The body, valid against the `payload` contract.
    public var payload: PushPayload
    /// `apns-priority`, when the push asks for one.
    public var priority: Int?
    /// `apns-collapse-id`, when the push has one.
    public var collapseID: String?
    /// `apns-expiration`, when the push has one.
    public var expiration: Int64?

    /// An alert push of `payload` to `token`.
    public init(token: String, payload: PushPayload, pushType: String = "alert", priority: Int? = nil,
                collapseID: String? = nil, expiration: Int64? = nil) {
        self.token = token
        self.pushType = pushType
        self.payload = payload
        self.priority = priority
        self.collapseID = collapseID
        self.expiration = expiration
    }
}

/// What the sender said it did with a `send`.
public enum SendResult: String, Sendable, Hashable, CaseIterable {
    /// APNs accepted the push (200).
    case delivered
    /// The sender dropped the token: 410 Unregistered, BadDeviceToken.
    case tokenInvalid = "token-invalid"
    /// The sender gave up on the push.
    case failed
}

/// The sender's answer to one ``SenderCall``.
public enum SenderAnswer: Sendable, Hashable {
    /// Done (every call but `send`).
    case done
    /// The outcome of a `send`, with the sender's optional reason.
    case sent(SendResult, reason: String?)
    /// The sender has no code for this call: the case is skipped, not failed.
    case unsupported
}

/// The sender broke the protocol (exited early, left a call unanswered, wrote a line that is
/// not the protocol): the run stops, and ``sentence`` says what happened.
public struct SenderMisbehaviour: Error, Sendable, Hashable, CustomStringConvertible {
    /// What the sender did, and what it should do.
    public var sentence: String
    /// A misbehaviour described by `sentence`.
    public init(_ sentence: String) { self.sentence = sentence }
    /// ``sentence``.
    public var description: String { sentence }
}

/// The sender `sender-check` grades: a child process speaking JSON lines (the CLI), or a
/// Swift ``ScenarioSender`` (``ScenarioSenderUnderTest``). Calls may overlap (the
/// `max-concurrent-streams` case sends 20 at once).
public protocol SenderUnderTest: Sendable {
    /// Makes `call` and returns the sender's answer once it has one.
    /// - Throws: ``SenderMisbehaviour`` when the sender broke the protocol.
    func perform(_ call: SenderCall) async throws(SenderMisbehaviour) -> SenderAnswer
}
