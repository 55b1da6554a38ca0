import FakeSupport

/// The clock FakeAPNs reads (token ages, `apns-expiration`, throttle windows, budgets); the
/// same type as FakeBackend's and PushScenarios', so one instance drives them all.
public typealias PushClock = FakeSupport.PushClock
