import FakeSupport

/// What FakeBackend and FakeAPNs share, one name and one shape for each operation (start,
/// stop, `baseURL`, faults, offline, the journal and what it dropped, waits, reset): the same
/// protocol in both modules.
public typealias PushFake = FakeSupport.PushFake

/// The error both fakes throw and return; `FakeAPNsError` is its name in this module.
public typealias PushFakeError = FakeSupport.PushFakeError

extension FakeAPNs: PushFake {
    /// What FakeAPNs can do to a request.
    public typealias Fault = APNsFault
    /// What an APNs fault plan is limited to: a device token (lowercase hex).
    public typealias FaultTarget = String
    /// A request as FakeAPNs' journal keeps it.
    public typealias JournalEntry = APNsJournalEntry
}
