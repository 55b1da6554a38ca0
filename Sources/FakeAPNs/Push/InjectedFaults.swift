import FakeSupport

/// The bad days scripted for FakeAPNs: fault plans (``FakeAPNs/addFault(_:)``) and
/// duplicate-delivery injections (plans whose fault is `loseResponse`). Part of
/// ``FakeAPNsState``, behind the fake's one lock; changed only through its methods.
struct InjectedFaults {
    private var faults = ActiveFaults<APNsFault, String>()
    private var duplicates = ActiveFaults<APNsFault, String>()
    /// Whether a plan may be in force in `faults` / `duplicates`: with none (most tests, every
    /// benchmark push) the push path answers with a Bool instead of entering the generic pick,
    /// which the optimiser left unspecialised here (callgrind: ~1,900 instructions a push
    /// for its two calls and their generic metadata, with no plan in force).
    private var mayFault = false
    private var mayDuplicate = false

    /// The fault plans still in force, in the order they are tried.
    var plans: [APNsFaultPlan] { faults.plans }
    /// The duplicate-delivery injections still in force.
    var duplicatePlans: [APNsFaultPlan] { duplicates.plans }

    mutating func add(_ plan: APNsFaultPlan) {
        faults.add(plan)
        if !faults.isEmpty { mayFault = true }
    }

    mutating func addDuplicates(_ plan: APNsFaultPlan) {
        duplicates.add(plan)
        if !duplicates.isEmpty { mayDuplicate = true }
    }

    mutating func removeAll() {
        faults.removeAll()
        duplicates.removeAll()
        mayFault = false
        mayDuplicate = false
    }

    /// Takes the first fault that applies to a request for `token`, consuming one use.
    mutating func takeFault(for token: String?) -> APNsFault? {
        guard mayFault else { return nil }
        defer { mayFault = !faults.isEmpty }
        return faults.take(for: token)
    }

    /// Whether the next delivery to `token` is to be duplicated.
    mutating func takeDuplicate(for token: String) -> Bool {
        guard mayDuplicate else { return false }
        defer { mayDuplicate = !duplicates.isEmpty }
        return duplicates.take(for: token) != nil
    }
}
