import LoopbackHTTP

extension AdminAPI {
    /// 503 with the reason: the fake's port could not be bound again, so it stays offline
    /// (both fakes' `POST …/offline`, `…/faults` clearing and `…/reset`).
    package static func cannotComeOnline(_ failure: PushFakeError) -> HTTPResponse {
        problem(status: 503, detail: failure.message)
    }
}
