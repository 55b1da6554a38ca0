import FakeSupport

/// What FakeBackend and FakeAPNs share, one name and one shape for each operation (start,
/// stop, `baseURL`, faults, offline, the journal and what it dropped, waits, reset): the same
/// protocol in both modules.
public typealias PushFake = FakeSupport.PushFake

/// The error both fakes throw and return; `FakeBackendError` is its name in this module.
public typealias PushFakeError = FakeSupport.PushFakeError

/// Its `Fault`, `FaultTarget` and `JournalEntry` are what its fault and journal API take
/// and give (``PushFake``'s requirements name them; the compiler reads them off).
extension FakeBackend: PushFake {}
