/// When a fault strikes: which endpoint (or all), and for the next N requests or with a
/// seeded probability.
///
/// ```swift
/// backend.setFault(.next(2, .status(code: 503), on: .putDevice))
/// backend.setFault(.probability(0.3, seed: 42, .reset))
/// ```
public struct FaultPlan: Sendable, Hashable, Codable {
    /// How the plan picks the requests it hits.
    public enum Trigger: Sendable, Hashable, Codable {
        /// The next `count` matching requests, then the plan is spent and removed.
        case next(count: Int)
        /// Each matching request with this probability, drawn from a SplitMix64 seeded with
        /// `seed`, so a run is reproducible. Stays until cleared.
        case probability(Double, seed: UInt64)
    }

    public var fault: BackendFault
    /// The endpoint it applies to; nil for every endpoint.
    public var endpoint: FakeBackend.Endpoint?
    public var trigger: Trigger

    public init(_ fault: BackendFault, on endpoint: FakeBackend.Endpoint? = nil, trigger: Trigger = .next(count: 1)) {
        self.fault = fault
        self.endpoint = endpoint
        self.trigger = trigger
    }

    /// The next `count` requests to `endpoint` (nil: any endpoint) get `fault`.
    public static func next(_ count: Int, _ fault: BackendFault, on endpoint: FakeBackend.Endpoint? = nil) -> FaultPlan {
        FaultPlan(fault, on: endpoint, trigger: .next(count: count))
    }

    /// Each request to `endpoint` (nil: any endpoint) gets `fault` with `probability`,
    /// deterministically for a given `seed`.
    public static func probability(_ probability: Double, seed: UInt64, _ fault: BackendFault,
                                   on endpoint: FakeBackend.Endpoint? = nil) -> FaultPlan {
        FaultPlan(fault, on: endpoint, trigger: .probability(probability, seed: seed))
    }
}

/// A plan in force: what is left of its count, and its random stream.
struct ActiveFault: Sendable {
    var plan: FaultPlan
    var remaining: Int
    var random: SplitMix64

    init(_ plan: FaultPlan) {
        self.plan = plan
        switch plan.trigger {
        case .next(let count):
            remaining = max(0, count)
            random = SplitMix64(seed: 0)
        case .probability(_, let seed):
            remaining = Int.max
            random = SplitMix64(seed: seed)
        }
    }

    /// Decides whether this plan hits a request to `endpoint`, consuming a count or a draw.
    mutating func strikes(_ endpoint: FakeBackend.Endpoint) -> Bool {
        if let only = plan.endpoint, only != endpoint { return false }
        switch plan.trigger {
        case .next:
            guard remaining > 0 else { return false }
            remaining -= 1
            return true
        case .probability(let p, _):
            return random.nextUnitInterval() < p
        }
    }

    var isSpent: Bool { remaining <= 0 }
}
