import PushCore

/// The fault plans in force in a fake, with what is left of each: the one place both fakes
/// pick the fault for a request. Kept under the fake's lock; plans are tried in the order
/// they were added and the first that strikes wins.
///
/// Its methods are `@inlinable`, so each fake's calls (one or two on every request) are
/// specialised for its fault and target types rather than run as unspecialised generic code
/// (callgrind: about 3,000 instructions per call, even with no plan in force). The type is
/// `public` (its API is `package`) for that, as ``BoundedRing`` is: the compiler does not
/// serialise an `@inlinable` body for a `package` type, so with the type `package` every
/// call stayed unspecialised, with generic metadata look-ups, whatever its attributes said.
public struct ActiveFaults<Fault: Sendable & Hashable, Target: Sendable & Hashable>: Sendable {
    @usableFromInline
    struct Active: Sendable {
        @usableFromInline var plan: FaultPlan<Fault, Target>
        @usableFromInline var remaining: Int
        @usableFromInline var random: SplitMix64

        @inlinable
        init(plan: FaultPlan<Fault, Target>, remaining: Int, random: SplitMix64) {
            self.plan = plan
            self.remaining = remaining
            self.random = random
        }
    }

    @usableFromInline var active: [Active] = []

    /// `plans` in force, in order (``add(_:)`` each).
    @inlinable
    package init(_ plans: [FaultPlan<Fault, Target>] = []) {
        for plan in plans { add(plan) }
    }

    /// Puts `plan` in force; a `next(count:)` plan with nothing to count is ignored.
    @inlinable
    package mutating func add(_ plan: FaultPlan<Fault, Target>) {
        switch plan.trigger {
        case .next(let count):
            guard count > 0 else { return }
            active.append(Active(plan: plan, remaining: count, random: SplitMix64(seed: 0)))
        case .probability(_, let seed):
            active.append(Active(plan: plan, remaining: Int.max, random: SplitMix64(seed: seed)))
        }
    }

    /// The fault for a request to `target`: the first plan that applies to it (its target is
    /// nil or equal) and strikes, consuming a count or a draw; a spent plan goes. Plans for
    /// which `skip` is true are passed over without a draw.
    @inlinable
    package mutating func take(for target: Target?) -> Fault? {
        active.isEmpty ? nil : take(for: target) { _ in false }
    }

    /// ``take(for:)``, passing over the plans whose fault `skip` names.
    @inlinable
    package mutating func take(for target: Target?, skipping skip: (Fault) -> Bool) -> Fault? {
        for index in active.indices {
            if let wanted = active[index].plan.target, wanted != target { continue }
            if skip(active[index].plan.fault) { continue }
            switch active[index].plan.trigger {
            case .next:
                active[index].remaining -= 1
                let fault = active[index].plan.fault
                if active[index].remaining <= 0 { active.remove(at: index) }
                return fault
            case .probability(let probability, _):
                if active[index].random.nextUnitInterval() < probability { return active[index].plan.fault }
            }
        }
        return nil
    }

    /// The plans as they stand, in the order they are tried: a `next(count:)` plan shows the
    /// requests it has left.
    @inlinable
    package var plans: [FaultPlan<Fault, Target>] {
        active.map { entry in
            var plan = entry.plan
            if case .next = plan.trigger { plan.trigger = .next(count: entry.remaining) }
            return plan
        }
    }

    /// True when no plan is in force.
    @inlinable
    package var isEmpty: Bool { active.isEmpty }

    /// True when a plan in force has this fault (whatever its target and what is left).
    @inlinable
    package func contains(fault: Fault) -> Bool { active.contains { $0.plan.fault == fault } }

    /// Takes every plan out of force.
    @inlinable
    package mutating func removeAll() { active.removeAll() }
}
