import FakeSupport

/// The clock a scenario runs on (``PushScenario/run(clock:grace:client:sender:)``); the
/// same type as FakeBackend's and FakeAPNs', so one instance drives the fakes and your client.
public typealias PushClock = FakeSupport.PushClock
