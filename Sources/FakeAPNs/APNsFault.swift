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

/// When a fault applies: the next `count` matching requests, or each matching request with
/// a seeded probability, for one device token or for all.
public struct APNsFaultPlan: Sendable, Hashable {
    /// When a plan applies: to the next N requests, or each with a seeded probability.
    public enum Trigger: Sendable, Hashable {
        /// The next N matching requests.
        case next(Int)
        /// Each matching request with this probability (0...1), drawn from a generator seeded with `seed`.
        case probability(Double, seed: UInt64)
    }

    /// What happens to a request the plan applies to.
    public var fault: APNsFault
    /// The device token (hex, any case) the plan is for; nil: every request.
    public var deviceToken: String?
    /// Which requests the plan applies to.
    public var trigger: Trigger

    /// The next `count` requests (for `deviceToken`, or all) get `fault`.
    public static func next(_ count: Int, _ fault: APNsFault, deviceToken: String? = nil) -> APNsFaultPlan {
        APNsFaultPlan(fault: fault, deviceToken: deviceToken?.lowercased(), trigger: .next(count))
    }

    /// Each request (for `deviceToken`, or all) gets `fault` with this probability, drawn
    /// from a generator seeded with `seed` so a run repeats.
    public static func probability(_ probability: Double, seed: UInt64, _ fault: APNsFault, deviceToken: String? = nil) -> APNsFaultPlan {
        APNsFaultPlan(fault: fault, deviceToken: deviceToken?.lowercased(), trigger: .probability(probability, seed: seed))
    }
}
