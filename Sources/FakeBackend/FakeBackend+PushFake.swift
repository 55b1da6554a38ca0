import FakeSupport

/// What FakeBackend and FakeAPNs share, one name and one shape for each operation (start,
/// stop, `baseURL`, faults, offline, the journal and what it dropped, waits, reset): the same
/// protocol in both modules.
public typealias PushFake = FakeSupport.PushFake

/// The error both fakes throw and return; `FakeBackendError` is its name in this module.
public typealias PushFakeError = FakeSupport.PushFakeError

extension FakeBackend: PushFake {
    /// What FakeBackend can do to a request.
    public typealias Fault = BackendFault
    /// What a backend fault plan is limited to: an endpoint.
    public typealias FaultTarget = Endpoint
    /// A request as the backend's journal keeps it.
    public typealias JournalEntry = BackendJournalEntry
}
