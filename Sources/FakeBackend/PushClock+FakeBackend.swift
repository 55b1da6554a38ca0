import FakeSupport

/// The clock FakeBackend stamps journal entries, devices and opens with; the same type as
/// FakeAPNs' and PushScenarios', so one instance drives them all.
public typealias PushClock = FakeSupport.PushClock
