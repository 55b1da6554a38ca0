import FakeSupport

/// Why a FakeAPNs call failed: the error both fakes share (`PushFakeError`), under this
/// module's name. Compare with its static members: `.timedOut`, `.cancelled`,
/// `.cannotListen`, `.badKeySpec`.
public typealias FakeAPNsError = PushFakeError
