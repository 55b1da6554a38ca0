import PushCore
import FakeSupport

/// A plan in force: what is left of its count, and its random stream.
struct ActiveFault: Sendable {
    var plan: BackendFaultPlan
    var remaining: Int
    var random: SplitMix64

    init(_ plan: BackendFaultPlan) {
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
