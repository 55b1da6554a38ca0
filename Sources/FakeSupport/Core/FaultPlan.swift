// The fault plan both fakes script their bad days with: what happens, to which requests,
// and how many or how often. FakeBackend's plans name an endpoint, FakeAPNs' a device token.

/// When a fault plan strikes: the next N matching requests, or each one with a seeded
/// probability.
public enum FaultTrigger: Sendable, Hashable {
    /// The next `count` matching requests, then the plan is spent and removed.
    case next(count: Int)
    /// Each matching request with this probability (0...1), drawn from a SplitMix64 seeded
    /// with `seed`, so a run repeats. Stays until cleared.
    case probability(Double, seed: UInt64)
}

/// A scripted bad day of a fake: `fault` for the requests `target` names (nil: every
/// request), as `trigger` says.
///
/// Both fakes use this one type: `BackendFaultPlan` (a fault on an endpoint) and
/// `APNsFaultPlan` (a fault for a device token) are its two forms, with the same
/// `next(_:_:…)` and `probability(_:seed:_:…)` constructors.
///
/// ```swift
/// backend.addFault(.next(2, .status(code: 503), on: .putDevice))
/// apns.addFault(.probability(0.3, seed: 42, .reason(.tooManyRequests)))
/// ```
public struct FaultPlan<Fault: Sendable & Hashable, Target: Sendable & Hashable>: Sendable, Hashable {
    /// How the plan picks the requests it hits (`FaultTrigger`).
    public typealias Trigger = FaultTrigger

    /// What happens to a request the plan applies to.
    public var fault: Fault
    /// The requests it applies to (an endpoint, a device token); nil for every request.
    public var target: Target?
    /// Which of those requests: the next N, or each with a seeded probability.
    public var trigger: FaultTrigger

    /// A plan applying `fault` to `target`'s requests (nil: every request) as `trigger` says.
    public init(_ fault: Fault, target: Target? = nil, trigger: FaultTrigger = .next(count: 1)) {
        self.fault = fault
        self.target = target
        self.trigger = trigger
    }
}
