import FakeSupport

/// The bad days scripted for FakeAPNs: fault plans (``FakeAPNs/addFault(_:)``) and
/// duplicate-delivery injections (plans whose fault is `loseResponse`). Part of
/// ``FakeAPNsState``, behind the fake's one lock; changed only through its methods.
struct InjectedFaults {
    private var faults = ActiveFaults<APNsFault, String>()
    private var duplicates = ActiveFaults<APNsFault, String>()

    /// The fault plans still in force, in the order they are tried.
    var plans: [APNsFaultPlan] { faults.plans }
    /// The duplicate-delivery injections still in force.
    var duplicatePlans: [APNsFaultPlan] { duplicates.plans }

    mutating func add(_ plan: APNsFaultPlan) {
        faults.add(plan)
    }

    mutating func addDuplicates(_ plan: APNsFaultPlan) {
        duplicates.add(plan)
    }

    mutating func removeAll() {
        faults.removeAll()
        duplicates.removeAll()
    }

    /// Takes the first fault that applies to a request for `token`, consuming one use.
    mutating func takeFault(for token: String?) -> APNsFault? {
        faults.take(for: token)
    }

    /// Whether the next delivery to `token` is to be duplicated.
    mutating func takeDuplicate(for token: String) -> Bool {
        duplicates.take(for: token) != nil
    }
}
