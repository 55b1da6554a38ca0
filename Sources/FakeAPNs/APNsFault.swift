import FakeSupport

/// A bad day FakeAPNs can script for a request.
public enum APNsFault: Sendable, Hashable {
    /// Answer with this status and reason instead of handling the push (nothing delivered).
    case reason(APNsReason)
    /// Handle the push normally, then answer after this many milliseconds.
    case delay(milliseconds: Int)
    /// Reset the connection (HTTP/1.1) or the stream (HTTP/2); nothing delivered.
    case reset
    /// Handle (and deliver) the push, then lose the answer: a retrying sender creates a
    /// real duplicate.
    case loseResponse
    /// Answer with GOAWAY carrying `{"reason":"…"}` as debug data; nothing delivered.
    case goAway(reason: String)
    /// Accept the request and never answer.
    case hang
}

/// A FakeAPNs fault plan: an ``APNsFault`` for one device token (or every request), for the
/// next N requests or with a seeded probability — the fault plan both fakes share, in its
/// APNs form.
///
/// ```swift
/// apns.addFault(.next(1, .reason(.tooManyRequests), deviceToken: token))
/// apns.addFault(.probability(0.2, seed: 7, .reset))
/// ```
public typealias APNsFaultPlan = FaultPlan<APNsFault, String>

extension FaultPlan where Fault == APNsFault, Target == String {
    /// The device token (lowercase hex) the plan is for; nil: every request (the plan's
    /// `target`).
    public var deviceToken: String? {
        get { target }
        set { target = newValue?.lowercased() }
    }

    /// The next `count` requests (for `deviceToken`, or all) get `fault`.
    public static func next(_ count: Int, _ fault: APNsFault, deviceToken: String? = nil) -> APNsFaultPlan {
        APNsFaultPlan(fault, target: deviceToken?.lowercased(), trigger: .next(count: count))
    }

    /// Each request (for `deviceToken`, or all) gets `fault` with this probability, drawn
    /// from a generator seeded with `seed` so a run repeats.
    public static func probability(_ probability: Double, seed: UInt64, _ fault: APNsFault, deviceToken: String? = nil) -> APNsFaultPlan {
        APNsFaultPlan(fault, target: deviceToken?.lowercased(), trigger: .probability(probability, seed: seed))
    }
}
