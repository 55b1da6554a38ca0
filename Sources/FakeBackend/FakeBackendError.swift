import FakeSupport

/// Why a FakeBackend call failed: the error both fakes share (`PushFakeError`), under this
/// module's name. Compare with its static members: `.timedOut`, `.cancelled`, `.cannotListen`.
public typealias FakeBackendError = PushFakeError
